import { Receipt } from 'lucide-react';
import type { BookingRefundView } from '@/api/model';
import { formatUsd } from '@/lib/money';

/** How a refund's state reads to the seeker. */
export const REFUND_STATUS_TEXT: Record<string, string> = {
  pending: 'on its way',
  succeeded: 'refunded',
  failed: 'failed: please contact support',
  not_needed: 'nothing to refund',
};

export function refundText(refund: BookingRefundView): string {
  const state = REFUND_STATUS_TEXT[refund.status] ?? refund.status;
  if (refund.percentage === 0) return 'No refund (cancelled less than 2 hours before the start)';
  if (refund.status === 'not_needed') return 'Nothing to refund';
  return `Refund ${refund.percentage}%: ${formatUsd(refund.amount)}, ${state}`;
}

/** Under a cancelled session: what came back, and where the refund stands. */
export function RefundLine({ refund }: { refund: BookingRefundView | null | undefined }) {
  if (!refund) return null;
  return (
    <p className="mt-4 flex items-center gap-2 text-sm text-slate-700">
      <Receipt aria-hidden="true" className="h-4 w-4 text-slate-500" />
      {refundText(refund)}
    </p>
  );
}

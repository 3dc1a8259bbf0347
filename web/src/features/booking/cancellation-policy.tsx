import { ShieldCheck } from 'lucide-react';
import { noticeText } from '@/components/minimum-notice-field';
import { Card } from '@/components/ui/card';
import { REFUND_POLICY, RESCHEDULE_CUTOFF_HOURS } from '@/config/constants';

const { fullRefundHours, partialRefundHours, partialRefundPercent } = REFUND_POLICY;

/** What cancelling costs, shown before the seeker pays. */
export function CancellationPolicy({ minimumNoticeMinutes }: { minimumNoticeMinutes?: number }) {
  return (
    <Card className="p-6" aria-labelledby="cancellation-policy-title">
      <h2 id="cancellation-policy-title" className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <ShieldCheck aria-hidden="true" className="h-5 w-5 text-emerald-600" />
        Cancellation policy
      </h2>
      <ul className="mt-3 space-y-2 text-sm text-slate-600">
        <li>
          Cancel {fullRefundHours} hours or more before the start:{' '}
          <span className="font-semibold text-slate-900">full refund</span>.
        </li>
        <li>
          Cancel {partialRefundHours} to {fullRefundHours} hours before:{' '}
          <span className="font-semibold text-slate-900">{partialRefundPercent}% refund</span>.
        </li>
        <li>
          Less than {partialRefundHours} hours before: <span className="font-semibold text-slate-900">no refund</span>.
        </li>
        <li>You can reschedule up to {RESCHEDULE_CUTOFF_HOURS} hours before the start.</li>
        {minimumNoticeMinutes !== undefined && minimumNoticeMinutes > 0 && (
          <li>This mentor takes bookings at least {noticeText(minimumNoticeMinutes)} ahead.</li>
        )}
      </ul>
    </Card>
  );
}

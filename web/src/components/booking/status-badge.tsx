import type { BookingStatusView } from '@/api/model';
import { cn } from '@/lib/utils';

/** One style per state the api names: a new state fails the type check until it has one. */
const STATUS_STYLES: Record<BookingStatusView, string> = {
  reserved: 'bg-sky-50 text-sky-800 ring-sky-200',
  pending: 'bg-amber-50 text-amber-800 ring-amber-200',
  confirmed: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  completed: 'bg-indigo-50 text-indigo-800 ring-indigo-200',
  cancelled: 'bg-slate-100 text-slate-700 ring-slate-200',
  expired: 'bg-slate-100 text-slate-700 ring-slate-200',
};

/** 'confirmed' -> 'Confirmed'. */
export function statusLabel(status: string): string {
  return status ? status[0].toUpperCase() + status.slice(1) : status;
}

/** A booking's status as a coloured pill. */
export function StatusBadge({ status }: { status: BookingStatusView }) {
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset',
        STATUS_STYLES[status],
      )}
    >
      {statusLabel(status)}
    </span>
  );
}

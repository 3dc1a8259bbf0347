import { CalendarDays, Clock, DollarSign, Hourglass, type LucideIcon } from 'lucide-react';
import type { BookingView } from '@/api/model';
import { formatDate, formatTime } from '@/lib/format';
import { servicePriceText } from '@/lib/money';

type Props = { booking: Pick<BookingView, 'scheduledAt' | 'duration' | 'totalAmount' | 'notes'> };

/**
 * The body both dashboards' booking cards share: date and time (the browser's zone), duration and
 * total in a grid, then the seeker's notes when there are any.
 */
export function BookingDetails({ booking }: Props) {
  return (
    <>
      <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-4">
        <Detail icon={CalendarDays} label="Date" value={formatDate(booking.scheduledAt)} />
        <Detail icon={Clock} label="Time" value={formatTime(booking.scheduledAt)} />
        <Detail icon={Hourglass} label="Duration" value={`${booking.duration} minutes`} />
        <Detail icon={DollarSign} label="Total" value={servicePriceText(booking.totalAmount)} />
      </dl>

      {booking.notes && (
        <p className="mt-4 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
          <span className="font-medium text-slate-900">Notes: </span>
          <span className="whitespace-pre-line break-words">{booking.notes}</span>
        </p>
      )}
    </>
  );
}

function Detail({ icon: Icon, label, value }: { icon: LucideIcon; label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="flex items-center gap-1.5 text-xs font-medium uppercase tracking-wide text-slate-500">
        <Icon aria-hidden="true" className="h-3.5 w-3.5" />
        {label}
      </dt>
      <dd className="mt-0.5 font-medium text-slate-900">{value}</dd>
    </div>
  );
}

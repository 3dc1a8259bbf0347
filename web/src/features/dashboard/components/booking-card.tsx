import { CalendarDays, CalendarX, Clock, DollarSign, Hourglass, MessageSquare, RefreshCcw, User, Video } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { MentorAvatar } from '@/components/mentor-avatar';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { canChangeBooking, canStartVideoSession } from '@/lib/booking-rules';
import { formatDate, formatTime } from '@/lib/format';
import { servicePriceText } from '@/lib/money';
import { cn } from '@/lib/utils';
import type { DashboardBooking } from '../api';

const STATUS_STYLES: Record<string, string> = {
  pending: 'bg-amber-50 text-amber-800 ring-amber-200',
  confirmed: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  completed: 'bg-indigo-50 text-indigo-800 ring-indigo-200',
  cancelled: 'bg-slate-100 text-slate-700 ring-slate-200',
};

/** 'confirmed' -> 'Confirmed'. */
export function statusLabel(status: string): string {
  return status ? status[0].toUpperCase() + status.slice(1) : status;
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={cn(
        'inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset',
        STATUS_STYLES[status] ?? STATUS_STYLES.cancelled,
      )}
    >
      {statusLabel(status)}
    </span>
  );
}

/** 02 §2: the message screen with this mentor about this booking (and the call started). */
export function messagesHref(booking: DashboardBooking, startCall = false): string {
  const params = new URLSearchParams({ mentor: booking.mentor.id, booking: booking.id });
  if (startCall) params.set('startCall', 'true');
  return `/messages?${params.toString()}`;
}

/** The card's accessible name: '{service title}, {MMM dd, yyyy} at {h:mm a}'. */
export function bookingCardLabel(booking: DashboardBooking): string {
  return `${booking.service.title}, ${formatDate(booking.scheduledAt)} at ${formatTime(booking.scheduledAt)}`;
}

type BookingCardProps = {
  booking: DashboardBooking;
  now: Date;
  onReschedule: (booking: DashboardBooking) => void;
  onCancel: (booking: DashboardBooking) => void;
  /** Below the actions: the review form of a completed session. */
  children?: ReactNode;
};

/**
 * 02 §2: service, mentor, date and time (the browser's zone), duration, total, status, notes,
 * and the actions the booking allows now (02 §4).
 */
export function BookingCard({ booking, now, onReschedule, onCancel, children }: BookingCardProps) {
  const changeable = canChangeBooking(booking, now);
  const videoOpen = canStartVideoSession(booking, now);
  return (
    <Card role="article" aria-label={bookingCardLabel(booking)} className="p-5 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-display text-lg font-semibold text-slate-900">{booking.service.title}</h3>
          <p className="mt-2 flex items-center gap-2 text-sm text-slate-700">
            <MentorAvatar mentor={booking.mentor} size="sm" className="h-8 w-8 text-xs ring-2 ring-indigo-50" />
            <span className="min-w-0 break-words">
              with <span className="font-medium text-slate-900">{booking.mentor.displayName}</span>
            </span>
          </p>
        </div>
        <StatusBadge status={booking.status} />
      </div>

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

      <div className="mt-5 flex flex-wrap gap-2">
        {videoOpen && (
          <Button asChild variant="gradient" size="sm">
            <Link to={messagesHref(booking, true)}>
              <Video aria-hidden="true" className="h-4 w-4" />
              Start Video Session
            </Link>
          </Button>
        )}
        <Button asChild variant="outline" size="sm">
          <Link to={`/mentor/${booking.mentor.id}`}>
            <User aria-hidden="true" className="h-4 w-4" />
            View Mentor
          </Link>
        </Button>
        <Button asChild variant="outline" size="sm">
          <Link to={messagesHref(booking)}>
            <MessageSquare aria-hidden="true" className="h-4 w-4" />
            Message
          </Link>
        </Button>
        {changeable && (
          <>
            <Button variant="outline" size="sm" onClick={() => onReschedule(booking)}>
              <RefreshCcw aria-hidden="true" className="h-4 w-4" />
              Reschedule
            </Button>
            <Button
              variant="outline"
              size="sm"
              className="border-rose-200 text-rose-700 hover:border-rose-300 hover:bg-rose-50"
              onClick={() => onCancel(booking)}
            >
              <CalendarX aria-hidden="true" className="h-4 w-4" />
              Cancel
            </Button>
          </>
        )}
      </div>
      {children}
    </Card>
  );
}

function Detail({ icon: Icon, label, value }: { icon: typeof Clock; label: string; value: string }) {
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

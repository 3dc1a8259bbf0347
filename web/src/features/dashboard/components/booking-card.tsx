import { CalendarX, MessageSquare, RefreshCcw, User } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { BookingDetails } from '@/components/booking/booking-details';
import { StartVideoButton } from '@/components/booking/start-video-button';
import { StatusBadge } from '@/components/booking/status-badge';
import { MentorAvatar } from '@/components/mentor-avatar';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { canChangeBooking, canStartVideoSession, isInProgress } from '@/lib/booking-rules';
import { HappeningNow } from '@/components/booking/happening-now';
import { formatDate, formatTime } from '@/lib/format';
import type { DashboardBooking } from '../api';

/** A group seat's way into its call: the group sessions page's wording. */
export const GROUP_JOIN_LABEL = 'Join Video Call';

/** The message screen with this mentor about this booking (and the call started). */
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
 * Service, mentor, date and time (the browser's zone), duration, total, status, notes,
 * and the actions the booking allows now.
 */
export function BookingCard({ booking, now, onReschedule, onCancel, children }: BookingCardProps) {
  const changeable = canChangeBooking(booking, now);
  const inProgress = isInProgress(booking, now);
  // A seat in a group session: its call is the group's, and it follows the session's time. The
  // group call admits only while the session is live (start to end), not 15 minutes early.
  const group = booking.groupSessionId;
  const videoOpen = group ? inProgress && booking.status === 'confirmed' : canStartVideoSession(booking, now);
  return (
    <Card role="article" aria-label={bookingCardLabel(booking)} className="p-5 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-display text-lg font-semibold text-slate-900">{booking.service.title}</h3>
          {group && <p className="text-xs font-medium text-indigo-700">Group session</p>}
          <p className="mt-2 flex items-center gap-2 text-sm text-slate-700">
            <MentorAvatar mentor={booking.mentor} size="sm" className="h-8 w-8 text-xs ring-2 ring-indigo-50" />
            <span className="min-w-0 break-words">
              with <span className="font-medium text-slate-900">{booking.mentor.displayName}</span>
            </span>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {inProgress && <HappeningNow />}
          <StatusBadge status={booking.status} />
        </div>
      </div>

      <BookingDetails booking={booking} />

      <div className="mt-5 flex flex-wrap gap-2">
        {videoOpen &&
          (group ? (
            <StartVideoButton to={`/group-video-call/${group}`} label={GROUP_JOIN_LABEL} />
          ) : (
            <StartVideoButton to={messagesHref(booking, true)} />
          ))}
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
            {!group && (
              <Button variant="outline" size="sm" onClick={() => onReschedule(booking)}>
                <RefreshCcw aria-hidden="true" className="h-4 w-4" />
                Reschedule
              </Button>
            )}
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

import { CalendarX, Info, MessageSquare, RefreshCcw, User } from 'lucide-react';
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
import { ComplaintSection } from './complaint-section';

/** A group seat's way into its call: the group sessions page's wording. */
export const GROUP_JOIN_LABEL = 'Join Video Call';

/** What a group seat's card says when its session is over or the mentor removed the seeker. */
export const SEAT_TEXT = {
  ended: 'Session ended',
  endedText: 'The mentor ended this group session.',
  cancelled: 'Session cancelled',
  removed: 'Removed from session',
  removedConduct:
    'The mentor removed you from this session for conduct, so your seat is not refunded. If you think this was unfair, tell us through the contact form.',
  removedOther: 'The mentor removed you from this session; your seat is cancelled and refunded in full.',
} as const;

/**
 * The badge (instead of 'Confirmed') and the line a group seat shows once its session is over or
 * its seeker was removed; null for a one-to-one booking or a seat still going ahead.
 */
export function seatNote(booking: DashboardBooking): { badge: string; text?: string } | null {
  const g = booking.groupSession;
  if (!g) return null;
  if (g.isUserRemoved)
    return {
      badge: SEAT_TEXT.removed,
      text: g.removalReason === 'other' ? SEAT_TEXT.removedOther : SEAT_TEXT.removedConduct,
    };
  if (g.status === 'completed') return { badge: SEAT_TEXT.ended, text: SEAT_TEXT.endedText };
  if (g.status === 'cancelled') return { badge: SEAT_TEXT.cancelled };
  return null;
}

function SeatBadge({ label }: { label: string }) {
  return (
    <span className="inline-flex shrink-0 items-center rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700 ring-1 ring-inset ring-slate-200">
      {label}
    </span>
  );
}

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
  // A seat in a group session: its call is the group's, and it follows the session's time: it
  // opens 15 minutes early like a one-to-one session, until the mentor ends it or removes the seeker.
  const group = booking.groupSessionId;
  const seat = seatNote(booking);
  const videoOpen = canStartVideoSession(booking, now);
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
          {seat && booking.status === 'confirmed' ? (
            <SeatBadge label={seat.badge} />
          ) : (
            <StatusBadge status={booking.status} />
          )}
        </div>
      </div>

      <BookingDetails booking={booking} />
      {seat?.text && (
        <p className="mt-3 flex items-start gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
          <Info aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-slate-500" />
          {seat.text}
        </p>
      )}

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
      <ComplaintSection booking={booking} now={now} />
      {children}
    </Card>
  );
}

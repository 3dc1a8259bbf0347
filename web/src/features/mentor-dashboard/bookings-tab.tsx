import {
  CalendarCheck,
  CalendarDays,
  CalendarX,
  CircleAlert,
  CircleCheck,
  MessageSquare,
  RefreshCw,
  Users,
  Video,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { BookingDetails } from '@/components/booking/booking-details';
import { HappeningNow } from '@/components/booking/happening-now';
import { StartVideoButton } from '@/components/booking/start-video-button';
import { StatusBadge } from '@/components/booking/status-badge';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { MENTOR_DASHBOARD_TEXT as TEXT } from './texts';
import { errorMessage } from '@/lib/api-fetch';
import { isInProgress } from '@/lib/booking-rules';
import { formatDate, formatTime } from '@/lib/format';
import { useMentorGroupSessions } from '@/lib/group-sessions-api';
import { useNow } from '@/lib/use-now';
import { useCancelMentorBooking, useMentorBookings, useUpdateMentorBooking } from './api';
import {
  BOOKING_FILTER_EMPTY,
  BOOKING_FILTER_LABELS,
  BOOKING_FILTERS,
  bookingEntries,
  clientMessagesHref,
  clientName,
  countByFilter,
  filterBookings,
  groupCallHref,
  MAX_CANCELLATION_REASON_CHARS,
  mentorActions,
  seatsTakenText,
  type BookingFilter,
  type GroupBookingEntry,
  type MentorBooking,
  type MentorTransition,
} from './bookings';

const DONE_TOASTS: Record<MentorTransition, string> = {
  confirmed: 'Booking confirmed',
  cancelled: 'Booking cancelled',
  completed: 'Session marked complete',
};

/** The card's accessible name: '{client}, {service title}, {MMM dd, yyyy} at {h:mm a}'. */
export function mentorBookingLabel(booking: MentorBooking): string {
  return `${clientName(booking)}, ${booking.service.title}, ${formatDate(booking.scheduledAt)} at ${formatTime(booking.scheduledAt)}`;
}

/** A group session's card: 'Group session: {title}, {MMM dd, yyyy} at {h:mm a}'. */
export function groupEntryLabel(entry: Pick<GroupBookingEntry, 'title' | 'scheduledAt'>): string {
  return `Group session: ${entry.title}, ${formatDate(entry.scheduledAt)} at ${formatTime(entry.scheduledAt)}`;
}

/** The way into a group session's call from the Bookings tab. */
export const OPEN_GROUP_CALL = 'Open Group Call';

/**
 * The mentor's bookings (upcoming soonest first, then past newest first), filtered, each with what
 * it allows now; a group session's seats are one entry that leads to its call.
 */
export function BookingsTab() {
  const bookings = useMentorBookings();
  // Titles and sizes of group sessions; without them the seats still group, by the service.
  const groupSessions = useMentorGroupSessions();
  const update = useUpdateMentorBooking();
  const now = useNow();
  const cancel = useCancelMentorBooking();
  const [cancelling, setCancelling] = useState<MentorBooking | null>(null);
  const [reason, setReason] = useState('');
  const [filter, setFilter] = useState<BookingFilter>('all');
  const entries = bookingEntries(bookings.data ?? [], groupSessions.data ?? []);
  const shown = filterBookings(entries, filter, now);
  const counts = countByFilter(entries, now);

  const move = (booking: MentorBooking, status: MentorTransition, onDone?: () => void) =>
    update.mutate(
      { id: booking.id, status },
      {
        onSuccess: () => {
          toast.success(DONE_TOASTS[status]);
          onDone?.();
        },
        onError: (error) => {
          toast.error(TEXT.bookingUpdateFailed, { description: errorMessage(error, 'Please try again.') });
          onDone?.();
        },
      },
    );
  const busyId = update.isPending ? update.variables?.id : cancel.isPending ? cancel.variables?.id : undefined;

  const openCancel = (booking: MentorBooking) => {
    setReason('');
    setCancelling(booking);
  };
  const confirmCancel = (booking: MentorBooking) =>
    cancel.mutate(
      { id: booking.id, reason: reason.trim() || undefined },
      {
        onSuccess: () => toast.success(DONE_TOASTS.cancelled),
        onError: (error) =>
          toast.error(TEXT.bookingUpdateFailed, { description: errorMessage(error, 'Please try again.') }),
        onSettled: () => setCancelling(null),
      },
    );

  return (
    <section aria-labelledby="bookings-heading">
      <div>
        <h2 id="bookings-heading" className="font-display text-2xl font-semibold text-slate-900">
          Your Bookings
        </h2>
        <p className="text-sm text-slate-600">
          Sessions seekers have booked with you. Times are in your browser&apos;s time zone.
        </p>
      </div>

      {bookings.isLoading ? (
        <ul aria-label="Loading bookings" className="mt-6 space-y-4">
          {[0, 1, 2].map((i) => (
            <li key={i}>
              <Skeleton className="h-40 w-full rounded-2xl" />
            </li>
          ))}
        </ul>
      ) : bookings.isError ? (
        <StateCard
          as="h3"
          tone="error"
          className="mt-6"
          icon={CircleAlert}
          title={TEXT.bookingsLoadFailed}
          actions={
            <Button onClick={() => void bookings.refetch()}>
              <RefreshCw aria-hidden="true" className="h-4 w-4" />
              Retry
            </Button>
          }
        >
          {errorMessage(bookings.error, 'Your bookings could not be loaded. Please try again.')}
        </StateCard>
      ) : !bookings.data?.length ? (
        <StateCard as="h3" className="mt-6" icon={CalendarDays} title={TEXT.noBookings}>
          When a seeker books one of your services, it shows here.
        </StateCard>
      ) : (
        <>
          <div role="group" aria-label="Show bookings" className="mt-6 flex flex-wrap gap-2">
            {BOOKING_FILTERS.map((f) => (
              <Button
                key={f}
                size="sm"
                variant={filter === f ? 'primary' : 'outline'}
                aria-pressed={filter === f}
                onClick={() => setFilter(f)}
              >
                {BOOKING_FILTER_LABELS[f]}
                <span aria-hidden="true" className="ml-1 tabular-nums opacity-75">
                  {counts[f]}
                </span>
              </Button>
            ))}
          </div>
          {filter !== 'all' && !shown.length ? (
            <p role="status" className="mt-6 text-sm text-slate-600">
              {BOOKING_FILTER_EMPTY[filter]}
            </p>
          ) : (
            <ul aria-label="Bookings" className="mt-4 space-y-4">
              {shown.map((entry) => (
                <li key={entry.id}>
                  {entry.kind === 'group' ? (
                    <GroupSessionEntryCard entry={entry} now={now} />
                  ) : (
                    <MentorBookingCard
                      booking={entry.booking}
                      now={now}
                      busy={busyId === entry.booking.id}
                      onConfirm={() => move(entry.booking, 'confirmed')}
                      onCancel={() => openCancel(entry.booking)}
                      onComplete={() => move(entry.booking, 'completed')}
                    />
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}

      <Dialog
        open={!!cancelling}
        onOpenChange={(open) => !open && !cancel.isPending && setCancelling(null)}
        title="Cancel Booking"
        description={
          cancelling
            ? `${cancelling.service.title} with ${clientName(cancelling)} on ${formatDate(cancelling.scheduledAt)} at ${formatTime(cancelling.scheduledAt)}.`
            : undefined
        }
      >
        <p className="text-sm text-slate-700">The seeker is refunded in full. This cannot be undone.</p>
        <label htmlFor="mentor-cancel-reason" className="mt-4 block text-sm font-medium text-slate-800">
          Reason (optional)
        </label>
        <Textarea
          id="mentor-cancel-reason"
          className="mt-1"
          rows={3}
          maxLength={MAX_CANCELLATION_REASON_CHARS}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          placeholder="Let the seeker know why"
        />
        <p className="mt-1 text-right text-xs text-slate-500">
          {reason.length}/{MAX_CANCELLATION_REASON_CHARS}
        </p>
        <div className="mt-5 flex justify-end gap-3">
          <Button variant="outline" onClick={() => setCancelling(null)} disabled={cancel.isPending}>
            Keep Booking
          </Button>
          <Button
            variant="destructive"
            disabled={cancel.isPending}
            onClick={() => cancelling && confirmCancel(cancelling)}
          >
            {cancel.isPending ? 'Cancelling...' : 'Cancel Booking'}
          </Button>
        </div>
      </Dialog>
    </section>
  );
}

type CardProps = {
  booking: MentorBooking;
  now: Date;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  onComplete: () => void;
};

/** Client, service, date and time, duration, total, status, notes and the allowed actions. */
function MentorBookingCard({ booking, now, busy, onConfirm, onCancel, onComplete }: CardProps) {
  const actions = mentorActions(booking, now);
  return (
    <Card role="article" aria-label={mentorBookingLabel(booking)} className="p-5 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-display text-lg font-semibold text-slate-900">{clientName(booking)}</h3>
          <p className="mt-0.5 text-sm text-slate-600">{booking.service.title}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {isInProgress(booking, now) && <HappeningNow />}
          <StatusBadge status={booking.status} />
        </div>
      </div>

      <BookingDetails booking={booking} />

      <div className="mt-5 flex flex-wrap gap-2">
        {actions.startVideo && <StartVideoButton to={clientMessagesHref(booking, true)} />}
        {actions.confirm && (
          <Button size="sm" onClick={onConfirm} disabled={busy}>
            <CalendarCheck aria-hidden="true" className="h-4 w-4" />
            Confirm
          </Button>
        )}
        {actions.complete && (
          <Button size="sm" onClick={onComplete} disabled={busy}>
            <CircleCheck aria-hidden="true" className="h-4 w-4" />
            Mark Complete
          </Button>
        )}
        <Button asChild variant="outline" size="sm">
          <Link to={clientMessagesHref(booking)}>
            <MessageSquare aria-hidden="true" className="h-4 w-4" />
            Message Client
          </Link>
        </Button>
        {actions.cancel && (
          <Button
            variant="outline"
            size="sm"
            disabled={busy}
            className="border-rose-200 text-rose-700 hover:border-rose-300 hover:bg-rose-50"
            onClick={onCancel}
          >
            <CalendarX aria-hidden="true" className="h-4 w-4" />
            Cancel Booking
          </Button>
        )}
      </div>
    </Card>
  );
}

/**
 * One group session for all its seats: title, date and time, duration, seats taken of the most,
 * and, while its call window is open, the way into the group call.
 */
function GroupSessionEntryCard({ entry, now }: { entry: GroupBookingEntry; now: Date }) {
  // The group call admits only while the session is live (start to end), not 15 minutes early.
  const open = entry.status === 'confirmed' && isInProgress(entry, now);
  return (
    <Card role="article" aria-label={groupEntryLabel(entry)} className="p-5 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-display text-lg font-semibold text-slate-900">{entry.title}</h3>
          <p className="mt-0.5 flex items-center gap-1.5 text-sm text-slate-600">
            <Users aria-hidden="true" className="h-4 w-4" />
            Group session · {seatsTakenText(entry)}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {isInProgress(entry, now) && <HappeningNow />}
          <StatusBadge status={entry.status} />
        </div>
      </div>

      <dl className="mt-4 grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-4">
        <GroupDetail label="Date" value={formatDate(entry.scheduledAt)} />
        <GroupDetail label="Time" value={formatTime(entry.scheduledAt)} />
        <GroupDetail label="Duration" value={`${entry.duration} minutes`} />
        <GroupDetail label="Seats" value={seatsTakenText(entry)} />
      </dl>

      {open && (
        <div className="mt-5 flex flex-wrap gap-2">
          <Button asChild variant="gradient" size="sm">
            <Link to={groupCallHref(entry.groupSessionId)}>
              <Video aria-hidden="true" className="h-4 w-4" />
              {OPEN_GROUP_CALL}
            </Link>
          </Button>
        </div>
      )}
    </Card>
  );
}

function GroupDetail({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 font-medium text-slate-900">{value}</dd>
    </div>
  );
}

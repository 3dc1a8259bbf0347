/**
 * The Bookings tab's rules: which actions a booking card offers a mentor now, and the
 * links to the message screen. The video window is the shared rule of lib/booking-rules.
 */
import type { BookingView, GroupSessionView } from '@/api/model';
import { canStartVideoSession } from '@/lib/booking-rules';

export type MentorBooking = BookingView;

/** The statuses a mentor may move a booking to (docs/after-booking.md). */
export type MentorTransition = 'confirmed' | 'cancelled' | 'completed';

export type MentorActions = {
  /** pending -> confirmed ('Confirm'). */
  confirm: boolean;
  /** 'Cancel Booking': pending or confirmed and not started yet (the seeker is refunded in full). */
  cancel: boolean;
  /** confirmed -> completed ('Mark Complete'), once the session has ended (the api refuses it before). */
  complete: boolean;
  /** 'Start Video Session': confirmed, from 15 minutes before the start until start plus duration. */
  startVideo: boolean;
};

/** The longest reason a mentor may give when cancelling (POST /api/mentor/bookings/{id}/cancel). */
export const MAX_CANCELLATION_REASON_CHARS = 500;

/**
 * Pending offers Confirm; pending or confirmed before the start offers Cancel Booking; confirmed
 * and ended offers Mark Complete; completed and cancelled offer none.
 */
export function mentorActions(
  booking: Pick<MentorBooking, 'status' | 'scheduledAt' | 'duration'>,
  now: Date = new Date(),
): MentorActions {
  return {
    confirm: booking.status === 'pending',
    cancel:
      (booking.status === 'pending' || booking.status === 'confirmed') &&
      new Date(booking.scheduledAt).getTime() > now.getTime(),
    complete: booking.status === 'confirmed' && sessionHasEnded(booking, now),
    startVideo: canStartVideoSession(booking, now),
  };
}

/** Whether start plus duration has passed. */
export function sessionHasEnded(booking: Pick<MentorBooking, 'scheduledAt' | 'duration'>, now: Date): boolean {
  return new Date(booking.scheduledAt).getTime() + booking.duration * 60_000 <= now.getTime();
}

/** The conversation with the seeker about this booking: /messages?user={userId}&booking={bookingId}, with &startCall=true to start the call. */
export function clientMessagesHref(booking: Pick<MentorBooking, 'id' | 'user'>, startCall = false): string {
  const params = new URLSearchParams({ user: booking.user.id, booking: booking.id });
  if (startCall) params.set('startCall', 'true');
  return `/messages?${params.toString()}`;
}

/** 'Ada Lovelace' (or 'Client' when the seeker has no name). */
export function clientName(booking: Pick<MentorBooking, 'user'>): string {
  return [booking.user.firstName, booking.user.lastName].filter((s) => s && s.trim()).join(' ') || 'Client';
}

/** The Bookings tab's filters; 'all' shows upcoming then past then cancelled. */
export const BOOKING_FILTERS = ['all', 'upcoming', 'past', 'cancelled'] as const;
export type BookingFilter = (typeof BOOKING_FILTERS)[number];

export const BOOKING_FILTER_LABELS: Record<BookingFilter, string> = {
  all: 'All',
  upcoming: 'Upcoming',
  past: 'Past',
  cancelled: 'Cancelled',
};

export const BOOKING_FILTER_EMPTY: Record<Exclude<BookingFilter, 'all'>, string> = {
  upcoming: 'No upcoming bookings',
  past: 'No past bookings',
  cancelled: 'No cancelled bookings',
};

/**
 * Cancelled (or a hold that lapsed); upcoming until the session has ended (a live session is
 * still upcoming); past otherwise.
 */
export function bookingPhase(
  booking: Pick<MentorBooking, 'status' | 'scheduledAt' | 'duration'>,
  now: Date,
): Exclude<BookingFilter, 'all'> {
  if (booking.status === 'cancelled' || booking.status === 'expired') return 'cancelled';
  if (booking.status === 'completed' || sessionHasEnded(booking, now)) return 'past';
  return 'upcoming';
}

const startOf = (b: Pick<MentorBooking, 'scheduledAt'>) => new Date(b.scheduledAt).getTime();

/** The bookings a filter shows: upcoming soonest first, past and cancelled newest first. */
export function filterBookings<B extends Pick<MentorBooking, 'status' | 'scheduledAt' | 'duration'>>(
  bookings: readonly B[],
  filter: BookingFilter,
  now: Date,
): B[] {
  const of = (phase: Exclude<BookingFilter, 'all'>) => bookings.filter((b) => bookingPhase(b, now) === phase);
  const soonestFirst = (list: B[]) => [...list].sort((a, b) => startOf(a) - startOf(b));
  const newestFirst = (list: B[]) => [...list].sort((a, b) => startOf(b) - startOf(a));
  switch (filter) {
    case 'upcoming':
      return soonestFirst(of('upcoming'));
    case 'past':
      return newestFirst(of('past'));
    case 'cancelled':
      return newestFirst(of('cancelled'));
    case 'all':
      return [...soonestFirst(of('upcoming')), ...newestFirst(of('past')), ...newestFirst(of('cancelled'))];
  }
}

/** How many bookings each filter shows. */
export function countByFilter(
  bookings: readonly Pick<MentorBooking, 'status' | 'scheduledAt' | 'duration'>[],
  now: Date,
): Record<BookingFilter, number> {
  const counts: Record<BookingFilter, number> = { all: bookings.length, upcoming: 0, past: 0, cancelled: 0 };
  for (const b of bookings) counts[bookingPhase(b, now)] += 1;
  return counts;
}

/** The fields {@link filterBookings} and {@link countByFilter} read, plus a key. */
type EntryBase = Pick<MentorBooking, 'status' | 'scheduledAt' | 'duration'> & { id: string };

/** A one-to-one booking: one card per booking. */
export type SingleBookingEntry = EntryBase & { kind: 'booking'; booking: MentorBooking };

/**
 * A group session: one card for all its seats, with the session's title, time and seats taken of
 * the most. Its status is the session's as its seats tell it: cancelled when every seat is (or the
 * session was cancelled), completed when every remaining seat is, else confirmed (or pending).
 */
export type GroupBookingEntry = EntryBase & {
  kind: 'group';
  groupSessionId: string;
  title: string;
  /** Seats taken (booked, plus held while paying, when the session is known), and the most. */
  seatsTaken: number;
  maxParticipants: number | null;
  /** The seats still standing (not cancelled). */
  seats: MentorBooking[];
};

export type BookingEntry = SingleBookingEntry | GroupBookingEntry;

/** The group session fields the Bookings tab reads (GET /api/mentor/group-sessions). */
export type KnownGroupSession = Pick<
  GroupSessionView,
  'id' | 'title' | 'status' | 'maxParticipants' | 'currentParticipants' | 'scheduledAt'
>;

const isGone = (b: Pick<MentorBooking, 'status'>) => b.status === 'cancelled' || b.status === 'expired';

function groupStatus(seats: readonly MentorBooking[], session?: KnownGroupSession): MentorBooking['status'] {
  const standing = seats.filter((b) => !isGone(b));
  if (session?.status === 'cancelled' || !standing.length) return 'cancelled';
  if (session?.status === 'completed' || standing.every((b) => b.status === 'completed')) return 'completed';
  return standing.some((b) => b.status === 'confirmed' || b.status === 'completed') ? 'confirmed' : 'pending';
}

/**
 * The tab's entries: each one-to-one booking on its own, and ONE entry per group session for all
 * its seats (a seat booking carries its groupSessionId), titled and sized by the mentor's group
 * session when it is known.
 */
export function bookingEntries(
  bookings: readonly MentorBooking[],
  sessions: readonly KnownGroupSession[] = [],
): BookingEntry[] {
  const known = new Map(sessions.map((s) => [s.id, s]));
  const seatsBySession = new Map<string, MentorBooking[]>();
  const entries: BookingEntry[] = [];
  for (const booking of bookings) {
    const group = booking.groupSessionId;
    if (!group) {
      entries.push({
        kind: 'booking',
        id: booking.id,
        status: booking.status,
        scheduledAt: booking.scheduledAt,
        duration: booking.duration,
        booking,
      });
      continue;
    }
    const seats = seatsBySession.get(group);
    if (seats) seats.push(booking);
    else seatsBySession.set(group, [booking]);
  }
  for (const [groupSessionId, seats] of seatsBySession) {
    const session = known.get(groupSessionId);
    const standing = seats.filter((b) => !isGone(b));
    const first = seats[0];
    entries.push({
      kind: 'group',
      id: `group-${groupSessionId}`,
      groupSessionId,
      title: session?.title ?? first.service.title,
      status: groupStatus(seats, session),
      scheduledAt: session?.scheduledAt ?? first.scheduledAt,
      duration: first.duration,
      seatsTaken: session?.currentParticipants ?? standing.length,
      maxParticipants: session?.maxParticipants ?? null,
      seats: standing,
    });
  }
  return entries;
}

/** '3/4 seats taken' (or '3 seats taken' while the session's size is unknown). */
export function seatsTakenText(entry: Pick<GroupBookingEntry, 'seatsTaken' | 'maxParticipants'>): string {
  const taken = entry.maxParticipants == null ? `${entry.seatsTaken}` : `${entry.seatsTaken}/${entry.maxParticipants}`;
  return `${taken} ${entry.seatsTaken === 1 && entry.maxParticipants == null ? 'seat' : 'seats'} taken`;
}

/** The group call of a group session. */
export function groupCallHref(groupSessionId: string): string {
  return `/group-video-call/${groupSessionId}`;
}

/**
 * The Bookings tab's rules: which actions a booking card offers a mentor now, and the
 * links to the message screen. The video window is the shared rule of lib/booking-rules.
 */
import type { BookingView } from '@/api/model';
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

/**
 * When a booking may do what. Pure functions of the booking and the current time,
 * shared by the client dashboard (and any other screen that shows bookings).
 *
 * - Upcoming: pending or confirmed that has not ended (the spec's 'those whose time has passed'
 *   is read as the session's end, start plus duration): a session in progress stays upcoming,
 *   'Happening now', so a late seeker still finds it and its join button. Everything else
 *   (completed, cancelled, or ended) is history.
 * - Reschedule and cancel: only pending or confirmed bookings that have not started; the api
 *   moves a booking only up to 2 hours before its start.
 * - Start Video Session: only a confirmed booking, from 15 minutes before the start until the
 *   start plus the duration (the end itself is outside); a group seat's call opens the same way.
 * - A group seat whose session ended, or whose seeker was removed, is history at once.
 */
import { REFUND_POLICY, RESCHEDULE_CUTOFF_HOURS, VIDEO_JOIN_EARLY_MINUTES } from '@/config/constants';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export const BOOKING_STATUSES = ['pending', 'confirmed', 'completed', 'cancelled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/**
 * The fields the rules read: status, ISO start, duration in minutes, and for a group seat its
 * session's state and whether the mentor removed the seeker.
 */
export type TimedBooking = {
  status: string;
  scheduledAt: string;
  duration: number;
  groupSession?: { status: string; isUserRemoved: boolean } | null;
};

/**
 * A group seat whose session is over (the mentor ended or cancelled it) or whose seeker the mentor
 * removed: it shows as such at once, before its booking completes after the complaint window.
 */
export function isSeatOver(booking: Pick<TimedBooking, 'groupSession'>): boolean {
  const g = booking.groupSession;
  return !!g && (g.isUserRemoved || g.status === 'completed' || g.status === 'cancelled');
}

function startMs(booking: Pick<TimedBooking, 'scheduledAt'>): number {
  return new Date(booking.scheduledAt).getTime();
}

/** Pending or confirmed: the booking still stands. */
export function isLive(booking: Pick<TimedBooking, 'status'>): boolean {
  return booking.status === 'pending' || booking.status === 'confirmed';
}

function endMs(booking: Pick<TimedBooking, 'scheduledAt' | 'duration'>): number {
  return startMs(booking) + booking.duration * MINUTE_MS;
}

/** Confirmed or pending and not ended yet (a session in progress is still upcoming). */
export function isUpcoming(booking: TimedBooking, now: Date = new Date()): boolean {
  return isLive(booking) && endMs(booking) > now.getTime() && !isSeatOver(booking);
}

/** Confirmed or pending, started and not ended: 'Happening now'. */
export function isInProgress(booking: TimedBooking, now: Date = new Date()): boolean {
  const t = now.getTime();
  return isLive(booking) && startMs(booking) <= t && t < endMs(booking) && !isSeatOver(booking);
}

/** Completed, cancelled, or whose time has passed (ended). */
export function isPast(booking: TimedBooking, now: Date = new Date()): boolean {
  return !isUpcoming(booking, now);
}

/** Reschedule and Cancel are offered for a pending or confirmed booking that has not started. */
export function canChangeBooking(booking: TimedBooking, now: Date = new Date()): boolean {
  return isLive(booking) && startMs(booking) > now.getTime() && !isSeatOver(booking);
}

/** A booking can be moved up to 2 hours before it starts; from then on it is too late. */
export function isRescheduleClosed(booking: Pick<TimedBooking, 'scheduledAt'>, now: Date = new Date()): boolean {
  return startMs(booking) - now.getTime() < RESCHEDULE_CUTOFF_HOURS * HOUR_MS;
}

/** The video session opens 15 minutes before the start and closes at start plus duration. */
export function videoSessionWindow(booking: Pick<TimedBooking, 'scheduledAt' | 'duration'>): {
  opens: Date;
  closes: Date;
} {
  const start = startMs(booking);
  return {
    opens: new Date(start - VIDEO_JOIN_EARLY_MINUTES * MINUTE_MS),
    closes: new Date(start + booking.duration * MINUTE_MS),
  };
}

/** Start Video Session, for a confirmed booking inside {@link videoSessionWindow}. */
export function canStartVideoSession(booking: TimedBooking, now: Date = new Date()): boolean {
  if (booking.status !== 'confirmed' || isSeatOver(booking)) return false;
  const { opens, closes } = videoSessionWindow(booking);
  const t = now.getTime();
  return t >= opens.getTime() && t < closes.getTime();
}

/**
 * The dashboard's two lists: upcoming soonest first, history newest first.
 * (The api sends bookings newest start first.)
 */
export function splitBookings<T extends TimedBooking>(
  bookings: T[],
  now: Date = new Date(),
): { upcoming: T[]; history: T[] } {
  const byStart = (a: T, b: T) => startMs(a) - startMs(b);
  const upcoming = bookings.filter((b) => isUpcoming(b, now)).sort(byStart);
  const history = bookings.filter((b) => !isUpcoming(b, now)).sort((a, b) => byStart(b, a));
  return { upcoming, history };
}

/**
 * The share of the price refunded when a seeker cancels `hoursBefore` hours before the
 * start: 24 hours or more 100%, 2 to 24 hours 50%, under 2 hours (or after the start) 0%.
 * The api computes the exact amount (GET /api/user/bookings/{id}/refund-preview); this names the
 * tier that applies, for the policy the cancel dialog shows.
 */
export function refundPercentForHours(hoursBefore: number): number {
  if (hoursBefore >= REFUND_POLICY.fullRefundHours) return 100;
  if (hoursBefore >= REFUND_POLICY.partialRefundHours) return REFUND_POLICY.partialRefundPercent;
  return 0;
}

/** {@link refundPercentForHours} for a session starting at `start`, cancelled at `now`. */
export function refundPercentAt(start: Date | string, now: Date = new Date()): number {
  return refundPercentForHours((new Date(start).getTime() - now.getTime()) / HOUR_MS);
}

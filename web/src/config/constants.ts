/**
 * The numbers and texts of the specification that several areas of the web app share.
 * A value that one feature (or one components/ or lib/ module) uses lives next to it instead.
 * Spec references: 01 = accounts, messaging, browsing; 02 = mentors, booking, admin.
 */

/** The product's name as the web app shows it. */
export const APP_NAME = 'Mystic Mentors';

// --- Browsing -------------------------------------------------------------------------

export const MENTOR_SKELETON_COUNT = 6;
export const DEFAULT_MENTOR_RATING = 5;

// --- Accounts -------------------------------------------------------------------------

export const MIN_PASSWORD_LENGTH = 8;

// --- Tooltips (01: 'tooltip delay 700 ms, skip window 300 ms') -------------------------

/** How long the pointer rests on a control before its tooltip shows. */
export const TOOLTIP_DELAY_MS = 700;
/** After a tooltip closes, another one within this time shows without the delay. */
export const TOOLTIP_SKIP_DELAY_MS = 300;

// --- Badges ---------------------------------------------------------------------------

/** Badges show '99+' above this count. */
export const BADGE_MAX_COUNT = 99;

/** Shows a count for a badge: the number itself, or '99+' above {@link BADGE_MAX_COUNT}. */
export function badgeCount(count: number): string {
  return count > BADGE_MAX_COUNT ? `${BADGE_MAX_COUNT}+` : String(count);
}

// --- Platform facts (the booking flow, the dashboards and the help pages) -------------

/** Support replies within 24 hours. */
export const SUPPORT_RESPONSE_HOURS = 24;
/** A session can be booked from today up to 90 days ahead. */
export const BOOKING_WINDOW_DAYS = 90;
/** After a free booking, go to /dashboard after 1.5 s. */
export const FREE_BOOKING_REDIRECT_DELAY_MS = 1_500;
/** A reservation holds a slot for 60 minutes while the seeker pays. */
export const RESERVATION_HOLD_MINUTES = 60;
/** Refund on cancellation by hours before the session. */
export const REFUND_POLICY = {
  fullRefundHours: 24,
  partialRefundHours: 2,
  partialRefundPercent: 50,
} as const;
/** A booking can be rescheduled up to 2 hours before it starts. */
export const RESCHEDULE_CUTOFF_HOURS = 2;
/** The video session opens 15 minutes before the start. */
export const VIDEO_JOIN_EARLY_MINUTES = 15;

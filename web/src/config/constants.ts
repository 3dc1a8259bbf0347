/**
 * Every number and fixed text the specification gives the web app, in one place.
 * Spec references: 01 = accounts, messaging, browsing; 02 = mentors, booking, admin.
 */

/** The product's name as the web app shows it. */
export const APP_NAME = 'Mystic Mentors';

// --- Timing -------------------------------------------------------------------------

/** 02 §9: after a password reset or an e-mail verification, go to /auth after 3 s. */
export const AUTH_REDIRECT_DELAY_MS = 3_000;
/** 01 §9: a logged-out user on the home screen is sent to /api/login after 500 ms. */
export const LOGGED_OUT_REDIRECT_DELAY_MS = 500;
/** 01 §9: a call started through startCall=true begins after 0.5 s. */
export const START_CALL_DELAY_MS = 500;
/** 02 §9: after a free booking, go to /dashboard after 1.5 s. */
export const FREE_BOOKING_REDIRECT_DELAY_MS = 1_500;

// --- Toasts and tooltips (01 §9) ------------------------------------------------------

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5_000;
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

// --- Polling (01 §9) -------------------------------------------------------------------

export const UNREAD_MESSAGES_POLL_MS = 30_000;
export const UNREAD_MESSAGES_STALE_MS = 25_000;
export const NOTIFICATIONS_POLL_MS = 30_000;
export const NOTIFICATIONS_LIST_LIMIT = 10;
/** Badges show '99+' above this count. */
export const BADGE_MAX_COUNT = 99;

// --- Browsing (01 §9) -----------------------------------------------------------------

export const FEATURED_MENTORS_COUNT = 3;
export const MAX_CARD_SPECIALTIES = 2;
export const MENTOR_SKELETON_COUNT = 6;
export const DEFAULT_MENTOR_RATING = 5;

// --- Accounts (02 §5, §9) -------------------------------------------------------------

export const MIN_PASSWORD_LENGTH = 8;

// --- Platform facts -------------------------------------------------------------------

/** 01 §1, 02 §9: the platform keeps 15% of mentor earnings. */
export const PLATFORM_FEE_PERCENT = 15;
/** 01 §1: support replies within 24 hours. */
export const SUPPORT_RESPONSE_HOURS = 24;

// --- Landing page statistics (01 §2, static) -------------------------------------------

export const LANDING_STATS = [
  { value: '1000+', label: 'Mentors' },
  { value: '$50+', label: 'Average hourly rate' },
  { value: '4.9', label: 'Average rating' },
] as const;

/** Shows a count for a badge: the number itself, or '99+' above {@link BADGE_MAX_COUNT}. */
export function badgeCount(count: number): string {
  return count > BADGE_MAX_COUNT ? `${BADGE_MAX_COUNT}+` : String(count);
}

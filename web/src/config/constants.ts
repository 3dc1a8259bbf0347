/**
 * Every number and fixed text the specification gives the web app, in one place.
 * Spec references: 01 = accounts, messaging, browsing; 02 = mentors, booking, admin.
 */

/** The product's name as the web app shows it. */
export const APP_NAME = 'Mystic Mentors';

// --- Timing ---------------------------------------------------------------------------

/** After a password reset or an e-mail verification, go to /auth after 3 s. */
export const AUTH_REDIRECT_DELAY_MS = 3_000;
/** A logged-out user on the home screen is sent to /api/login after 500 ms. */
export const LOGGED_OUT_REDIRECT_DELAY_MS = 500;
/** A call started through startCall=true begins after 0.5 s. */
export const START_CALL_DELAY_MS = 500;
/** After a free booking, go to /dashboard after 1.5 s. */
export const FREE_BOOKING_REDIRECT_DELAY_MS = 1_500;

// --- Toasts and tooltips --------------------------------------------------------------

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5_000;
/** Where toasts appear: away from the header and its controls. */
export const TOAST_POSITION = 'bottom-right' as const;
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

// --- Polling --------------------------------------------------------------------------

export const UNREAD_MESSAGES_POLL_MS = 30_000;
export const UNREAD_MESSAGES_STALE_MS = 25_000;
export const NOTIFICATIONS_POLL_MS = 30_000;
export const NOTIFICATIONS_LIST_LIMIT = 10;
/** Badges show '99+' above this count. */
export const BADGE_MAX_COUNT = 99;

// --- Browsing -------------------------------------------------------------------------

export const FEATURED_MENTORS_COUNT = 3;
export const MAX_CARD_SPECIALTIES = 2;
export const MENTOR_SKELETON_COUNT = 6;
export const DEFAULT_MENTOR_RATING = 5;

// --- Accounts -------------------------------------------------------------------------

export const MIN_PASSWORD_LENGTH = 8;

// --- Platform facts -------------------------------------------------------------------

/** Support replies within 24 hours. */
export const SUPPORT_RESPONSE_HOURS = 24;

// --- Support, policies and static pages -----------------------------------------------

/** Support hours. */
export const SUPPORT_HOURS = {
  weekdays: 'Mon to Fri 9 AM to 8 PM EST',
  weekends: 'Sat to Sun 10 AM to 6 PM EST',
} as const;
/** Terms and privacy policy were last updated in this month. */
export const POLICIES_LAST_UPDATED = 'November 2026';
/** The minimum age to hold an account. */
export const MINIMUM_AGE = 18;
/** Days of notice before a material change of the terms takes effect. */
export const TERMS_CHANGE_NOTICE_DAYS = 30;
/** How long transaction records and communication logs are kept. */
export const TRANSACTION_RECORDS_RETENTION_YEARS = 7;
export const COMMUNICATION_LOGS_RETENTION_YEARS = 3;
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
/** Group sessions take 2 to 20 participants. */
export const GROUP_SIZE = { min: 2, max: 20 } as const;
/** Complaints about a session are accepted within 24 hours of it. */
export const COMPLAINT_WINDOW_HOURS = 24;
/** Profile images are at most 5 MB. */
export const MAX_PROFILE_IMAGE_BYTES = 5 * 1024 * 1024;

/** Shows a count for a badge: the number itself, or '99+' above {@link BADGE_MAX_COUNT}. */
export function badgeCount(count: number): string {
  return count > BADGE_MAX_COUNT ? `${BADGE_MAX_COUNT}+` : String(count);
}

// --- Booking and payment --------------------------------------------------------------

/** A session can be booked from today up to 90 days ahead. */
export const BOOKING_WINDOW_DAYS = 90;
/** A card number has at most 16 digits and can be submitted from 13. */
export const CARD_NUMBER_MAX_DIGITS = 16;
export const CARD_NUMBER_MIN_DIGITS = 13;
/** The card's security code has 3 or 4 digits. */
export const CARD_CODE_MIN_DIGITS = 3;
export const CARD_CODE_MAX_DIGITS = 4;
/** The expiry is typed as MM/YY, five characters. */
export const CARD_EXPIRY_LENGTH = 5;

/** The fixed texts of the booking page, slot picker and card payment. */
export const BOOKING_TEXT = {
  serviceNotFoundTitle: 'Service Not Found',
  serviceNotFoundText: "The service you're looking for doesn't exist or is no longer available.",
  selectDateAndTime: 'Please select a date and time',
  noAvailableTimes: 'No available times',
  noAvailableTimesHint: 'Please select another date or contact the mentor.',
  slotsLoadFailed: 'Failed to load available times',
  freeBookedTitle: 'Free Session Booked!',
  freeBookedText: 'Your free session has been confirmed.',
  reservationErrorTitle: 'Error',
  reservationFailed: 'Failed to create reservation',
  paymentSuccessTitle: 'Payment Successful!',
  paymentSuccessText: 'Your booking has been confirmed.',
  paymentFailedTitle: 'Payment Failed',
  paymentFailedFallback: 'Payment could not be processed',
  paymentErrorTitle: 'Payment Error',
  paymentErrorText: 'An error occurred while processing payment',
} as const;

// --- Notifications --------------------------------------------------------------------

/** The /notifications page lists up to the api's maximum (GET /api/notifications allows 1..100). */
export const NOTIFICATIONS_PAGE_LIMIT = 100;

/** The fixed texts of the notification bell and the /notifications page. */
export const NOTIFICATION_TEXT = {
  loadFailedTitle: 'Unable to Load Notifications',
  fetchFailed: 'Failed to fetch notifications',
  countFailed: 'Failed to fetch unread count',
  markReadFailed: 'Failed to mark notification as read',
  markAllReadFailed: 'Failed to mark all notifications as read',
  deleteFailed: 'Failed to delete notification',
  allMarkedRead: 'All notifications marked as read',
  deleted: 'Notification deleted',
  emptyAll: 'No notifications yet',
  emptyUnread: 'No unread notifications',
  emptyRead: 'No read notifications',
} as const;

/** 'Mark all as read (n)'. */
export function markAllReadLabel(unread: number): string {
  return `Mark all as read (${unread})`;
}

// --- Client dashboard, reschedule, cancel, reviews, e-mail preferences ----------------

const HOUR_MS = 60 * 60 * 1000;

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

/** The fixed texts of the client dashboard and its dialogs. */
export const DASHBOARD_TEXT = {
  loadFailed: 'Failed to fetch dashboard data',
  emptyTitle: 'Welcome to Your Journey',
  fallbackName: 'Seeker',
  notSet: 'Not set',
  activeMember: 'Active member',
  newMember: 'New member',
  selectNewTime: 'Please select a new time',
  rescheduleFailedTitle: 'Rescheduling Failed',
  rescheduleFailed: 'Failed to reschedule booking',
  acknowledgePolicy: 'Please acknowledge the policy',
  cancelFailedTitle: 'Cancellation Failed',
  cancelFailed: 'Failed to cancel booking',
  preferencesLoadFailed: 'Failed to load email preferences',
  preferencesUpdateFailedTitle: 'Error',
  preferencesUpdateFailed: 'Failed to update email preferences',
  /** The api's 409 for a second review of one booking (docs/after-booking.md). */
  alreadyReviewed: 'You have already reviewed this session',
} as const;

// --- Mentor dashboard: stats, bookings, availability ----------------------------------

/** Availability times are offered every 30 minutes (48 options a day). */
export const AVAILABILITY_STEP_MINUTES = 30;
export const AVAILABILITY_TIME_OPTION_COUNT = (24 * 60) / AVAILABILITY_STEP_MINUTES;

/** The fixed texts of the mentor dashboard's Bookings and Availability tabs. */
export const MENTOR_DASHBOARD_TEXT = {
  bookingsLoadFailed: 'Failed to fetch bookings',
  bookingUpdateFailed: 'Failed to update booking',
  noBookings: 'No bookings yet',
  availabilityLoadFailed: 'Failed to fetch availability',
  availabilitySaveFailed: 'Failed to save availability',
  availabilityDeleteFailed: 'Failed to delete availability',
  noAvailability: 'No availability set',
  notAvailable: 'Not available',
  endAfterStart: 'End time must be after start time',
  confirmDeleteSlot: 'Are you sure you want to delete this availability slot?',
} as const;

// --- Real-time channel, messages and calls --------------------------------------------

/** Reconnection of the real-time channel: 1 s first, doubling up to 5 s, ±50 % jitter, never giving up. */
export const RECONNECT_INITIAL_DELAY_MS = 1_000;
export const RECONNECT_MAX_DELAY_MS = 5_000;
export const RECONNECT_JITTER = 0.5;
export const RECONNECT_MAX_ATTEMPTS = Number.POSITIVE_INFINITY;
/** A connection attempt that has not opened after 20 s is abandoned and retried. */
export const CONNECT_TIMEOUT_MS = 20_000;
/** The client pings the server every 30 s so an idle socket is not taken for a dead one. */
export const REALTIME_PING_INTERVAL_MS = 30_000;

/** A thread loads 50 messages per page. */
export const MESSAGE_PAGE_SIZE = 50;
/** Messages from one sender less than 5 minutes apart form one group. */
export const MESSAGE_GROUP_WINDOW_MS = 5 * 60_000;
/** Typing stops 2 s after the last keystroke. */
export const TYPING_IDLE_MS = 2_000;
/** A message is 1 to 5,000 characters after trimming. */
export const MESSAGE_MAX_LENGTH = 5_000;
/** The character counter shows from 90 % of the limit. */
export const MESSAGE_COUNTER_FROM = 4_500;

/** The fixed texts of /messages. */
export const MESSAGES_TEXT = {
  conversationsFailed: 'Failed to fetch conversations',
  messagesFailed: 'Failed to fetch messages',
  createFailed: 'Failed to create conversation',
  createFailedToast: 'Failed to create conversation. Please try logging in again.',
  createdTitle: 'Success',
  createdText: 'Conversation started successfully!',
  unreadCountFailed: 'Failed to fetch unread message count',
  connectionError: 'Connection Error',
  emptyMessage: 'Message cannot be empty',
  tooLong: 'Message must be at most 5000 characters',
} as const;

/** The fixed texts of calls. */
export const CALL_TEXT = {
  incoming: 'Incoming video call',
  accept: 'Accept',
  decline: 'Decline',
  mediaError: 'Media Access Error',
  mediaErrorText: 'Could not access your camera or microphone. Check the browser permissions.',
} as const;

/** The sound of an incoming call. */
export const INCOMING_CALL_SOUND = '/notification.mp3';

import { describe, expect, it } from 'vitest';
import {
  AUTH_REDIRECT_DELAY_MS,
  badgeCount,
  COMMUNICATION_LOGS_RETENTION_YEARS,
  COMPLAINT_WINDOW_HOURS,
  BADGE_MAX_COUNT,
  FEATURED_MENTORS_COUNT,
  GROUP_SIZE,
  LOGGED_OUT_REDIRECT_DELAY_MS,
  MAX_CARD_SPECIALTIES,
  MAX_PROFILE_IMAGE_BYTES,
  MENTOR_SKELETON_COUNT,
  MIN_PASSWORD_LENGTH,
  MINIMUM_AGE,
  NOTIFICATIONS_LIST_LIMIT,
  NOTIFICATIONS_POLL_MS,
  PLATFORM_FEE_PERCENT,
  POLICIES_LAST_UPDATED,
  PRIVACY_EMAIL,
  REFUND_POLICY,
  RESCHEDULE_CUTOFF_HOURS,
  RESERVATION_HOLD_MINUTES,
  START_CALL_DELAY_MS,
  SUPPORT_EMAIL,
  SUPPORT_HOURS,
  TERMS_CHANGE_NOTICE_DAYS,
  TOAST_DURATION_MS,
  TOAST_LIMIT,
  TRANSACTION_RECORDS_RETENTION_YEARS,
  UNREAD_MESSAGES_POLL_MS,
  UNREAD_MESSAGES_STALE_MS,
  VIDEO_JOIN_EARLY_MINUTES,
} from './constants';
import { AVAILABILITY_STEP_MINUTES, AVAILABILITY_TIME_OPTION_COUNT, MENTOR_DASHBOARD_TEXT } from './constants';
import {
  BOOKING_TEXT,
  BOOKING_WINDOW_DAYS,
  CARD_CODE_MAX_DIGITS,
  CARD_CODE_MIN_DIGITS,
  CARD_EXPIRY_LENGTH,
  CARD_NUMBER_MAX_DIGITS,
  CARD_NUMBER_MIN_DIGITS,
  DASHBOARD_TEXT,
  FREE_BOOKING_REDIRECT_DELAY_MS,
  markAllReadLabel,
  NOTIFICATION_TEXT,
  NOTIFICATIONS_PAGE_LIMIT,
  refundPercentAt,
  refundPercentForHours,
} from './constants';

describe('spec constants', () => {
  it('have the values the specification gives', () => {
    expect(AUTH_REDIRECT_DELAY_MS).toBe(3000);
    expect(LOGGED_OUT_REDIRECT_DELAY_MS).toBe(500);
    expect(START_CALL_DELAY_MS).toBe(500);
    expect(TOAST_LIMIT).toBe(1);
    expect(TOAST_DURATION_MS).toBe(5000);
    expect(UNREAD_MESSAGES_POLL_MS).toBe(30_000);
    expect(UNREAD_MESSAGES_STALE_MS).toBe(25_000);
    expect(NOTIFICATIONS_POLL_MS).toBe(30_000);
    expect(NOTIFICATIONS_LIST_LIMIT).toBe(10);
    expect(FEATURED_MENTORS_COUNT).toBe(3);
    expect(MAX_CARD_SPECIALTIES).toBe(2);
    expect(MENTOR_SKELETON_COUNT).toBe(6);
    expect(MIN_PASSWORD_LENGTH).toBe(8);
    expect(PLATFORM_FEE_PERCENT).toBe(15);
  });

  it('give the support, policy and static-page facts', () => {
    expect(SUPPORT_EMAIL).toBe('support@mystic-mentors.test');
    expect(PRIVACY_EMAIL).toBe('privacy@mystic-mentors.test');
    expect(SUPPORT_HOURS).toEqual({
      weekdays: 'Mon to Fri 9 AM to 8 PM EST',
      weekends: 'Sat to Sun 10 AM to 6 PM EST',
    });
    expect(POLICIES_LAST_UPDATED).toBe('November 2026');
    expect(MINIMUM_AGE).toBe(18);
    expect(TERMS_CHANGE_NOTICE_DAYS).toBe(30);
    expect(TRANSACTION_RECORDS_RETENTION_YEARS).toBe(7);
    expect(COMMUNICATION_LOGS_RETENTION_YEARS).toBe(3);
    expect(RESERVATION_HOLD_MINUTES).toBe(60);
    expect(REFUND_POLICY).toEqual({ fullRefundHours: 24, partialRefundHours: 2, partialRefundPercent: 50 });
    expect(RESCHEDULE_CUTOFF_HOURS).toBe(2);
    expect(VIDEO_JOIN_EARLY_MINUTES).toBe(15);
    expect(GROUP_SIZE).toEqual({ min: 2, max: 20 });
    expect(COMPLAINT_WINDOW_HOURS).toBe(24);
    expect(MAX_PROFILE_IMAGE_BYTES).toBe(5 * 1024 * 1024);
  });

  it('keep the message count fresh for less time than it polls', () => {
    expect(UNREAD_MESSAGES_STALE_MS).toBeLessThan(UNREAD_MESSAGES_POLL_MS);
  });
});

describe('badgeCount', () => {
  it('shows 99+ only above 99', () => {
    expect(BADGE_MAX_COUNT).toBe(99);
    expect(badgeCount(0)).toBe('0');
    expect(badgeCount(99)).toBe('99');
    expect(badgeCount(100)).toBe('99+');
  });
});

describe('booking and payment constants', () => {
  it('have the limits and delays of the specification', () => {
    expect(BOOKING_WINDOW_DAYS).toBe(90);
    expect(FREE_BOOKING_REDIRECT_DELAY_MS).toBe(1500);
    expect(CARD_NUMBER_MAX_DIGITS).toBe(16);
    expect(CARD_NUMBER_MIN_DIGITS).toBe(13);
    expect(CARD_CODE_MIN_DIGITS).toBe(3);
    expect(CARD_CODE_MAX_DIGITS).toBe(4);
    expect(CARD_EXPIRY_LENGTH).toBe('MM/YY'.length);
  });

  it('have the texts of the specification', () => {
    expect(BOOKING_TEXT).toEqual({
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
    });
  });
});

describe('notification constants', () => {
  it('list up to the api maximum on the page, 10 in the bell', () => {
    expect(NOTIFICATIONS_LIST_LIMIT).toBe(10);
    expect(NOTIFICATIONS_PAGE_LIMIT).toBe(100);
  });

  it('have the texts of the specification', () => {
    expect(NOTIFICATION_TEXT).toEqual({
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
    });
    expect(markAllReadLabel(0)).toBe('Mark all as read (0)');
    expect(markAllReadLabel(12)).toBe('Mark all as read (12)');
  });
});

describe('refund tiers', () => {
  it('refund 100% from 24 hours before the start, 50% from 2 hours, 0% under 2 hours', () => {
    expect(refundPercentForHours(72)).toBe(100);
    expect(refundPercentForHours(24)).toBe(100);
    expect(refundPercentForHours(23.999)).toBe(50);
    expect(refundPercentForHours(2)).toBe(50);
    expect(refundPercentForHours(1.999)).toBe(0);
    expect(refundPercentForHours(0)).toBe(0);
    expect(refundPercentForHours(-1)).toBe(0);
  });

  it('measure the hours from now to the start', () => {
    const now = new Date('2025-06-01T12:00:00Z');
    expect(refundPercentAt('2025-06-02T12:00:00Z', now)).toBe(100);
    expect(refundPercentAt('2025-06-02T11:59:59Z', now)).toBe(50);
    expect(refundPercentAt('2025-06-01T14:00:00Z', now)).toBe(50);
    expect(refundPercentAt('2025-06-01T13:59:59Z', now)).toBe(0);
  });
});

describe('client dashboard texts', () => {
  it('have the texts of the specification', () => {
    expect(DASHBOARD_TEXT).toEqual({
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
      alreadyReviewed: 'You have already reviewed this session',
    });
  });
});

describe('mentor dashboard facts and texts', () => {
  it('keeps a 15% platform fee and offers availability every 30 minutes (48 options)', () => {
    expect(PLATFORM_FEE_PERCENT).toBe(15);
    expect(AVAILABILITY_STEP_MINUTES).toBe(30);
    expect(AVAILABILITY_TIME_OPTION_COUNT).toBe(48);
  });

  it('have the texts of the specification', () => {
    expect(MENTOR_DASHBOARD_TEXT).toEqual({
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
    });
  });
});

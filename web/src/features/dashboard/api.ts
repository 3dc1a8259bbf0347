/**
 * The client dashboard's calls (docs/after-booking.md): the dashboard data,
 * the refund preview, reschedule, cancel, reviews and the e-mail preferences, through the client
 * orval generates from openapi.yaml (src/api), so the query keys are the generated ones.
 *
 * Every change to a booking refreshes the dashboard data, the mentor's free times and the
 * notifications.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  cancelBooking,
  fileComplaint,
  getEmailPreferences,
  getGetEmailPreferencesUrl,
  getGetRefundPreviewUrl,
  getRefundPreview,
  getUserDashboard,
  rescheduleBooking,
  reviewBooking,
  updateEmailPreferences,
} from '@/api/endpoints/dashboard/dashboard';
import type {
  BookingView,
  ComplaintReason,
  ClientDashboard,
  EmailPreferencesChange,
  EmailPreferencesView,
  RefundPolicyView,
} from '@/api/model';
import { catalogueKeys } from '@/lib/catalogue';
import { apiKey, availableTimesKeys, clientDashboardKey, notificationKeys } from '@/lib/query-keys';

/** status: pending, confirmed, completed or cancelled; duration in minutes; totalAmount '50.00'. */
export type DashboardBooking = BookingView;
export type { ClientDashboard, EmailPreferencesView, RefundPolicyView };

/** The four e-mail preferences, in the order the panel shows them. */
export type EmailPreference = keyof EmailPreferencesView;

export const dashboardKeys = {
  dashboard: clientDashboardKey,
  refundPreview: (bookingId: string) => apiKey(getGetRefundPreviewUrl(bookingId)),
  emailPreferences: () => apiKey(getGetEmailPreferencesUrl()),
};

export const dashboardQueries = {
  /**
   * GET /api/user/dashboard: user, bookings (newest start first), stats. Bookings move with time
   * and with the mentor's actions: read afresh on each visit.
   */
  dashboard: () =>
    queryOptions({
      queryKey: dashboardKeys.dashboard(),
      queryFn: ({ signal }) => getUserDashboard({ signal }),
      staleTime: 0,
    }),
  /**
   * GET /api/user/bookings/{id}/refund-preview: what cancelling now would refund; afresh each time
   * (the tier depends on the current time).
   */
  refundPreview: (bookingId: string) =>
    queryOptions({
      queryKey: dashboardKeys.refundPreview(bookingId),
      queryFn: ({ signal }) => getRefundPreview(bookingId, { signal }),
      staleTime: 0,
      gcTime: 0,
    }),
  /** GET /api/user/email-preferences: the four booleans (all true by default). */
  emailPreferences: () =>
    queryOptions({
      queryKey: dashboardKeys.emailPreferences(),
      queryFn: ({ signal }) => getEmailPreferences({ signal }),
    }),
};

export function useClientDashboard() {
  return useQuery(dashboardQueries.dashboard());
}

/** The refund preview, only while the cancel dialog is open. */
export function useRefundPreview(bookingId: string, enabled: boolean) {
  return useQuery({ ...dashboardQueries.refundPreview(bookingId), enabled });
}

function useRefreshAfterChange() {
  const queryClient = useQueryClient();
  return (booking: Pick<DashboardBooking, 'mentor'>) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: dashboardKeys.dashboard() }),
      ...availableTimesKeys(booking.mentor.id).map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      queryClient.invalidateQueries({ queryKey: notificationKeys.all() }),
      queryClient.invalidateQueries({ queryKey: notificationKeys.unreadCount() }),
    ]);
}

export type RescheduleInput = { booking: DashboardBooking; scheduledAt: string; reason?: string };

/** PUT /api/user/bookings/{id}/reschedule {scheduledAt, reason?}. */
export function useRescheduleBooking() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ booking, scheduledAt, reason }: RescheduleInput) =>
      rescheduleBooking(booking.id, { scheduledAt, ...(reason ? { reason } : {}) }),
    // A failure may mean the time was taken meanwhile: the free times are read again either way.
    onSettled: (_data, _error, { booking }) => refresh(booking),
  });
}

export type CancelInput = { booking: DashboardBooking; acknowledgePolicy: boolean; reason?: string };

/** PUT /api/user/bookings/{id}/cancel {reason?, acknowledgePolicy}. */
export function useCancelBooking() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ booking, acknowledgePolicy, reason }: CancelInput) =>
      cancelBooking(booking.id, { acknowledgePolicy, ...(reason ? { reason } : {}) }),
    onSuccess: (_data, { booking }) => refresh(booking),
  });
}

export type ComplaintInput = { booking: DashboardBooking; reason: ComplaintReason; details?: string };

/** POST /api/bookings/{id}/complaint {reason, details}: the booking's complaint (and a no-show's refund). */
export function useFileComplaint() {
  const refresh = useRefreshAfterChange();
  return useMutation({
    mutationFn: ({ booking, reason, details }: ComplaintInput) =>
      fileComplaint(booking.id, { reason, ...(details ? { details } : {}) }),
    onSuccess: (_data, { booking }) => refresh(booking),
  });
}

export type ReviewInput = { booking: DashboardBooking; rating: number; comment?: string };

/** POST /api/bookings/{id}/review {rating 1-5, comment?}; the mentor's reviews and rating change. */
export function useReviewBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ booking, rating, comment }: ReviewInput) =>
      reviewBooking(booking.id, { rating, ...(comment ? { comment } : {}) }),
    onSuccess: (_data, { booking }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: catalogueKeys.reviews(booking.mentor.id) }),
        queryClient.invalidateQueries({ queryKey: catalogueKeys.mentor(booking.mentor.id) }),
      ]),
  });
}

export function useEmailPreferences() {
  return useQuery(dashboardQueries.emailPreferences());
}

/** PUT /api/user/email-preferences with the one changed boolean; the answer has all four. */
export function useUpdateEmailPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: EmailPreferencesChange) => updateEmailPreferences(change),
    onSuccess: (preferences) => queryClient.setQueryData(dashboardKeys.emailPreferences(), preferences),
  });
}

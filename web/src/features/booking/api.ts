/**
 * The booking calls (docs/booking.md): the service, the reservation and the
 * card payment, through the client orval generates from openapi.yaml (src/api), so the query keys
 * are the generated ones (the path, then the query parameters as one object). The mentor's free
 * start times are the shared slot picker's own call (components/slot-picker).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createReservation, processPayment } from '@/api/endpoints/booking/booking';
import { getGetServiceUrl, getService } from '@/api/endpoints/services/services';
import type {
  BookingView,
  PaymentResult,
  ReservationRequest,
  ReservationResult,
  ServiceWithMentorView,
} from '@/api/model';
import { ApiError, errorCode, errorStatus } from '@/lib/api-fetch';
import {
  apiKey,
  availableDaysKey,
  availableSlotsKey,
  clientDashboardKey,
  holdKeys,
  notificationKeys,
} from '@/lib/query-keys';
import type { PaymentRequest } from './card';

/** A bookable service with its mentor card; price '0.00' means free, duration in minutes. */
export type BookableService = ServiceWithMentorView;

/** status: pending, confirmed, completed or cancelled. */
export type Booking = BookingView;

/** serviceId, mentorId, scheduledAt (ISO 8601 instant), notes, totalAmount (the price, '50.00'). */
export type CreateReservationInput = Required<
  Pick<ReservationRequest, 'serviceId' | 'mentorId' | 'scheduledAt' | 'totalAmount'>
> &
  Pick<ReservationRequest, 'notes' | 'replacesReservationId'>;

/** A free service is booked at once (`booking`); a paid one is held (`reservation`, `expiresAt`). */
export type { ReservationResult };

/** 200 either way: `success: false` is a declined card (the hold stays until it expires). */
export type { PaymentResult };

export const bookingKeys = {
  service: (id: string) => apiKey(getGetServiceUrl(id)),
  /** Every slot query of that mentor (for invalidation); the slot picker reads them. */
  availableSlots: (mentorId: string) => availableSlotsKey(mentorId),
  /** The client dashboard's data, which a new booking changes. */
  dashboard: clientDashboardKey,
};

type Opts = { signal?: AbortSignal };

export const bookingApi = {
  service: (id: string, { signal }: Opts = {}) => getService(id, { signal }),
  createReservation: (input: CreateReservationInput) => createReservation(input),
  processPayment: (input: PaymentRequest) => processPayment(input),
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Service ids are UUIDs; anything else in the address is no service (and never part of an api path). */
export function isServiceId(id: string): boolean {
  return UUID.test(id);
}

/**
 * GET /api/services/{id}; an id that is not a UUID is a 404 without a call. A service's price or
 * state may change between visits: read afresh each time the page opens.
 */
export const serviceQuery = (id: string) =>
  queryOptions({
    queryKey: bookingKeys.service(id),
    queryFn: ({ signal }) =>
      isServiceId(id) ? bookingApi.service(id, { signal }) : Promise.reject(new ApiError(404, 'Not Found', '')),
    staleTime: 0,
  });

export function useService(id: string) {
  return useQuery(serviceQuery(id));
}

/** After a booking or hold the mentor's free times, the dashboard and the notifications change. */
function useRefreshAfterBooking() {
  const queryClient = useQueryClient();
  return (mentorId: string) => {
    void queryClient.invalidateQueries({ queryKey: bookingKeys.availableSlots(mentorId) });
    void queryClient.invalidateQueries({ queryKey: availableDaysKey(mentorId) });
    void queryClient.invalidateQueries({ queryKey: bookingKeys.dashboard() });
    void queryClient.invalidateQueries({ queryKey: holdKeys.mine() });
    void queryClient.invalidateQueries({ queryKey: notificationKeys.all() });
    void queryClient.invalidateQueries({ queryKey: notificationKeys.unreadCount() });
  };
}

/** POST /api/reservations. */
export function useCreateReservation() {
  const refresh = useRefreshAfterBooking();
  return useMutation({
    mutationFn: (input: CreateReservationInput) => bookingApi.createReservation(input),
    onSettled: (_data, _error, input) => refresh(input.mentorId),
  });
}

/** POST /api/process-payment-v2 for a held reservation of `mentorId`. */
export function useProcessPayment(mentorId: string) {
  const refresh = useRefreshAfterBooking();
  return useMutation({
    mutationFn: (input: PaymentRequest) => bookingApi.processPayment(input),
    onSuccess: (result) => {
      if (result.success) refresh(mentorId);
    },
  });
}

/**
 * A load that failed because the session is gone (401 `unauthorized`) sends the
 * visitor to /auth rather than showing 'Service Not Found'.
 */
export function isUnauthorizedError(error: unknown): boolean {
  return errorStatus(error) === 401 && errorCode(error) === 'unauthorized';
}

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  addAvailability,
  addAvailabilityBulk,
  addDateOverride,
  deleteAvailability,
  deleteDateOverride,
  getListAvailabilityUrl,
  getListDateOverridesUrl,
  listAvailability,
  listDateOverrides,
  setAvailabilityActive,
} from '@/api/endpoints/availability/availability';
import {
  cancelMentorBooking,
  getGetMentorStatsUrl,
  getListMentorBookingsUrl,
  getMentorStats,
  listMentorBookings,
  updateMentorBooking,
} from '@/api/endpoints/dashboard/dashboard';
import type {
  AvailabilitySlotView,
  BulkAvailabilityRequest,
  DateOverrideView,
  MentorStatsView,
  NewAvailabilityRequest,
  NewDateOverrideRequest,
} from '@/api/model';
import { accountQueries, MENTOR_PROFILE_KEY } from '@/lib/auth';
import {
  catalogueApi,
  catalogueKeys,
  type CreateServiceInput,
  type UpdateMentorInput,
  type UpdateServiceInput,
} from '@/lib/catalogue';
import { apiKey, availableTimesKeys } from '@/lib/query-keys';

// The mentor dashboard's calls (docs/booking.md, docs/after-booking.md): the
// profile with all its services, creating and editing services, editing the profile, the four
// figures, the bookings and their status changes, and the weekly availability.

/** GET /api/mentor/profile: the profile with every service (active or not); null when not a mentor (404). */
export function useOwnMentorProfile() {
  return useQuery(accountQueries.mentorProfile());
}

/** After a change: the profile reloads, and the public lists and statistics will too when next shown. */
function useRefreshCatalogue() {
  const queryClient = useQueryClient();
  return (mentorId?: string) => {
    void queryClient.invalidateQueries({ queryKey: MENTOR_PROFILE_KEY });
    void queryClient.invalidateQueries({ queryKey: catalogueKeys.serviceStats() });
    void queryClient.invalidateQueries({ queryKey: catalogueKeys.mentors() });
    if (mentorId) void queryClient.invalidateQueries({ queryKey: catalogueKeys.mentor(mentorId) });
  };
}

/** POST /api/services. */
export function useCreateService() {
  const refresh = useRefreshCatalogue();
  return useMutation({
    mutationFn: (input: CreateServiceInput) => catalogueApi.createService(input),
    onSuccess: (service) => refresh(service.mentorId),
  });
}

/** PUT /api/mentor/services/{id} with only the changed fields. */
export function useUpdateService() {
  const refresh = useRefreshCatalogue();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdateServiceInput }) =>
      catalogueApi.updateService(id, changes),
    onSuccess: (service) => refresh(service.mentorId),
  });
}

/** PUT /api/mentor/profile. */
export function useUpdateMentorProfile() {
  const refresh = useRefreshCatalogue();
  return useMutation({
    mutationFn: (input: UpdateMentorInput) => catalogueApi.updateMentorProfile(input),
    onSuccess: (mentor) => refresh(mentor.id),
  });
}

// --- Stats and bookings ------------------------------------------------------------------------

export type {
  AvailabilitySlotView as AvailabilitySlot,
  DateOverrideView as DateOverride,
  MentorStatsView as MentorStats,
};

export const mentorDashboardKeys = {
  stats: () => apiKey(getGetMentorStatsUrl()),
  bookings: () => apiKey(getListMentorBookingsUrl()),
  availability: () => apiKey(getListAvailabilityUrl()),
  overrides: () => apiKey(getListDateOverridesUrl()),
};

export const mentorDashboardQueries = {
  /**
   * GET /api/mentor/stats: totalSessions, thisMonth, totalEarnings, platformFeePercent, platformFee,
   * netEarnings ('0.00'), rating, reviewCount. The figures move with bookings and with time (This
   * Month): read afresh on each visit.
   */
  stats: () =>
    queryOptions({
      queryKey: mentorDashboardKeys.stats(),
      queryFn: ({ signal }) => getMentorStats({ signal }),
      staleTime: 0,
    }),
  /** GET /api/mentor/bookings: newest start first. */
  bookings: () =>
    queryOptions({
      queryKey: mentorDashboardKeys.bookings(),
      queryFn: ({ signal }) => listMentorBookings({ signal }),
      staleTime: 0,
    }),
  /** GET /api/mentor/availability: by day, then start. */
  availability: () =>
    queryOptions({
      queryKey: mentorDashboardKeys.availability(),
      queryFn: ({ signal }) => listAvailability({ signal }),
    }),
  /** GET /api/mentor/availability/overrides: from today (in the mentor's zone) on, by date. */
  overrides: () =>
    queryOptions({ queryKey: mentorDashboardKeys.overrides(), queryFn: ({ signal }) => listDateOverrides({ signal }) }),
};

export function useMentorStats() {
  return useQuery(mentorDashboardQueries.stats());
}

export function useMentorBookings() {
  return useQuery(mentorDashboardQueries.bookings());
}

/**
 * PUT /api/mentor/bookings/{id} {status}: pending -> confirmed or cancelled, confirmed -> completed.
 * Either way the list and the figures are read again (a refused move may mean the booking changed).
 */
export function useUpdateMentorBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'confirmed' | 'cancelled' | 'completed' }) =>
      updateMentorBooking(id, { status }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: mentorDashboardKeys.bookings() }),
        queryClient.invalidateQueries({ queryKey: mentorDashboardKeys.stats() }),
        queryClient.invalidateQueries({ queryKey: MENTOR_PROFILE_KEY }),
      ]),
  });
}

/**
 * POST /api/mentor/bookings/{id}/cancel {reason?}: the mentor cancels a pending or confirmed
 * booking before it starts; the seeker is refunded in full and told. The list and figures reload.
 */
export function useCancelMentorBooking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason?: string }) => cancelMentorBooking(id, reason ? { reason } : {}),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: mentorDashboardKeys.bookings() }),
        queryClient.invalidateQueries({ queryKey: mentorDashboardKeys.stats() }),
      ]),
  });
}

// --- Availability ------------------------------------------------------------------------------

export function useAvailability() {
  return useQuery(mentorDashboardQueries.availability());
}

/** After a change: the list, and the free times seekers see for this mentor. */
function useRefreshAvailability() {
  const queryClient = useQueryClient();
  return (mentorId: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: mentorDashboardKeys.availability() }),
      queryClient.invalidateQueries({ queryKey: mentorDashboardKeys.overrides() }),
      ...availableTimesKeys(mentorId).map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    ]);
}

/** POST /api/mentor/availability {dayOfWeek, startTime, endTime}; 409 when it overlaps a window of that day. */
export function useAddAvailability(mentorId: string) {
  const refresh = useRefreshAvailability();
  return useMutation({
    mutationFn: (input: Required<NewAvailabilityRequest>) => addAvailability(input),
    onSuccess: () => refresh(mentorId),
  });
}

/** PUT /api/mentor/availability/{id} {isActive}. */
export function useSetAvailabilityActive(mentorId: string) {
  const refresh = useRefreshAvailability();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) => setAvailabilityActive(id, { isActive }),
    onSettled: () => refresh(mentorId),
  });
}

/** DELETE /api/mentor/availability/{id}. */
export function useDeleteAvailability(mentorId: string) {
  const refresh = useRefreshAvailability();
  return useMutation({
    mutationFn: (id: string) => deleteAvailability(id),
    onSettled: () => refresh(mentorId),
  });
}

/** POST /api/mentor/availability/bulk {daysOfWeek, startTime, endTime}: one window per day, all or none (409 on an overlap). */
export function useAddAvailabilityBulk(mentorId: string) {
  const refresh = useRefreshAvailability();
  return useMutation({
    mutationFn: (input: Required<BulkAvailabilityRequest>) => addAvailabilityBulk(input),
    onSuccess: () => refresh(mentorId),
  });
}

// --- Date overrides ----------------------------------------------------------------------------

export function useDateOverrides() {
  return useQuery(mentorDashboardQueries.overrides());
}

/** POST /api/mentor/availability/overrides {date, isDayOff, startTime?, endTime?}. */
export function useAddDateOverride(mentorId: string) {
  const refresh = useRefreshAvailability();
  return useMutation({
    mutationFn: (input: NewDateOverrideRequest) => addDateOverride(input),
    onSuccess: () => refresh(mentorId),
  });
}

/** DELETE /api/mentor/availability/overrides/{id}. */
export function useDeleteDateOverride(mentorId: string) {
  const refresh = useRefreshAvailability();
  return useMutation({
    mutationFn: (id: string) => deleteDateOverride(id),
    onSettled: () => refresh(mentorId),
  });
}

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  addAvailabilityBulk,
  getListAvailabilityUrl,
  listAvailability,
} from '@/api/endpoints/availability/availability';
import { AUTH_USER_KEY, MENTOR_PROFILE_KEY } from '@/lib/auth';
import {
  catalogueApi,
  catalogueKeys,
  type CreateMentorInput,
  type CreateServiceInput,
  type Service,
  type UpdateMentorInput,
} from '@/lib/catalogue';
import { apiKey, availableTimesKeys } from '@/lib/query-keys';
import type { ScheduleRow } from '@/lib/weekly-availability';

// The onboarding wizard's calls: POST /api/mentors (or PUT /api/mentor/profile after Back), then
// POST /api/services per service, then the weekly schedule through POST /api/mentor/availability/bulk.

/**
 * Step 1: POST /api/mentors. The user is a mentor from then on, so the signed-in user and the
 * mentor profile are loaded again (the header switches to the mentor links).
 */
export function useCreateMentorProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateMentorInput) => catalogueApi.createMentor(input),
    onSuccess: async () => {
      // Not awaited: the wizard goes on with the profile it got; the user view (isMentor) follows.
      void queryClient.invalidateQueries({ queryKey: AUTH_USER_KEY });
      await queryClient.invalidateQueries({ queryKey: MENTOR_PROFILE_KEY });
    },
  });
}

export type ServiceOutcome = { ok: true; service: Service } | { ok: false; error: unknown };

/**
 * Step 2: one POST /api/services per service, all at once. Resolves to each one's
 * outcome in order, so the wizard can keep the ones that were created and retry only the rest.
 */
export function useCreateServices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (inputs: CreateServiceInput[]): Promise<ServiceOutcome[]> => {
      const settled = await Promise.allSettled(inputs.map((input) => catalogueApi.createService(input)));
      return settled.map((r) =>
        r.status === 'fulfilled' ? { ok: true, service: r.value } : { ok: false, error: r.reason },
      );
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: MENTOR_PROFILE_KEY });
      void queryClient.invalidateQueries({ queryKey: catalogueKeys.serviceStats() });
    },
  });
}

export const onboardingKeys = {
  /** The same key as the mentor dashboard's weekly availability: one cache entry. */
  availability: () => apiKey(getListAvailabilityUrl()),
};

/** GET /api/mentor/availability, once the user is a mentor: decides where the wizard resumes. */
export const ownAvailabilityQuery = () =>
  queryOptions({ queryKey: onboardingKeys.availability(), queryFn: ({ signal }) => listAvailability({ signal }) });

export function useOwnAvailability(enabled: boolean) {
  return useQuery({ ...ownAvailabilityQuery(), enabled });
}

/** PUT /api/mentor/profile: step 1 again, after Back from a later step. */
export function useUpdateMentorProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateMentorInput) => catalogueApi.updateMentorProfile(input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: MENTOR_PROFILE_KEY }),
  });
}

/**
 * Step 3: one POST /api/mentor/availability/bulk per range of the schedule, in order. Resolves
 * to each one's outcome, so the ranges saved stay saved and only the rest are tried again.
 */
export function useSaveSchedule(mentorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (rows: ScheduleRow[]): Promise<({ ok: true } | { ok: false; error: unknown })[]> => {
      const outcomes: ({ ok: true } | { ok: false; error: unknown })[] = [];
      for (const row of rows) {
        try {
          await addAvailabilityBulk({ daysOfWeek: row.days, startTime: row.startTime, endTime: row.endTime });
          outcomes.push({ ok: true });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
      }
      return outcomes;
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: onboardingKeys.availability() }),
        ...availableTimesKeys(mentorId).map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      ]),
  });
}

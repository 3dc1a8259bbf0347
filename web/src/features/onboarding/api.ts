import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AUTH_USER_KEY, MENTOR_PROFILE_KEY } from '@/lib/auth';
import { catalogueApi, catalogueKeys, type CreateMentorInput, type CreateServiceInput, type Service } from '@/lib/catalogue';

// The onboarding wizard's calls: POST /api/mentors, then POST /api/services per service.

/**
 * Step 1: POST /api/mentors. The user is a mentor from then on, so the signed-in user and the
 * mentor profile are loaded again (the header switches to the mentor links).
 */
export function useCreateMentorProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateMentorInput) => catalogueApi.createMentor(input),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: AUTH_USER_KEY }),
        queryClient.invalidateQueries({ queryKey: MENTOR_PROFILE_KEY }),
      ]);
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
      return settled.map((r) => (r.status === 'fulfilled' ? { ok: true, service: r.value } : { ok: false, error: r.reason }));
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: MENTOR_PROFILE_KEY });
      void queryClient.invalidateQueries({ queryKey: catalogueKeys.serviceStats() });
    },
  });
}

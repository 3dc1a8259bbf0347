import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorStatus } from '@/lib/api-fetch';
import { MENTOR_PROFILE_KEY } from '@/lib/auth';
import {
  catalogueApi,
  catalogueKeys,
  type CreateServiceInput,
  type Mentor,
  type UpdateMentorInput,
  type UpdateServiceInput,
} from '@/lib/catalogue';

// The mentor dashboard's calls (02 §7 mentor side) that exist so far: the profile with all its
// services, creating and editing services, and editing the profile.

/** GET /api/mentor/profile: the profile with every service (active or not); null when not a mentor (404). */
export function useOwnMentorProfile() {
  return useQuery<Mentor | null>({
    queryKey: MENTOR_PROFILE_KEY,
    queryFn: async ({ signal }) => {
      try {
        return await catalogueApi.mentorProfile({ signal });
      } catch (error) {
        if (errorStatus(error) === 404) return null;
        throw error;
      }
    },
  });
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
    mutationFn: ({ id, changes }: { id: string; changes: UpdateServiceInput }) => catalogueApi.updateService(id, changes),
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

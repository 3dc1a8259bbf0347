import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { changePassword } from '@/api/endpoints/passwords/passwords';
import {
  getGetUserQueryKey,
  getGetUserMentorQueryKey,
  getUserMentor,
  useGetUser,
  useUpdateProfile as useGeneratedUpdateProfile,
  useUploadProfileImage as useGeneratedUploadProfileImage,
} from '@/api/endpoints/profiles/profiles';
import type { MentorView, ProfileChangesRequest, PublicUserView } from '@/api/model';
import { errorStatus } from '@/lib/api-fetch';
import { AUTH_USER_KEY, type User } from '@/lib/auth';

// The profile calls of docs/catalogue.md, through the generated client (src/api).

export type ProfileUser = User;
export type PublicUser = PublicUserView;
export type UserMentor = Pick<MentorView, 'id' | 'displayName' | 'specialties' | 'rating' | 'totalSessions'> &
  Partial<Pick<MentorView, 'reviewCount'>>;
export type ProfileUpdate = ProfileChangesRequest;

/** GET /api/users/{id}: `email` only comes for the user themself and admins. */
export function usePublicUser(id: string) {
  return useGetUser(id);
}

/** GET /api/users/{id}/mentor; as in 01 §6, a 404 means not a mentor (null), other failures are errors. */
export function useUserMentor(id: string, enabled = true) {
  return useQuery<MentorView | null>({
    queryKey: getGetUserMentorQueryKey(id),
    queryFn: async ({ signal }) => {
      try {
        return await getUserMentor(id, { signal });
      } catch (error) {
        if (errorStatus(error) === 404) return null;
        throw error;
      }
    },
    enabled,
  });
}

/** Keeps the signed-in user and their public profile in step with a change. */
function useStoreUser() {
  const queryClient = useQueryClient();
  return (patch: Partial<ProfileUser>) => {
    const current = queryClient.getQueryData<ProfileUser | null>(AUTH_USER_KEY);
    if (current) queryClient.setQueryData<ProfileUser>(AUTH_USER_KEY, { ...current, ...patch });
    if (current?.id) void queryClient.invalidateQueries({ queryKey: getGetUserQueryKey(current.id) });
  };
}

/** PUT /api/user/profile with only the changed fields; the answer is the updated user. */
export function useUpdateProfile() {
  const store = useStoreUser();
  const mutation = useGeneratedUpdateProfile({ mutation: { onSuccess: (user) => store(user) } });
  return {
    ...mutation,
    mutate: (update: ProfileUpdate, options?: Parameters<typeof mutation.mutate>[1]) =>
      mutation.mutate({ data: update }, options),
  };
}

/**
 * POST /api/user/profile-image, multipart field `profileImage`; the generated call sends FormData
 * and the fetch mutator leaves its Content-Type (with the boundary) to the browser.
 */
export function useUploadProfileImage() {
  const store = useStoreUser();
  const mutation = useGeneratedUploadProfileImage({
    mutation: { onSuccess: ({ imageUrl }) => store({ profileImageUrl: imageUrl }) },
  });
  return {
    ...mutation,
    mutate: (file: File, options?: Parameters<typeof mutation.mutate>[1]) =>
      mutation.mutate({ data: { profileImage: file } }, options),
  };
}

/** POST /api/user/change-password. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) => changePassword(input),
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { changePassword } from '@/api/endpoints/passwords/passwords';
import { apiFetch, apiRequest, errorStatus } from '@/lib/api-fetch';
import { AUTH_USER_KEY, type User } from '@/lib/auth';

// The profile calls of docs/catalogue.md. The users, profile and profile-image paths are not in
// openapi.yaml yet, so they are written by hand here on the shared fetch mutator, with the
// request paths as query keys (as orval's generated keys are) so the switch keeps one cache.

/** The signed-in user; the catalogue adds `bio`. */
export type ProfileUser = User & { bio?: string | null };

/** GET /api/users/{id}: `email` is null unless the viewer is that user or an admin. */
export type PublicUser = {
  id: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl?: string | null;
  bio?: string | null;
  role: 'user' | 'mentor' | 'admin';
  isAdmin: boolean;
  isActive: boolean;
  emailVerified: boolean;
  createdAt: string;
  stripeSubscriptionId?: string | null;
  email?: string | null;
};

/** The part of GET /api/users/{id}/mentor that a public profile shows. */
export type UserMentor = {
  id: string;
  displayName: string;
  bio?: string | null;
  specialties: string[];
  rating: string;
  reviewCount?: number;
  totalSessions: number;
};

/** PUT /api/user/profile takes any of these. */
export type ProfileUpdate = Partial<{
  firstName: string;
  lastName: string;
  email: string;
  bio: string;
  profileImageUrl: string;
}>;

export const userKey = (id: string) => [`/api/users/${id}`] as const;
export const userMentorKey = (id: string) => [`/api/users/${id}/mentor`] as const;

export function usePublicUser(id: string) {
  return useQuery<PublicUser>({
    queryKey: userKey(id),
    queryFn: ({ signal }) => apiFetch<PublicUser>(`/api/users/${encodeURIComponent(id)}`, { signal }),
  });
}

/** 01 §6: a 404 means the user is not a mentor (null); other failures are errors. */
export function useUserMentor(id: string, enabled = true) {
  return useQuery<UserMentor | null>({
    queryKey: userMentorKey(id),
    queryFn: async ({ signal }) => {
      try {
        return await apiFetch<UserMentor>(`/api/users/${encodeURIComponent(id)}/mentor`, { signal });
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
    if (current?.id) void queryClient.invalidateQueries({ queryKey: userKey(current.id) });
  };
}

export function useUpdateProfile() {
  const store = useStoreUser();
  return useMutation({
    mutationFn: (update: ProfileUpdate) => apiRequest<ProfileUser>('PUT', '/api/user/profile', update),
    onSuccess: (user) => store(user),
  });
}

/** POST /api/user/profile-image, multipart field `profileImage`; the fetch mutator leaves Content-Type to the browser. */
export function uploadProfileImage(file: File): Promise<{ imageUrl: string }> {
  const body = new FormData();
  body.append('profileImage', file);
  return apiFetch<{ imageUrl: string }>('/api/user/profile-image', { method: 'POST', body });
}

export function useUploadProfileImage() {
  const store = useStoreUser();
  return useMutation({
    mutationFn: uploadProfileImage,
    onSuccess: ({ imageUrl }) => store({ profileImageUrl: imageUrl }),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) => changePassword(input),
  });
}

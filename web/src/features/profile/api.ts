import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getCalendarFeed, getGetCalendarFeedUrl, rotateCalendarFeed } from '@/api/endpoints/calendars/calendars';
import {
  getListDataExportsUrl,
  getListSessionsUrl,
  listDataExports,
  listSessions,
} from '@/api/endpoints/accounts/accounts';
import { changePassword } from '@/api/endpoints/passwords/passwords';
import {
  getGetOwnProfileUrl,
  getGetUserMentorUrl,
  getGetUserUrl,
  getOwnProfile,
  getUser,
  getUserMentor,
  updateProfile,
  uploadProfileImage,
} from '@/api/endpoints/profiles/profiles';
import type { MentorView, OwnProfileView, ProfileChangesRequest, PublicUserView } from '@/api/model';
import { errorStatus } from '@/lib/api-fetch';
import { AUTH_USER_KEY, type User } from '@/lib/auth';
import { apiKey } from '@/lib/query-keys';

// The profile calls of docs/catalogue.md, through the generated client (src/api).

/** GET /api/user/profile: the signed-in user plus the bio. */
export type ProfileUser = OwnProfileView;
export type PublicUser = PublicUserView;
export type UserMentor = Pick<MentorView, 'id' | 'displayName' | 'specialties' | 'rating' | 'totalSessions'> &
  Partial<Pick<MentorView, 'reviewCount'>>;
export type ProfileUpdate = ProfileChangesRequest;

export const profileKeys = {
  own: () => apiKey(getGetOwnProfileUrl()),
  user: (id: string) => apiKey(getGetUserUrl(id)),
  userMentor: (id: string) => apiKey(getGetUserMentorUrl(id)),
  calendarFeed: () => apiKey(getGetCalendarFeedUrl()),
};

export const profileQueries = {
  /** GET /api/user/calendar-feed: the private address of my calendar feed (docs/calendars.md). */
  calendarFeed: () =>
    queryOptions({ queryKey: profileKeys.calendarFeed(), queryFn: ({ signal }) => getCalendarFeed({ signal }) }),
  /** GET /api/user/profile: my own profile (the user and the bio). */
  own: () => queryOptions({ queryKey: profileKeys.own(), queryFn: ({ signal }) => getOwnProfile({ signal }) }),
  /** GET /api/users/{id}: `email` only comes for the user themself and admins. */
  user: (id: string) =>
    queryOptions({ queryKey: profileKeys.user(id), queryFn: ({ signal }) => getUser(id, { signal }) }),
  /** GET /api/users/{id}/mentor; a 404 means not a mentor (null), other failures are errors. */
  userMentor: (id: string) =>
    queryOptions<MentorView | null>({
      queryKey: profileKeys.userMentor(id),
      queryFn: async ({ signal }) => {
        try {
          return await getUserMentor(id, { signal });
        } catch (error) {
          if (errorStatus(error) === 404) return null;
          throw error;
        }
      },
    }),
};

/** GET /api/user/sessions: where the account is signed in. */
export const sessionKeys = { all: () => apiKey(getListSessionsUrl()) };
export const sessionQueries = {
  list: () => queryOptions({ queryKey: sessionKeys.all(), queryFn: ({ signal }) => listSessions({ signal }) }),
};

/** GET /api/user/data-exports: the copies of my data I asked for. */
export const dataExportKeys = { all: () => apiKey(getListDataExportsUrl()) };
export const dataExportQueries = {
  list: () => queryOptions({ queryKey: dataExportKeys.all(), queryFn: ({ signal }) => listDataExports({ signal }) }),
};

export function useOwnProfile() {
  return useQuery(profileQueries.own());
}

export function usePublicUser(id: string) {
  return useQuery(profileQueries.user(id));
}

export function useUserMentor(id: string, enabled = true) {
  return useQuery({ ...profileQueries.userMentor(id), enabled });
}

/**
 * Keeps my profile, the signed-in user (header avatar, greeting) and my public profile in step
 * with a change. The signed-in user has exactly the fields of User, so the bio stays out of it.
 */
function useStoreUser() {
  const queryClient = useQueryClient();
  return (patch: Partial<ProfileUser>) => {
    const profile = queryClient.getQueryData<ProfileUser>(profileKeys.own());
    if (profile) queryClient.setQueryData<ProfileUser>(profileKeys.own(), { ...profile, ...patch });
    const user = queryClient.getQueryData<User | null>(AUTH_USER_KEY);
    if (user) {
      const next = { ...user };
      for (const key of Object.keys(user) as (keyof User)[]) {
        if (key in patch) (next as Record<string, unknown>)[key] = patch[key];
      }
      // Optional fields absent from the cached user (a first profile image, say).
      if (patch.profileImageUrl !== undefined) next.profileImageUrl = patch.profileImageUrl;
      queryClient.setQueryData<User>(AUTH_USER_KEY, next);
    }
    const id = profile?.id ?? user?.id;
    if (id) void queryClient.invalidateQueries({ queryKey: profileKeys.user(id) });
  };
}

/** PUT /api/user/profile with only the changed fields; the answer is the updated profile. */
export function useUpdateProfile() {
  const store = useStoreUser();
  return useMutation({
    mutationFn: (update: ProfileUpdate) => updateProfile(update),
    onSuccess: (user) => store(user),
  });
}

/**
 * POST /api/user/profile-image, multipart field `profileImage`; the generated call sends FormData
 * and the fetch mutator leaves its Content-Type (with the boundary) to the browser.
 */
export function useUploadProfileImage() {
  const store = useStoreUser();
  return useMutation({
    mutationFn: (file: File) => uploadProfileImage({ profileImage: file }),
    onSuccess: ({ imageUrl }) => store({ profileImageUrl: imageUrl }),
  });
}

/** POST /api/user/change-password. */
export function useChangePassword() {
  return useMutation({
    mutationFn: (input: { currentPassword: string; newPassword: string }) => changePassword(input),
  });
}

/** POST /api/user/calendar-feed/rotate: a new feed address; the old one stops working. */
export function useRotateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => rotateCalendarFeed(),
    onSuccess: (next) => queryClient.setQueryData(profileKeys.calendarFeed(), next),
  });
}

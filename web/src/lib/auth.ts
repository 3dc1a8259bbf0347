import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getAuthUser, login, logout, register } from '@/api/endpoints/accounts/accounts';
import { getMentorProfile } from '@/api/endpoints/mentors/mentors';
import type { LoginRequest, MentorView, MessageResponse, RegisterRequest, UserView } from '@/api/model';
import { errorStatus } from './api-fetch';
import { hardNavigate, safeNext } from './navigation';
import { accountKeys } from './query-keys';

/** The signed-in user as GET /api/auth/user returns it. */
export type User = UserView;
export type { MessageResponse };

export const AUTH_USER_KEY = accountKeys.user();
export const MENTOR_PROFILE_KEY = accountKeys.mentorProfile();

/** Runs `load`; a response with status `status` yields null instead of an error. */
async function nullOn<T>(status: number, load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (errorStatus(error) === status) return null;
    throw error;
  }
}

export const accountQueries = {
  /** GET /api/auth/user; a 401 means signed out (null). */
  user: () =>
    queryOptions<User | null>({
      queryKey: AUTH_USER_KEY,
      queryFn: ({ signal }) => nullOn(401, () => getAuthUser({ signal })),
    }),
  /** GET /api/mentor/profile (with every service, active or not); a 404 means not a mentor (null). */
  mentorProfile: () =>
    queryOptions<MentorView | null>({
      queryKey: MENTOR_PROFILE_KEY,
      queryFn: ({ signal }) => nullOn(404, () => getMentorProfile({ signal })),
    }),
};

/** GET /api/auth/user; a 401 means signed out (null). No retry, no polling. */
export function useUser() {
  const query = useQuery({ ...accountQueries.user(), retry: false, refetchInterval: false });
  return {
    user: query.data ?? null,
    isLoading: query.isLoading,
    isAuthenticated: !!query.data,
    error: query.error,
    refetch: query.refetch,
  };
}

/**
 * A user is a mentor when GET /api/mentor/profile returns a profile; a 404 means
 * not a mentor (null). Other failures are errors (the header then shows no mentor links).
 */
export function useMentorProfile(enabled: boolean) {
  const query = useQuery({ ...accountQueries.mentorProfile(), enabled });
  return {
    mentorProfile: query.data ?? null,
    isMentor: enabled && query.data !== undefined && query.data !== null,
    isLoading: query.isLoading,
    error: query.error,
  };
}

/** Roles as the header and guards need them. */
export function useRoles() {
  const { user } = useUser();
  const { isMentor } = useMentorProfile(!!user);
  return {
    user,
    isAdmin: user?.isAdmin === true,
    isMentor,
  };
}

/** POST /api/login; on success the app reloads at / (or at `next`, the page that asked to sign in). */
export function useLogin(next?: string | null) {
  return useMutation({
    mutationFn: (input: LoginRequest) => login(input),
    onSuccess: () => hardNavigate(safeNext(next) ?? '/'),
  });
}

/** POST /api/register; the response says whether the e-mail must be verified first. */
export function useRegister() {
  return useMutation({
    mutationFn: (input: RegisterRequest) => register(input),
  });
}

/** POST /api/logout; on success every cached query is dropped and the app opens /auth. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => logout(),
    onSuccess: () => {
      queryClient.clear();
      // A full navigation also drops every piece of in-memory state of the signed-in app.
      hardNavigate('/auth');
    },
  });
}

/** The name to greet someone by: the first name, or 'Seeker' when absent. */
export function greetingName(user: { firstName?: string | null } | null | undefined): string {
  const name = user?.firstName?.trim();
  return name ? name : 'Seeker';
}

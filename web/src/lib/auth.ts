import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { getAuthUser, login, loginTwoFactor, logout, register } from '@/api/endpoints/accounts/accounts';
import { getMentorProfile } from '@/api/endpoints/mentors/mentors';
import type {
  LoginRequest,
  MentorView,
  MessageResponse,
  RegisterRequest,
  TwoFactorLoginRequest,
  TwoFactorRequiredView,
  UserView,
} from '@/api/model';
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

/**
 * The cookie the api sets beside the session cookie at sign-in and clears at sign-out (or when
 * it finds the session expired). It carries nothing secret: it only says whether asking for the
 * user can answer anything but 401.
 */
export const SIGNED_IN_COOKIE = 'signed_in';

/** Whether this browser holds a session, as far as scripts can tell (`signed_in=1`). */
export function hasSignedInCookie(cookies: string = typeof document === 'undefined' ? '' : document.cookie): boolean {
  return cookies.split(';').some((c) => c.trim() === `${SIGNED_IN_COOKIE}=1`);
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

/**
 * Loads the signed-in user into `client` before anything renders (main.tsx); null when signed out.
 * Without the `signed_in` cookie the answer can only be 401, so nothing is asked.
 */
export function fetchUser(client: QueryClient): Promise<User | null> {
  if (!hasSignedInCookie()) return Promise.resolve(null);
  return client.fetchQuery({ ...accountQueries.user(), retry: false });
}

/**
 * GET /api/auth/user; a 401 means signed out (null). Asked only when the `signed_in` cookie is
 * there. No retry, no polling.
 */
export function useUser() {
  const query = useQuery({
    ...accountQueries.user(),
    enabled: hasSignedInCookie(),
    retry: false,
    refetchInterval: false,
  });
  return {
    user: query.data ?? null,
    isLoading: query.isLoading,
    isAuthenticated: !!query.data,
    error: query.error,
    refetch: query.refetch,
  };
}

/**
 * The signed-in user's mentor profile (GET /api/mentor/profile); a 404 means not a mentor (null).
 * Pass `enabled` only when the user is a mentor (`user.isMentor`): nobody else has one to load.
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

/** Roles as the header and guards need them, all from the user's own view (one request). */
export function useRoles() {
  const { user } = useUser();
  return {
    user,
    isAdmin: user?.isAdmin === true,
    isMentor: user?.isMentor === true,
  };
}

/** Where a sign-in lands without a `next`: administrators run the platform from /admin, everyone else starts at /. */
export function homeOf(user: Pick<UserView, 'isAdmin'> | null | undefined): string {
  return user?.isAdmin === true ? '/admin' : '/';
}

/** Whether POST /api/login answered 202: the password was right, a second factor is next. */
export function needsSecondFactor(result: unknown): result is TwoFactorRequiredView {
  return typeof result === 'object' && result !== null && (result as TwoFactorRequiredView).twoFactorRequired === true;
}

/**
 * POST /api/login; once signed in the app reloads at `next` (the page that asked to sign in), or at
 * the user's home (/admin for an administrator, / for everyone else). An account with two factors
 * answers `{ twoFactorRequired: true }` instead: the form's second step ({@link useLoginTwoFactor}) follows.
 */
export function useLogin(next?: string | null) {
  return useMutation({
    mutationFn: (input: LoginRequest) => login(input),
    onSuccess: (result) => {
      if (!needsSecondFactor(result)) hardNavigate(safeNext(next) ?? homeOf(result));
    },
  });
}

/** POST /api/login/two-factor with a code or a recovery code; signed in, the app reloads like {@link useLogin}. */
export function useLoginTwoFactor(next?: string | null) {
  return useMutation({
    mutationFn: (input: TwoFactorLoginRequest) => loginTwoFactor(input),
    onSuccess: (user) => hardNavigate(safeNext(next) ?? homeOf(user)),
  });
}

/** 'Welcome' at a user's first sign-in (no earlier one), 'Welcome back' after. */
export function greeting(user: Pick<UserView, 'previousSignInAt'> | null | undefined): string {
  return user?.previousSignInAt ? 'Welcome back' : 'Welcome';
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

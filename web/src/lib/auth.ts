import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, errorStatus, apiFetch } from './api-fetch';
import { hardNavigate } from './navigation';
import { getQueryFn } from './query-client';

/** The signed-in user as GET /api/auth/user returns it (docs/accounts.md). */
export type User = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
  isAdmin: boolean;
  role: 'user' | 'mentor' | 'admin';
  isActive: boolean;
  emailVerified: boolean;
  createdAt: string;
  stripeSubscriptionId: string | null;
};

export type LoginInput = { email: string; password: string };
export type RegisterInput = { email: string; password: string; firstName: string; lastName: string };
export type RegisterResponse = { requiresVerification: boolean; message: string };
export type MessageResponse = { message: string };

export const AUTH_USER_KEY = ['/api/auth/user'] as const;
export const MENTOR_PROFILE_KEY = ['/api/mentor/profile'] as const;

/** 01 §7: GET /api/auth/user; a 401 means signed out (null). No retry, no polling. */
export function useUser() {
  const query = useQuery<User | null>({
    queryKey: AUTH_USER_KEY,
    queryFn: getQueryFn<User>({ on401: 'returnNull' }),
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
 * 01 §6: a user is a mentor when GET /api/mentor/profile returns a profile; a 404 means
 * not a mentor (null). Other failures are errors (the header then shows no mentor links).
 */
export function useMentorProfile(enabled: boolean) {
  const query = useQuery<unknown>({
    queryKey: MENTOR_PROFILE_KEY,
    queryFn: async ({ signal }) => {
      try {
        return await apiFetch<unknown>('/api/mentor/profile', { signal });
      } catch (error) {
        if (errorStatus(error) === 404) return null;
        throw error;
      }
    },
    enabled,
  });
  return {
    mentorProfile: query.data ?? null,
    isMentor: enabled && query.data !== undefined && query.data !== null,
    isLoading: query.isLoading,
    error: query.error,
  };
}

/** Roles as the header and guards need them (01 §6). */
export function useRoles() {
  const { user } = useUser();
  const { isMentor } = useMentorProfile(!!user);
  return {
    user,
    isAdmin: user?.isAdmin === true,
    isMentor,
  };
}

/** POST /api/login; on success the app reloads at / (01 §4). */
export function useLogin() {
  return useMutation({
    mutationFn: (input: LoginInput) => apiRequest<User>('POST', '/api/login', input),
    onSuccess: () => hardNavigate('/'),
  });
}

/** POST /api/register; the response says whether the e-mail must be verified first. */
export function useRegister() {
  return useMutation({
    mutationFn: (input: RegisterInput) => apiRequest<RegisterResponse>('POST', '/api/register', input),
  });
}

/** POST /api/logout; on success every cached query is dropped and the app opens /auth. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<MessageResponse>('POST', '/api/logout'),
    onSuccess: () => {
      queryClient.clear();
      // A full navigation also drops every piece of in-memory state of the signed-in app.
      hardNavigate('/auth');
    },
  });
}

/** The name to greet someone by: the first name, or 'Seeker' when absent (01 §2). */
export function greetingName(user: Pick<User, 'firstName'> | null | undefined): string {
  const name = user?.firstName?.trim();
  return name ? name : 'Seeker';
}

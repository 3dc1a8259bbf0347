import { QueryCache, QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { errorStatus } from './api-fetch';
import { hardNavigate, LOGIN_URL } from './navigation';

/** A logged-out user on the home screen is sent to /api/login after 500 ms. */
export const LOGGED_OUT_REDIRECT_DELAY_MS = 500;

// There is no default query function: every read is one `queryOptions` (its key from a key factory,
// lib/query-keys, and its function a call of the generated client) in the api.ts of the feature or
// shared module that owns it.

export const LOGGED_OUT_MESSAGE = 'You are logged out. Logging in again...';

/**
 * When a signed-in screen finds the session gone (a data request answers 401), say so
 * and go to the login endpoint after 500 ms. Only loads count: a 401 from a mutation such as
 * a wrong password at sign-in is that form's own error. Returns the handler for a QueryCache.
 */
export function sessionExpiryHandler(): (error: unknown) => void {
  let redirecting = false;
  return (error) => {
    if (redirecting || errorStatus(error) !== 401) return;
    redirecting = true;
    toast.error(LOGGED_OUT_MESSAGE);
    window.setTimeout(() => hardNavigate(LOGIN_URL), LOGGED_OUT_REDIRECT_DELAY_MS);
  };
}

/** No automatic refetch, none on window focus, data never stale, no retries. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: sessionExpiryHandler() }),
    defaultOptions: {
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}

export const queryClient = createQueryClient();

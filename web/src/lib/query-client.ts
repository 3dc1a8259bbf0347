import { QueryCache, QueryClient, type QueryFunction } from '@tanstack/react-query';
import { toast } from 'sonner';
import { LOGGED_OUT_REDIRECT_DELAY_MS } from '@/config/constants';
import { apiFetch, errorStatus } from './api-fetch';
import { hardNavigate, LOGIN_URL } from './navigation';

export type UnauthorizedBehavior = 'throw' | 'returnNull';

/**
 * Default data loading is a GET to the query key's parts joined with '/'.
 * A 401 raises (default) or yields null. orval's generated keys are the request path,
 * so hand-written and generated queries share one cache.
 */
export function getQueryFn<T>({ on401 }: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const url = queryKey.filter((part) => typeof part === 'string' || typeof part === 'number').join('/');
    try {
      return await apiFetch<T>(url, { signal });
    } catch (error) {
      if (on401 === 'returnNull' && errorStatus(error) === 401) return null;
      throw error;
    }
  };
}

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
        queryFn: getQueryFn({ on401: 'throw' }),
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

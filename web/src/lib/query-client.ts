import { QueryClient, type QueryFunction } from '@tanstack/react-query';
import { apiFetch, errorStatus } from './api-fetch';

export type UnauthorizedBehavior = 'throw' | 'returnNull';

/**
 * 01 §7: default data loading is a GET to the query key's parts joined with '/'.
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

/** 01 §7: no automatic refetch, none on window focus, data never stale, no retries. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
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

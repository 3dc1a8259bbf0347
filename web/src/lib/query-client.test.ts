import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import { LOGGED_OUT_REDIRECT_DELAY_MS } from '@/config/constants';
import { jsonResponse, mockFetch } from '@/testing/test-utils';
import { ApiError } from './api-fetch';
import * as navigation from './navigation';
import { createQueryClient, getQueryFn, LOGGED_OUT_MESSAGE, sessionExpiryHandler } from './query-client';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('query defaults', () => {
  it('never refetch on focus, never go stale, never retry', () => {
    const defaults = createQueryClient().getDefaultOptions().queries!;
    expect(defaults.refetchOnWindowFocus).toBe(false);
    expect(defaults.refetchInterval).toBe(false);
    expect(defaults.staleTime).toBe(Infinity);
    expect(defaults.retry).toBe(false);
  });
});

describe('getQueryFn', () => {
  it('GETs the key parts joined with / and can turn a 401 into null', async () => {
    const fetchMock = mockFetch({
      'GET /api/mentors/42': () => jsonResponse(200, { id: '42' }),
      'GET /api/auth/user': () => jsonResponse(401, { message: 'Unauthorized' }),
    });
    const signal = new AbortController().signal;
    const ctx = (queryKey: unknown[]) => ({ queryKey, signal, meta: undefined }) as never;
    await expect(getQueryFn({ on401: 'throw' })(ctx(['/api/mentors', '42']))).resolves.toEqual({ id: '42' });
    expect(fetchMock.mock.calls[0][0]).toBe('/api/mentors/42');
    await expect(getQueryFn({ on401: 'returnNull' })(ctx(['/api/auth/user']))).resolves.toBeNull();
    await expect(getQueryFn({ on401: 'throw' })(ctx(['/api/auth/user']))).rejects.toThrow(/^401: /);
  });
});

describe('sessionExpiryHandler', () => {
  it('on a 401 says so once and goes to /api/login after 500 ms', () => {
    vi.useFakeTimers();
    const toastError = vi.spyOn(toast, 'error').mockImplementation(() => 1);
    const go = vi.spyOn(navigation, 'hardNavigate').mockImplementation(() => {});
    const handle = sessionExpiryHandler();
    handle(new ApiError(401, 'Unauthorized', '{"message":"Unauthorized"}'));
    handle(new ApiError(401, 'Unauthorized', ''));
    expect(toastError).toHaveBeenCalledTimes(1);
    expect(toastError).toHaveBeenCalledWith(LOGGED_OUT_MESSAGE);
    vi.advanceTimersByTime(LOGGED_OUT_REDIRECT_DELAY_MS - 1);
    expect(go).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(go).toHaveBeenCalledWith('/api/login');
  });

  it('ignores other failures', () => {
    const toastError = vi.spyOn(toast, 'error').mockImplementation(() => 1);
    const handle = sessionExpiryHandler();
    handle(new ApiError(500, 'x', ''));
    handle(new TypeError('Failed to fetch'));
    expect(toastError).not.toHaveBeenCalled();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import { LOGGED_OUT_REDIRECT_DELAY_MS } from './query-client';
import { ApiError } from './api-fetch';
import * as navigation from './navigation';
import { createQueryClient, LOGGED_OUT_MESSAGE, sessionExpiryHandler } from './query-client';

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

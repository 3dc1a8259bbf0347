import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLOCK_TICK_MS, useNow } from './use-now';

afterEach(() => vi.useRealTimers());

describe('useNow', () => {
  it('re-reads the clock every 15 seconds', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T10:00:00Z'));
    const { result } = renderHook(() => useNow());
    expect(result.current.toISOString()).toBe('2026-01-01T10:00:00.000Z');
    act(() => vi.advanceTimersByTime(CLOCK_TICK_MS - 1));
    expect(result.current.toISOString()).toBe('2026-01-01T10:00:00.000Z');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current.toISOString()).toBe('2026-01-01T10:00:15.000Z');
  });
});

import { describe, expect, it } from 'vitest';
import { RECONNECT_MAX_DELAY_MS } from './timing';
import { reconnectDelay } from './backoff';

describe('reconnectDelay', () => {
  it('without jitter (random 0.5) doubles from 1 s and stays at 5 s', () => {
    expect([0, 1, 2, 3, 4, 10, 100].map((attempt) => reconnectDelay(attempt, 0.5))).toEqual([
      1_000, 2_000, 4_000, 5_000, 5_000, 5_000, 5_000,
    ]);
  });

  it('spreads each wait by ±50 %', () => {
    expect(reconnectDelay(0, 0)).toBe(500);
    expect(reconnectDelay(0, 0.999999)).toBe(1_500);
    expect(reconnectDelay(1, 0)).toBe(1_000);
    expect(reconnectDelay(1, 0.999999)).toBe(3_000);
  });

  it('never exceeds 5 s, even with jitter', () => {
    for (let attempt = 0; attempt < 50; attempt++) {
      for (const random of [0, 0.25, 0.5, 0.75, 0.999]) {
        const delay = reconnectDelay(attempt, random);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(RECONNECT_MAX_DELAY_MS);
      }
    }
    expect(reconnectDelay(5, 0)).toBe(2_500);
  });
});

import { RECONNECT_INITIAL_DELAY_MS, RECONNECT_JITTER, RECONNECT_MAX_DELAY_MS } from './timing';

/**
 * The wait before reconnection attempt `attempt` (0 for the first): 1 s doubling per attempt up to
 * 5 s, then spread by ±50 % (`random` in [0, 1)) and capped at 5 s, so many clients dropped at once
 * do not all come back in the same instant.
 */
export function reconnectDelay(attempt: number, random: number = Math.random()): number {
  const base = Math.min(RECONNECT_INITIAL_DELAY_MS * 2 ** Math.max(0, attempt), RECONNECT_MAX_DELAY_MS);
  const spread = base * RECONNECT_JITTER * (2 * random - 1);
  return Math.max(0, Math.min(RECONNECT_MAX_DELAY_MS, Math.round(base + spread)));
}

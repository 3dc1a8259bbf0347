/** The timing of the real-time channel (docs/realtime-web.md). */

/** Reconnection of the real-time channel: 1 s first, doubling up to 5 s, ±50 % jitter, never giving up. */
export const RECONNECT_INITIAL_DELAY_MS = 1_000;
export const RECONNECT_MAX_DELAY_MS = 5_000;
export const RECONNECT_JITTER = 0.5;
export const RECONNECT_MAX_ATTEMPTS = Number.POSITIVE_INFINITY;

/** A connection attempt that has not opened after 20 s is abandoned and retried. */
export const CONNECT_TIMEOUT_MS = 20_000;

/** The client pings the server every 30 s so an idle socket is not taken for a dead one. */
export const REALTIME_PING_INTERVAL_MS = 30_000;

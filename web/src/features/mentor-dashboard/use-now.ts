import { useEffect, useState } from 'react';

/** How often the Bookings tab re-reads the clock, so Start Video Session appears and goes on its own. */
export const CLOCK_TICK_MS = 15_000;

/** The current time, updated every {@link CLOCK_TICK_MS}. */
export function useNow(intervalMs: number = CLOCK_TICK_MS): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), intervalMs);
    return () => window.clearInterval(timer);
  }, [intervalMs]);
  return now;
}

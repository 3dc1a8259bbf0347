import { useEffect, useState } from 'react';

/** How often the dashboards re-read the clock, so time-bound actions (video, changes) appear and go on their own. */
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

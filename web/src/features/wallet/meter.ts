import type { InstantSessionView } from '@/api/model';
import { amount } from '@/lib/money';

/** The meter's figures at `now`: minutes started, what they cost so far, free minutes left. */
export function meter(reading: InstantSessionView, now: number) {
  const started = reading.startedAt ? Date.parse(reading.startedAt) : now;
  const elapsedSeconds = Math.max(0, Math.floor((now - started) / 1000));
  const minutes = Math.floor(elapsedSeconds / 60) + 1;
  const paid = Math.max(0, minutes - reading.freeMinutes);
  return {
    elapsedSeconds,
    cost: paid * amount(reading.perMinuteRate),
    freeLeft: Math.max(0, reading.freeMinutes - minutes + 1),
  };
}

/** Elapsed seconds as m:ss. */
export function clock(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

/**
 * The Availability tab's pure parts (docs/booking.md): the day names, the
 * half-hour time options of the Add Availability dialog, their 12-hour labels, the end-after-start
 * rule and the per-day grouping of the weekly windows.
 *
 * Times are 'HH:MM' 24-hour strings on the mentor's wall clock; an end may be '24:00' (midnight at
 * the end of the day), shown as '12:00 AM (midnight)'.
 */
import { AVAILABILITY_STEP_MINUTES, AVAILABILITY_TIME_OPTION_COUNT } from '@/config/constants';

/** 0 Sunday .. 6 Saturday, as the api numbers them. */
export const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** The end of the day, allowed only as an end time. */
export const MIDNIGHT_END = '24:00';
export const MIDNIGHT_END_LABEL = '12:00 AM (midnight)';

export type TimeOption = { value: string; label: string };

const pad = (n: number) => String(n).padStart(2, '0');

/** 'HH:MM' -> minutes since midnight ('24:00' -> 1440); NaN for anything else. */
export function minutesOf(time: string): number {
  const m = /^(\d{2}):(\d{2})$/.exec(time);
  if (!m) return Number.NaN;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (min > 59 || h > 24 || (h === 24 && min !== 0)) return Number.NaN;
  return h * 60 + min;
}

/** '14:30' -> '2:30 PM', '00:00' -> '12:00 AM', '24:00' -> '12:00 AM (midnight)'. */
export function timeLabel(time: string): string {
  if (time === MIDNIGHT_END) return MIDNIGHT_END_LABEL;
  const total = minutesOf(time);
  if (Number.isNaN(total)) return time;
  const h = Math.floor(total / 60);
  const m = total % 60;
  return `${h % 12 === 0 ? 12 : h % 12}:${pad(m)} ${h < 12 ? 'AM' : 'PM'}`;
}

/** The 48 half-hour times of a day, 00:00 to 23:30, with 12-hour labels. */
export const START_TIME_OPTIONS: readonly TimeOption[] = Array.from({ length: AVAILABILITY_TIME_OPTION_COUNT }, (_, i) => {
  const minutes = i * AVAILABILITY_STEP_MINUTES;
  const value = `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
  return { value, label: timeLabel(value) };
});

/** The end select: the same 48 times plus '24:00' (midnight), so a window can run to the end of the day. */
export const END_TIME_OPTIONS: readonly TimeOption[] = [
  ...START_TIME_OPTIONS,
  { value: MIDNIGHT_END, label: MIDNIGHT_END_LABEL },
];

/** The end must be after the start (equal is not). */
export function isEndAfterStart(startTime: string, endTime: string): boolean {
  const start = minutesOf(startTime);
  const end = minutesOf(endTime);
  return !Number.isNaN(start) && !Number.isNaN(end) && end > start;
}

/** '9:00 AM – 5:00 PM'. */
export function windowLabel(slot: { startTime: string; endTime: string }): string {
  return `${timeLabel(slot.startTime)} – ${timeLabel(slot.endTime)}`;
}

/** 'Monday 9:00 AM to 5:00 PM': names a slot's switch and delete button. */
export function slotName(slot: { dayOfWeek: number; startTime: string; endTime: string }): string {
  return `${DAY_NAMES[slot.dayOfWeek] ?? `Day ${slot.dayOfWeek}`} ${timeLabel(slot.startTime)} to ${timeLabel(slot.endTime)}`;
}

export type DayGroup<T> = { dayOfWeek: number; day: (typeof DAY_NAMES)[number]; slots: T[] };

/**
 * One entry per day, Sunday to Saturday (empty days included, for 'Not available'), each
 * day's windows by start time. Slots with a day outside 0..6 are left out.
 */
export function groupByDay<T extends { dayOfWeek: number; startTime: string }>(slots: readonly T[]): DayGroup<T>[] {
  return DAY_NAMES.map((day, dayOfWeek) => ({
    dayOfWeek,
    day,
    slots: slots.filter((s) => s.dayOfWeek === dayOfWeek).sort((a, b) => minutesOf(a.startTime) - minutesOf(b.startTime)),
  }));
}

/**
 * Weekly availability's pure parts (docs/booking.md), shared by the mentor dashboard and the
 * onboarding wizard: the day names, the
 * half-hour time options of the Add Availability dialog, their 12-hour labels, the end-after-start
 * rule and the per-day grouping of the weekly windows.
 *
 * Times are 'HH:MM' 24-hour strings on the mentor's wall clock; an end may be '24:00' (midnight at
 * the end of the day), shown as '12:00 AM (midnight)'.
 */

/** Availability times are offered every 30 minutes (48 options a day). */
export const AVAILABILITY_STEP_MINUTES = 30;
export const AVAILABILITY_TIME_OPTION_COUNT = (24 * 60) / AVAILABILITY_STEP_MINUTES;

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
export const START_TIME_OPTIONS: readonly TimeOption[] = Array.from(
  { length: AVAILABILITY_TIME_OPTION_COUNT },
  (_, i) => {
    const minutes = i * AVAILABILITY_STEP_MINUTES;
    const value = `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
    return { value, label: timeLabel(value) };
  },
);

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
    slots: slots
      .filter((s) => s.dayOfWeek === dayOfWeek)
      .sort((a, b) => minutesOf(a.startTime) - minutesOf(b.startTime)),
  }));
}

/** Day sets for quick choices. */
export const WEEKDAYS: readonly number[] = [1, 2, 3, 4, 5];
export const WEEKEND: readonly number[] = [0, 6];
export const EVERY_DAY: readonly number[] = [0, 1, 2, 3, 4, 5, 6];

/** One range of a weekly schedule: the same times on each chosen day. */
export type ScheduleRow = { days: number[]; startTime: string; endTime: string };

/** The onboarding wizard's starting points; each adds its ranges, which stay editable. */
export const SCHEDULE_PRESETS: readonly { name: string; row: ScheduleRow }[] = [
  { name: 'Weekdays 9-17', row: { days: [...WEEKDAYS], startTime: '09:00', endTime: '17:00' } },
  { name: 'Evenings 17-21', row: { days: [...WEEKDAYS], startTime: '17:00', endTime: '21:00' } },
  { name: 'Weekends 10-16', row: { days: [...WEEKEND], startTime: '10:00', endTime: '16:00' } },
];

export const NO_DAY_CHOSEN = 'Please select at least one day';

/** What keeps a schedule from being saved, in order; empty when it can be saved. */
export function scheduleProblems(rows: readonly ScheduleRow[]): string[] {
  const problems: string[] = [];
  rows.forEach((row, i) => {
    const which = rows.length > 1 ? `Range ${i + 1}: ` : '';
    if (row.days.length === 0) problems.push(`${which}${NO_DAY_CHOSEN}`);
    if (!isEndAfterStart(row.startTime, row.endTime)) problems.push(`${which}End time must be after start time`);
  });
  for (const day of EVERY_DAY) {
    const ranges = rows
      .filter((r) => r.days.includes(day) && isEndAfterStart(r.startTime, r.endTime))
      .map((r) => [minutesOf(r.startTime), minutesOf(r.endTime)] as const)
      .sort((a, b) => a[0] - b[0]);
    if (ranges.some((r, i) => i > 0 && r[0] < ranges[i - 1][1]))
      problems.push(`Two ranges overlap on ${DAY_NAMES[day]}`);
  }
  return problems;
}

/** 'Mon, Wed, Fri' (Monday first). */
export function daysLabel(days: readonly number[]): string {
  return [1, 2, 3, 4, 5, 6, 0]
    .filter((d) => days.includes(d))
    .map((d) => DAY_NAMES[d].slice(0, 3))
    .join(', ');
}

/** Date overrides may be set from the mentor's today to this many days ahead (as far as bookings go). */
export const OVERRIDE_WINDOW_DAYS = 90;

/** Today's date (YYYY-MM-DD) in a time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      now,
    );
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

/** A YYYY-MM-DD date plus `days`. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** 'Mon, Nov 30, 2026' for a YYYY-MM-DD date (a calendar date: no zone shifts it). */
export function calendarDateLabel(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat('en-US', {
    timeZone: 'UTC',
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  }).format(new Date(Date.UTC(y, m - 1, d)));
}

/** What an override does: 'Day off', 'Extra hours 6:00 PM – 8:00 PM', or 'Day off, only 6:00 PM – 8:00 PM'. */
export function overrideLabel(o: { isDayOff: boolean; startTime?: string | null; endTime?: string | null }): string {
  const hours = o.startTime && o.endTime ? windowLabel({ startTime: o.startTime, endTime: o.endTime }) : null;
  if (o.isDayOff && hours) return `Day off, only ${hours}`;
  if (o.isDayOff) return 'Day off';
  return `Extra hours ${hours ?? ''}`.trim();
}

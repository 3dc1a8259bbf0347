/**
 * The one way the web writes dates and times, with the same named formats as the server's mail and
 * notifications (`domain/src/time_format.rs`): dates 'MMM dd, yyyy', times 'h:mm a' (spec: Date
 * formats). Times are on the browser's clock; a time shown on another zone's clock (a mentor's
 * hours, say) is followed by that zone's abbreviation.
 */

export const DATE_FORMAT = 'MMM dd, yyyy';
export const TIME_FORMAT = 'h:mm a';

/** The named formats and what they look like. */
export const TIME_FORMATS = {
  /** '9:30 AM' */
  time: 'h:mm a',
  /** 'Mar 05, 2027' */
  date: 'MMM dd, yyyy',
  /** 'Mar 05, 2027 9:30 AM' */
  dateTime: 'MMM dd, yyyy h:mm a',
  /** 'Friday, Mar 05, 2027 9:30 AM' */
  weekdayDateTime: 'EEEE, MMM dd, yyyy h:mm a',
} as const;

export type TimeFormatName = keyof typeof TIME_FORMATS;

/** Where a time is read: another zone than the browser's adds its abbreviation. */
export type ZoneOption = { timeZone?: string };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'long',
      year: 'numeric',
      month: 'short',
      day: '2-digit',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
      timeZoneName: 'short',
    });
    formatters.set(key, f);
  }
  return f;
}

function browserZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

/** `value` by a named format; with `timeZone` other than the browser's, on that zone's clock and named. */
export function formatAs(value: Date | string | number, name: TimeFormatName, options: ZoneOption = {}): string {
  const date = toDate(value);
  if (Number.isNaN(date.getTime())) return '—';
  const parts: Record<string, string> = {};
  for (const p of formatter(options.timeZone).formatToParts(date)) parts[p.type] = p.value;
  const day = `${parts.month} ${parts.day}, ${parts.year}`;
  const time = `${parts.hour}:${parts.minute} ${parts.dayPeriod?.toUpperCase()}`;
  const text = {
    time,
    date: day,
    dateTime: `${day} ${time}`,
    weekdayDateTime: `${parts.weekday}, ${day} ${time}`,
  }[name];
  const foreign = options.timeZone !== undefined && options.timeZone !== browserZone();
  return foreign && name !== 'date' ? `${text} ${parts.timeZoneName}` : text;
}

export function formatDate(value: Date | string, options: ZoneOption = {}): string {
  return formatAs(value, 'date', options);
}

export function formatTime(value: Date | string, options: ZoneOption = {}): string {
  return formatAs(value, 'time', options);
}

export function formatDateTime(value: Date | string, options: ZoneOption = {}): string {
  return formatAs(value, 'dateTime', options);
}

/** `formatDateTime` for a value that may be missing: '—'. */
export function formatDateTimeOrDash(value: Date | string | null | undefined): string {
  return value ? formatDateTime(value) : '—';
}

/**
 * Wall-clock times in a named IANA zone, turned into instants with the browser's Intl data only.
 *
 * The slot picker shows a date and an 'HH:MM' start in the viewer's zone (docs/booking.md: the
 * slots are start times in the `timeZone` the page sends); the api wants the instant (ISO 8601).
 * Around a change of the clocks a wall time can occur twice (autumn) or not at all (spring);
 * this follows the 'compatible' rule of Temporal and of most calendars: a repeated time is its
 * first occurrence, a skipped time is moved forward by the length of the gap.
 */

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The zone's offset from UTC at an instant, in milliseconds (New York in winter: -5 h). */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour % 24, parts.minute, parts.second);
  // Whole seconds are all the zone data has; drop the instant's milliseconds before comparing.
  return asUtc - (instant - (((instant % 1000) + 1000) % 1000));
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * The instant at which the clocks of `timeZone` show `date` ('YYYY-MM-DD') at `time` ('HH:MM').
 * Throws a RangeError for a malformed date or time or an unknown zone.
 */
export function wallTimeToInstant(date: string, time: string, timeZone: string): Date {
  const d = DATE.exec(date);
  const t = TIME.exec(time);
  if (!d || !t) throw new RangeError(`Invalid wall time: ${date} ${time}`);
  const wall = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  if (Number.isNaN(wall)) throw new RangeError(`Invalid wall time: ${date} ${time}`);

  // The offsets in force a day before and a day after: no zone changes its clocks twice in a day.
  const before = zoneOffsetMs(wall - DAY_MS, timeZone);
  const after = zoneOffsetMs(wall + DAY_MS, timeZone);
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((instant) => instant + zoneOffsetMs(instant, timeZone) === wall)
    .sort((a, b) => a - b);

  // A repeated wall time: the first occurrence. A skipped one: shifted by the gap (offset before).
  const instant = candidates.length > 0 ? candidates[0] : wall - before;
  return new Date(instant);
}

/** The ISO 8601 instant ('2025-03-09T07:30:00.000Z') for a wall time in a zone. */
export function wallTimeToIso(date: string, time: string, timeZone: string): string {
  return wallTimeToInstant(date, time, timeZone).toISOString();
}

import { describe, expect, it } from 'vitest';
import { formatAs, formatDate, formatDateTime, formatDateTimeOrDash, formatTime, TIME_FORMATS } from './format';

describe('date formats', () => {
  const local = new Date(2025, 2, 7, 14, 5); // 7 March 2025, 14:05 local time
  it("read 'MMM dd, yyyy' and 'h:mm a'", () => {
    expect(formatDate(local)).toBe('Mar 07, 2025');
    expect(formatTime(local)).toBe('2:05 PM');
    expect(formatDateTime(local)).toBe('Mar 07, 2025 2:05 PM');
  });
  it('accept ISO strings', () => {
    expect(formatDate(local.toISOString())).toBe('Mar 07, 2025');
  });
  it('have the names and outputs of the server’s formats (domain/src/time_format.rs)', () => {
    expect(Object.keys(TIME_FORMATS)).toEqual(['time', 'date', 'dateTime', 'weekdayDateTime']);
    expect(formatAs(new Date(2027, 2, 5, 9, 30), 'weekdayDateTime')).toBe('Friday, Mar 05, 2027 9:30 AM');
    expect(formatAs(new Date(2027, 2, 5, 0, 5), 'time')).toBe('12:05 AM');
    expect(formatAs(new Date(2027, 2, 5, 12, 0), 'time')).toBe('12:00 PM');
  });
  it('never print the locale’s long form (11/27/2026, 9:33:41 PM)', () => {
    const text = formatDateTime('2026-11-27T21:33:41Z');
    expect(text).toMatch(/^Nov 2[78], 2026 \d{1,2}:\d{2} [AP]M$/);
    expect(text).not.toContain('/');
    expect(formatDateTimeOrDash(null)).toBe('—');
    expect(formatDateTime('not a date')).toBe('—');
  });
  it("add the zone's abbreviation when the time is on another zone's clock", () => {
    const t = '2027-03-05T14:30:00Z';
    expect(formatDateTime(t, { timeZone: 'America/New_York' })).toBe('Mar 05, 2027 9:30 AM EST');
    expect(formatTime('2027-07-05T14:30:00Z', { timeZone: 'America/New_York' })).toBe('10:30 AM EDT');
    expect(formatTime(t, { timeZone: 'America/Los_Angeles' })).toBe('6:30 AM PST');
    // A date has no clock, so no zone; but it is that zone's date.
    expect(formatDate('2027-03-06T02:00:00Z', { timeZone: 'America/New_York' })).toBe('Mar 05, 2027');
  });
  it('add no abbreviation for the browser’s own zone', () => {
    const own = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(formatTime(new Date(2027, 2, 5, 9, 30), { timeZone: own })).toBe('9:30 AM');
  });
});

import { describe, expect, it } from 'vitest';
import { wallTimeToInstant, wallTimeToIso, zoneOffsetMs } from './wall-time';

const HOUR = 3_600_000;

describe('zoneOffsetMs', () => {
  it('reads the offset in force at an instant', () => {
    expect(zoneOffsetMs(Date.parse('2025-01-15T12:00:00Z'), 'America/New_York')).toBe(-5 * HOUR);
    expect(zoneOffsetMs(Date.parse('2025-07-15T12:00:00Z'), 'America/New_York')).toBe(-4 * HOUR);
    expect(zoneOffsetMs(Date.parse('2025-07-15T12:00:00.789Z'), 'Asia/Kolkata')).toBe(5.5 * HOUR);
    expect(zoneOffsetMs(Date.parse('2025-07-15T12:00:00Z'), 'UTC')).toBe(0);
  });
});

describe('wallTimeToInstant', () => {
  it('converts ordinary wall times on either side of a change of the clocks (New York, March 2025)', () => {
    // Standard time (UTC-5) the day before, daylight time (UTC-4) the day after.
    expect(wallTimeToIso('2025-03-08', '09:00', 'America/New_York')).toBe('2025-03-08T14:00:00.000Z');
    expect(wallTimeToIso('2025-03-09', '01:30', 'America/New_York')).toBe('2025-03-09T06:30:00.000Z');
    expect(wallTimeToIso('2025-03-09', '03:00', 'America/New_York')).toBe('2025-03-09T07:00:00.000Z');
    expect(wallTimeToIso('2025-03-09', '09:00', 'America/New_York')).toBe('2025-03-09T13:00:00.000Z');
    expect(wallTimeToIso('2025-03-10', '09:00', 'America/New_York')).toBe('2025-03-10T13:00:00.000Z');
  });

  it('keeps the same wall time across the change: 9:00 a day apart is 23 hours apart in spring, 25 in autumn', () => {
    const springBefore = wallTimeToInstant('2025-03-08', '09:00', 'America/New_York').getTime();
    const springAfter = wallTimeToInstant('2025-03-09', '09:00', 'America/New_York').getTime();
    expect(springAfter - springBefore).toBe(23 * HOUR);
    const autumnBefore = wallTimeToInstant('2025-11-01', '09:00', 'America/New_York').getTime();
    const autumnAfter = wallTimeToInstant('2025-11-02', '09:00', 'America/New_York').getTime();
    expect(autumnAfter - autumnBefore).toBe(25 * HOUR);
  });

  it('moves a skipped time (02:30 on the spring-forward night) forward by the gap', () => {
    expect(wallTimeToIso('2025-03-09', '02:30', 'America/New_York')).toBe('2025-03-09T07:30:00.000Z'); // 03:30 EDT
  });

  it('takes the first of a repeated time (01:30 on the fall-back night)', () => {
    expect(wallTimeToIso('2025-11-02', '01:30', 'America/New_York')).toBe('2025-11-02T05:30:00.000Z'); // 01:30 EDT
    expect(wallTimeToIso('2025-11-02', '02:00', 'America/New_York')).toBe('2025-11-02T07:00:00.000Z'); // 02:00 EST
  });

  it('handles zones south of the equator and half-hour zones', () => {
    // Sydney leaves daylight time on 6 April 2025 (03:00 AEDT -> 02:00 AEST).
    expect(wallTimeToIso('2025-04-05', '10:00', 'Australia/Sydney')).toBe('2025-04-04T23:00:00.000Z');
    expect(wallTimeToIso('2025-04-06', '10:00', 'Australia/Sydney')).toBe('2025-04-06T00:00:00.000Z');
    expect(wallTimeToIso('2025-06-01', '00:00', 'Asia/Kolkata')).toBe('2025-05-31T18:30:00.000Z');
    expect(wallTimeToIso('2025-06-01', '23:30', 'UTC')).toBe('2025-06-01T23:30:00.000Z');
  });

  it('refuses malformed input', () => {
    expect(() => wallTimeToInstant('2025-6-1', '09:00', 'UTC')).toThrow(RangeError);
    expect(() => wallTimeToInstant('2025-06-01', '24:00', 'UTC')).toThrow(RangeError);
    expect(() => wallTimeToInstant('2025-06-01', '09:00', 'Not/AZone')).toThrow(RangeError);
  });
});

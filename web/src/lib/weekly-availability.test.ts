import { describe, expect, it } from 'vitest';
import {
  addDays,
  calendarDateLabel,
  daysLabel,
  overrideLabel,
  SCHEDULE_PRESETS,
  scheduleProblems,
  todayIn,
} from './weekly-availability';

describe('weekly schedules', () => {
  it('offers the three presets', () => {
    expect(SCHEDULE_PRESETS.map((p) => p.name)).toEqual(['Weekdays 9-17', 'Evenings 17-21', 'Weekends 10-16']);
    expect(SCHEDULE_PRESETS[0].row).toEqual({ days: [1, 2, 3, 4, 5], startTime: '09:00', endTime: '17:00' });
    expect(SCHEDULE_PRESETS[2].row).toEqual({ days: [0, 6], startTime: '10:00', endTime: '16:00' });
    expect(scheduleProblems(SCHEDULE_PRESETS.map((p) => p.row))).toEqual([]);
  });

  it('names what keeps a schedule from being saved', () => {
    expect(scheduleProblems([{ days: [], startTime: '09:00', endTime: '10:00' }])).toEqual([
      'Please select at least one day',
    ]);
    expect(
      scheduleProblems([
        { days: [1], startTime: '09:00', endTime: '12:00' },
        { days: [1, 2], startTime: '11:00', endTime: '13:00' },
        { days: [3], startTime: '13:00', endTime: '12:00' },
      ]),
    ).toEqual(['Range 3: End time must be after start time', 'Two ranges overlap on Monday']);
    expect(daysLabel([0, 1, 3])).toBe('Mon, Wed, Sun');
  });

  it('dates for overrides', () => {
    expect(todayIn('America/New_York', new Date('2026-06-01T02:00:00Z'))).toBe('2026-05-31');
    expect(todayIn('UTC', new Date('2026-06-01T02:00:00Z'))).toBe('2026-06-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-06-01', 90)).toBe('2026-08-30');
    expect(calendarDateLabel('2026-06-01')).toBe('Mon, Jun 1, 2026');
    expect(overrideLabel({ isDayOff: true })).toBe('Day off');
    expect(overrideLabel({ isDayOff: false, startTime: '18:00', endTime: '20:00' })).toBe(
      'Extra hours 6:00 PM – 8:00 PM',
    );
    expect(overrideLabel({ isDayOff: true, startTime: '18:00', endTime: '24:00' })).toBe(
      'Day off, only 6:00 PM – 12:00 AM (midnight)',
    );
  });
});

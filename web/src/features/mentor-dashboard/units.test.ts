import type { BookingStatusView } from '@/api/model';
import { describe, expect, it } from 'vitest';
import {
  DAY_NAMES,
  END_TIME_OPTIONS,
  groupByDay,
  isEndAfterStart,
  minutesOf,
  slotName,
  START_TIME_OPTIONS,
  timeLabel,
  windowLabel,
} from '@/lib/weekly-availability';
import { bookingPhase, clientMessagesHref, clientName, countByFilter, filterBookings, mentorActions } from './bookings';

describe('availability time options', () => {
  it('offers 48 half-hour starts from 12:00 AM to 11:30 PM, values HH:MM 24-hour', () => {
    expect(START_TIME_OPTIONS).toHaveLength(48);
    expect(START_TIME_OPTIONS[0]).toEqual({ value: '00:00', label: '12:00 AM' });
    expect(START_TIME_OPTIONS[1]).toEqual({ value: '00:30', label: '12:30 AM' });
    expect(START_TIME_OPTIONS[2]).toEqual({ value: '01:00', label: '1:00 AM' });
    expect(START_TIME_OPTIONS[23]).toEqual({ value: '11:30', label: '11:30 AM' });
    expect(START_TIME_OPTIONS[24]).toEqual({ value: '12:00', label: '12:00 PM' });
    expect(START_TIME_OPTIONS[27]).toEqual({ value: '13:30', label: '1:30 PM' });
    expect(START_TIME_OPTIONS[47]).toEqual({ value: '23:30', label: '11:30 PM' });
    expect(new Set(START_TIME_OPTIONS.map((o) => o.value)).size).toBe(48);
    expect(new Set(START_TIME_OPTIONS.map((o) => o.label)).size).toBe(48);
    for (const o of START_TIME_OPTIONS) expect(o.value).toMatch(/^([01]\d|2[0-3]):(00|30)$/);
  });

  it('lets the end also be 24:00, labelled 12:00 AM (midnight)', () => {
    expect(END_TIME_OPTIONS).toHaveLength(49);
    expect(END_TIME_OPTIONS.slice(0, 48)).toEqual(START_TIME_OPTIONS);
    expect(END_TIME_OPTIONS[48]).toEqual({ value: '24:00', label: '12:00 AM (midnight)' });
  });

  it('labels times in 12-hour form', () => {
    expect(timeLabel('09:00')).toBe('9:00 AM');
    expect(timeLabel('17:30')).toBe('5:30 PM');
    expect(timeLabel('24:00')).toBe('12:00 AM (midnight)');
    expect(windowLabel({ startTime: '21:00', endTime: '24:00' })).toBe('9:00 PM – 12:00 AM (midnight)');
    expect(slotName({ dayOfWeek: 1, startTime: '09:00', endTime: '17:00' })).toBe('Monday 9:00 AM to 5:00 PM');
  });

  it('requires the end after the start', () => {
    expect(isEndAfterStart('09:00', '09:30')).toBe(true);
    expect(isEndAfterStart('23:30', '24:00')).toBe(true);
    expect(isEndAfterStart('09:00', '09:00')).toBe(false);
    expect(isEndAfterStart('10:00', '09:00')).toBe(false);
    expect(isEndAfterStart('09:00', '')).toBe(false);
    expect(isEndAfterStart('', '10:00')).toBe(false);
    expect(minutesOf('24:00')).toBe(1440);
    expect(minutesOf('24:30')).toBeNaN();
    expect(minutesOf('9:00')).toBeNaN();
  });
});

describe('groupByDay', () => {
  const slot = (id: string, dayOfWeek: number, startTime: string, endTime = '24:00') => ({
    id,
    dayOfWeek,
    startTime,
    endTime,
    isActive: true,
  });

  it('gives Sunday to Saturday, empty days included, each day by start', () => {
    const groups = groupByDay([
      slot('a', 3, '13:00'),
      slot('b', 0, '09:00'),
      slot('c', 3, '08:30', '12:00'),
      slot('d', 6, '00:00'),
    ]);
    expect(groups.map((g) => g.day)).toEqual([...DAY_NAMES]);
    expect(DAY_NAMES[0]).toBe('Sunday');
    expect(DAY_NAMES[6]).toBe('Saturday');
    expect(groups.map((g) => g.slots.map((s) => s.id))).toEqual([['b'], [], [], ['c', 'a'], [], [], ['d']]);
    expect(groups.map((g) => g.dayOfWeek)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('gives seven empty days for no slots and ignores days outside 0..6', () => {
    const groups = groupByDay([slot('x', 7, '09:00'), slot('y', -1, '09:00')]);
    expect(groups).toHaveLength(7);
    expect(groups.every((g) => g.slots.length === 0)).toBe(true);
  });
});

describe('mentor booking actions', () => {
  const START = '2025-06-01T15:00:00.000Z';
  const at = (iso: string) => new Date(iso);
  const booking = (status: BookingStatusView, duration = 45) => ({ status, scheduledAt: START, duration });

  it('Mark Complete only once the session has ended (the api refuses it before)', () => {
    const confirmed = booking('confirmed', 45);
    expect(mentorActions(confirmed, at('2025-06-01T15:44:59.999Z')).complete).toBe(false);
    expect(mentorActions(confirmed, at('2025-06-01T15:45:00.000Z')).complete).toBe(true);
  });

  it('Cancel Booking: pending or confirmed, until the start', () => {
    for (const status of ['pending', 'confirmed'] as const) {
      expect(mentorActions(booking(status), at('2025-06-01T14:59:59.999Z')).cancel).toBe(true);
      expect(mentorActions(booking(status), at(START)).cancel).toBe(false);
    }
    for (const status of ['completed', 'cancelled'] as const) {
      expect(mentorActions(booking(status), at('2025-05-01T00:00:00Z')).cancel).toBe(false);
    }
  });

  it('pending: Confirm; confirmed and ended: Mark Complete; others nothing', () => {
    const now = at('2025-06-02T00:00:00Z');
    expect(mentorActions(booking('pending'), now)).toEqual({
      confirm: true,
      cancel: false,
      complete: false,
      startVideo: false,
    });
    expect(mentorActions(booking('confirmed'), now)).toEqual({
      confirm: false,
      cancel: false,
      complete: true,
      startVideo: false,
    });
    expect(mentorActions(booking('completed'), now)).toEqual({
      confirm: false,
      cancel: false,
      complete: false,
      startVideo: false,
    });
    expect(mentorActions(booking('cancelled'), now)).toEqual({
      confirm: false,
      cancel: false,
      complete: false,
      startVideo: false,
    });
  });

  it('Start Video Session: confirmed, from 15 minutes before the start until start plus duration', () => {
    const confirmed = booking('confirmed', 45);
    expect(mentorActions(confirmed, at('2025-06-01T14:44:59.999Z')).startVideo).toBe(false);
    expect(mentorActions(confirmed, at('2025-06-01T14:45:00.000Z')).startVideo).toBe(true);
    expect(mentorActions(confirmed, at(START)).startVideo).toBe(true);
    expect(mentorActions(confirmed, at('2025-06-01T15:44:59.999Z')).startVideo).toBe(true);
    expect(mentorActions(confirmed, at('2025-06-01T15:45:00.000Z')).startVideo).toBe(false);
    expect(mentorActions(booking('pending', 45), at(START)).startVideo).toBe(false);
  });

  it('links to the message screen with the client and the booking', () => {
    const b = { id: 'b-1', user: { id: 'u-1', firstName: 'Ada', lastName: 'Lovelace' } };
    expect(clientMessagesHref(b)).toBe('/messages?user=u-1&booking=b-1');
    expect(clientMessagesHref(b, true)).toBe('/messages?user=u-1&booking=b-1&startCall=true');
    expect(clientName(b)).toBe('Ada Lovelace');
    expect(clientName({ user: { id: 'u', firstName: '', lastName: ' ' } })).toBe('Client');
  });
});

describe('bookings by phase', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  const b = (id: string, status: BookingStatusView, scheduledAt: string, duration = 60) => ({
    id,
    status,
    scheduledAt,
    duration,
  });

  it('a session is upcoming until it has ended, past after; cancelled and lapsed holds are cancelled', () => {
    expect(bookingPhase(b('a', 'confirmed', '2026-06-01T11:30:00Z'), now)).toBe('upcoming');
    expect(bookingPhase(b('a', 'confirmed', '2026-06-01T11:00:00Z'), now)).toBe('past');
    expect(bookingPhase(b('a', 'pending', '2026-06-02T11:00:00Z'), now)).toBe('upcoming');
    expect(bookingPhase(b('a', 'completed', '2026-06-01T11:30:00Z'), now)).toBe('past');
    expect(bookingPhase(b('a', 'cancelled', '2026-06-02T11:00:00Z'), now)).toBe('cancelled');
    expect(bookingPhase(b('a', 'expired', '2026-06-02T11:00:00Z'), now)).toBe('cancelled');
  });

  it('orders upcoming soonest first, then past newest first, then cancelled', () => {
    const list = [
      b('past-old', 'completed', '2026-05-01T10:00:00Z'),
      b('up-late', 'confirmed', '2026-06-09T10:00:00Z'),
      b('gone', 'cancelled', '2026-06-03T10:00:00Z'),
      b('past-new', 'completed', '2026-05-30T10:00:00Z'),
      b('up-soon', 'pending', '2026-06-02T10:00:00Z'),
    ];
    const ids = (filter: Parameters<typeof filterBookings>[1]) => filterBookings(list, filter, now).map((x) => x.id);
    expect(ids('all')).toEqual(['up-soon', 'up-late', 'past-new', 'past-old', 'gone']);
    expect(ids('upcoming')).toEqual(['up-soon', 'up-late']);
    expect(ids('past')).toEqual(['past-new', 'past-old']);
    expect(ids('cancelled')).toEqual(['gone']);
    expect(countByFilter(list, now)).toEqual({ all: 5, upcoming: 2, past: 2, cancelled: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import {
  canChangeBooking,
  canStartVideoSession,
  isInProgress,
  isPast,
  isRescheduleClosed,
  isUpcoming,
  refundPercentAt,
  refundPercentForHours,
  splitBookings,
  videoSessionWindow,
  type TimedBooking,
} from './booking-rules';

const START = '2025-06-01T15:00:00.000Z';
const at = (iso: string) => new Date(iso);
const booking = (status: string, scheduledAt = START, duration = 60): TimedBooking => ({
  status,
  scheduledAt,
  duration,
});

describe('canStartVideoSession', () => {
  const confirmed = booking('confirmed', START, 45);

  it('opens exactly 15 minutes before the start', () => {
    expect(canStartVideoSession(confirmed, at('2025-06-01T14:44:59.999Z'))).toBe(false);
    expect(canStartVideoSession(confirmed, at('2025-06-01T14:45:00.000Z'))).toBe(true);
  });

  it('stays open through the session and closes at start plus duration', () => {
    expect(canStartVideoSession(confirmed, at(START))).toBe(true);
    expect(canStartVideoSession(confirmed, at('2025-06-01T15:44:59.999Z'))).toBe(true);
    expect(canStartVideoSession(confirmed, at('2025-06-01T15:45:00.000Z'))).toBe(false);
  });

  it('is only for confirmed bookings', () => {
    for (const status of ['pending', 'completed', 'cancelled']) {
      expect(canStartVideoSession(booking(status, START, 45), at(START))).toBe(false);
    }
  });

  it('names the window', () => {
    expect(videoSessionWindow(confirmed)).toEqual({
      opens: at('2025-06-01T14:45:00.000Z'),
      closes: at('2025-06-01T15:45:00.000Z'),
    });
  });
});

describe('upcoming, history and changes', () => {
  const justBefore = at('2025-06-01T14:59:59.999Z');

  it('upcoming is pending or confirmed and not ended: a session in progress stays upcoming', () => {
    expect(isUpcoming(booking('confirmed'), justBefore)).toBe(true);
    expect(isUpcoming(booking('pending'), justBefore)).toBe(true);
    expect(isUpcoming(booking('confirmed'), at(START))).toBe(true);
    expect(isUpcoming(booking('confirmed'), at('2025-06-01T15:59:59.999Z'))).toBe(true);
    expect(isUpcoming(booking('confirmed'), at('2025-06-01T16:00:00.000Z'))).toBe(false);
    expect(isUpcoming(booking('completed'), justBefore)).toBe(false);
    expect(isUpcoming(booking('cancelled'), justBefore)).toBe(false);
  });

  it('history is completed, cancelled or ended', () => {
    expect(isPast(booking('completed'), justBefore)).toBe(true);
    expect(isPast(booking('cancelled'), justBefore)).toBe(true);
    expect(isPast(booking('confirmed'), at(START))).toBe(false);
    expect(isPast(booking('confirmed'), at('2025-06-01T16:00:00.000Z'))).toBe(true);
    expect(isPast(booking('confirmed'), justBefore)).toBe(false);
  });

  it('is in progress from the start until the end', () => {
    expect(isInProgress(booking('confirmed'), justBefore)).toBe(false);
    expect(isInProgress(booking('confirmed'), at(START))).toBe(true);
    expect(isInProgress(booking('pending'), at('2025-06-01T15:30:00.000Z'))).toBe(true);
    expect(isInProgress(booking('confirmed'), at('2025-06-01T16:00:00.000Z'))).toBe(false);
    expect(isInProgress(booking('cancelled'), at(START))).toBe(false);
  });

  it('offers reschedule and cancel only before the start of a pending or confirmed booking', () => {
    expect(canChangeBooking(booking('confirmed'), justBefore)).toBe(true);
    expect(canChangeBooking(booking('pending'), justBefore)).toBe(true);
    expect(canChangeBooking(booking('confirmed'), at(START))).toBe(false);
    expect(canChangeBooking(booking('completed'), justBefore)).toBe(false);
    expect(canChangeBooking(booking('cancelled'), justBefore)).toBe(false);
  });

  it('lists upcoming soonest first and history newest first', () => {
    const now = at('2025-06-01T12:00:00Z');
    const a = { ...booking('confirmed', '2025-06-03T10:00:00Z'), id: 'a' };
    const b = { ...booking('pending', '2025-06-02T10:00:00Z'), id: 'b' };
    const c = { ...booking('completed', '2025-05-20T10:00:00Z'), id: 'c' };
    const d = { ...booking('cancelled', '2025-06-05T10:00:00Z'), id: 'd' };
    const e = { ...booking('confirmed', '2025-05-30T10:00:00Z'), id: 'e' };
    const f = { ...booking('confirmed', '2025-06-01T11:30:00Z'), id: 'f' };
    const { upcoming, history } = splitBookings([d, a, f, b, e, c], now);
    expect(upcoming.map((x) => x.id)).toEqual(['f', 'b', 'a']);
    expect(history.map((x) => x.id)).toEqual(['d', 'e', 'c']);
  });
});

describe('isRescheduleClosed', () => {
  it('allows a move up to exactly 2 hours before the start', () => {
    const b = booking('confirmed');
    expect(isRescheduleClosed(b, at('2025-06-01T13:00:00.000Z'))).toBe(false);
    expect(isRescheduleClosed(b, at('2025-06-01T13:00:00.001Z'))).toBe(true);
    expect(isRescheduleClosed(b, at(START))).toBe(true);
  });
});

describe('refund tiers', () => {
  it('refund 100% from 24 hours before the start, 50% from 2 hours, 0% under 2 hours', () => {
    expect(refundPercentForHours(72)).toBe(100);
    expect(refundPercentForHours(24)).toBe(100);
    expect(refundPercentForHours(23.999)).toBe(50);
    expect(refundPercentForHours(2)).toBe(50);
    expect(refundPercentForHours(1.999)).toBe(0);
    expect(refundPercentForHours(0)).toBe(0);
    expect(refundPercentForHours(-1)).toBe(0);
  });

  it('measure the hours from now to the start', () => {
    const now = new Date('2025-06-01T12:00:00Z');
    expect(refundPercentAt('2025-06-02T12:00:00Z', now)).toBe(100);
    expect(refundPercentAt('2025-06-02T11:59:59Z', now)).toBe(50);
    expect(refundPercentAt('2025-06-01T14:00:00Z', now)).toBe(50);
    expect(refundPercentAt('2025-06-01T13:59:59Z', now)).toBe(0);
  });
});

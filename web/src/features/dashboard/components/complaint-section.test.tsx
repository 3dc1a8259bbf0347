import { describe, expect, it } from 'vitest';
import type { BookingView } from '@/api/model';
import { canReport, COMPLAINT_WINDOW_MS } from './complaint-section';

const START = new Date('2026-03-01T15:00:00Z');

function booking(overrides: Partial<BookingView> = {}): BookingView {
  return {
    id: 'b-1',
    status: 'confirmed',
    scheduledAt: START.toISOString(),
    duration: 60,
    totalAmount: '30.00',
    createdAt: '2026-02-01T00:00:00Z',
    hasReview: false,
    service: { id: 's-1', title: 'Reading', duration: 60, serviceType: 'tarot' },
    user: { id: 'u-1', firstName: 'Ann', lastName: 'Lee' },
    mentor: { id: 'm-1', userId: 'mu-1', displayName: 'Luna' },
    refunds: [],
    refundedAmount: '0.00',
    ...overrides,
  };
}

const at = (ms: number) => new Date(START.getTime() + ms);
const END = 60 * 60_000;

describe('Report a problem', () => {
  it('is offered from the start until 24 hours after the end', () => {
    expect(canReport(booking(), at(-1))).toBe(false);
    expect(canReport(booking(), at(0))).toBe(true);
    expect(canReport(booking({ status: 'completed' }), at(END + COMPLAINT_WINDOW_MS))).toBe(true);
    expect(canReport(booking({ status: 'completed' }), at(END + COMPLAINT_WINDOW_MS + 1))).toBe(false);
  });

  it('is not offered twice, nor for cancelled sessions or holds', () => {
    const complaint = {
      id: 'c-1',
      bookingId: 'b-1',
      reason: 'other' as const,
      status: 'open' as const,
      createdAt: START.toISOString(),
    };
    expect(canReport(booking({ complaint }), at(10))).toBe(false);
    expect(canReport(booking({ status: 'cancelled' }), at(10))).toBe(false);
    expect(canReport(booking({ status: 'reserved' }), at(10))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import {
  badgeCount,
  markAllReadLabel,
  refundPercentAt,
  refundPercentForHours,
  UNREAD_MESSAGES_POLL_MS,
  UNREAD_MESSAGES_STALE_MS,
} from './constants';

describe('polling', () => {
  it('keeps the message count fresh for less time than it polls', () => {
    expect(UNREAD_MESSAGES_STALE_MS).toBeLessThan(UNREAD_MESSAGES_POLL_MS);
  });
});

describe('badgeCount', () => {
  it('shows 99+ only above 99', () => {
    expect(badgeCount(0)).toBe('0');
    expect(badgeCount(99)).toBe('99');
    expect(badgeCount(100)).toBe('99+');
  });
});

describe('markAllReadLabel', () => {
  it('counts the unread notifications', () => {
    expect(markAllReadLabel(0)).toBe('Mark all as read (0)');
    expect(markAllReadLabel(12)).toBe('Mark all as read (12)');
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

import { describe, expect, it } from 'vitest';
import {
  AUTH_REDIRECT_DELAY_MS,
  badgeCount,
  BADGE_MAX_COUNT,
  FEATURED_MENTORS_COUNT,
  LANDING_STATS,
  LOGGED_OUT_REDIRECT_DELAY_MS,
  MAX_CARD_SPECIALTIES,
  MENTOR_SKELETON_COUNT,
  MIN_PASSWORD_LENGTH,
  NOTIFICATIONS_LIST_LIMIT,
  NOTIFICATIONS_POLL_MS,
  PLATFORM_FEE_PERCENT,
  START_CALL_DELAY_MS,
  TOAST_DURATION_MS,
  TOAST_LIMIT,
  UNREAD_MESSAGES_POLL_MS,
  UNREAD_MESSAGES_STALE_MS,
} from './constants';

describe('spec constants', () => {
  it('have the values the specification gives', () => {
    expect(AUTH_REDIRECT_DELAY_MS).toBe(3000);
    expect(LOGGED_OUT_REDIRECT_DELAY_MS).toBe(500);
    expect(START_CALL_DELAY_MS).toBe(500);
    expect(TOAST_LIMIT).toBe(1);
    expect(TOAST_DURATION_MS).toBe(5000);
    expect(UNREAD_MESSAGES_POLL_MS).toBe(30_000);
    expect(UNREAD_MESSAGES_STALE_MS).toBe(25_000);
    expect(NOTIFICATIONS_POLL_MS).toBe(30_000);
    expect(NOTIFICATIONS_LIST_LIMIT).toBe(10);
    expect(FEATURED_MENTORS_COUNT).toBe(3);
    expect(MAX_CARD_SPECIALTIES).toBe(2);
    expect(MENTOR_SKELETON_COUNT).toBe(6);
    expect(MIN_PASSWORD_LENGTH).toBe(8);
    expect(PLATFORM_FEE_PERCENT).toBe(15);
  });

  it('keep the message count fresh for less time than it polls', () => {
    expect(UNREAD_MESSAGES_STALE_MS).toBeLessThan(UNREAD_MESSAGES_POLL_MS);
  });

  it('show the static landing statistics', () => {
    expect(LANDING_STATS.map((s) => s.value)).toEqual(['1000+', '$50+', '4.9']);
  });
});

describe('badgeCount', () => {
  it('shows 99+ only above 99', () => {
    expect(BADGE_MAX_COUNT).toBe(99);
    expect(badgeCount(0)).toBe('0');
    expect(badgeCount(99)).toBe('99');
    expect(badgeCount(100)).toBe('99+');
  });
});

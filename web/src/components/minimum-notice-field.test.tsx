import { describe, expect, it } from 'vitest';
import { MINIMUM_NOTICE_CHOICES, noticeText } from './minimum-notice-field';

describe('minimum notice', () => {
  it('offers choices within 0 to one week', () => {
    expect(MINIMUM_NOTICE_CHOICES.map((c) => c.minutes)).toContain(0);
    expect(Math.max(...MINIMUM_NOTICE_CHOICES.map((c) => c.minutes))).toBe(10080);
  });

  it('reads in the largest whole unit', () => {
    expect(noticeText(120)).toBe('2 hours');
    expect(noticeText(60)).toBe('1 hour');
    expect(noticeText(90)).toBe('90 minutes');
    expect(noticeText(1440)).toBe('1 day');
  });
});

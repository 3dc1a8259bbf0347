import { describe, expect, it } from 'vitest';
import { badgeCount } from './constants';

describe('badgeCount', () => {
  it('shows 99+ only above 99', () => {
    expect(badgeCount(0)).toBe('0');
    expect(badgeCount(99)).toBe('99');
    expect(badgeCount(100)).toBe('99+');
  });
});

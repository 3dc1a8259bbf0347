import { describe, expect, it } from 'vitest';
import { safeNext, signInPath } from './navigation';

describe('the way back after signing in', () => {
  it('keeps paths of this app only', () => {
    expect(safeNext('/booking/42')).toBe('/booking/42');
    expect(safeNext('/mentors?service=tarot')).toBe('/mentors?service=tarot');
    expect(safeNext('//evil.example')).toBeNull();
    expect(safeNext('https://evil.example')).toBeNull();
    expect(safeNext('/auth?next=/x')).toBeNull();
    expect(safeNext('/api/logout')).toBeNull();
    expect(safeNext(null)).toBeNull();
  });

  it('builds the sign-in path', () => {
    expect(signInPath('/booking/42')).toBe('/auth?next=%2Fbooking%2F42');
    expect(signInPath('/')).toBe('/auth');
  });
});

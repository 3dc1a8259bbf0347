import { describe, expect, it } from 'vitest';
import { formatCallDuration } from './call-timer';

describe('formatCallDuration', () => {
  it('is mm:ss under an hour, zero padded', () => {
    expect(formatCallDuration(0)).toBe('00:00');
    expect(formatCallDuration(5)).toBe('00:05');
    expect(formatCallDuration(65)).toBe('01:05');
    expect(formatCallDuration(3599)).toBe('59:59');
  });

  it('is hh:mm:ss from one hour', () => {
    expect(formatCallDuration(3600)).toBe('01:00:00');
    expect(formatCallDuration(3661)).toBe('01:01:01');
    expect(formatCallDuration(36000 + 59)).toBe('10:00:59');
  });

  it('drops fractions and never goes negative', () => {
    expect(formatCallDuration(61.9)).toBe('01:01');
    expect(formatCallDuration(-3)).toBe('00:00');
  });
});

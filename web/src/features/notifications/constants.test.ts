import { describe, expect, it } from 'vitest';
import { markAllReadLabel } from './constants';

describe('markAllReadLabel', () => {
  it('counts the unread notifications', () => {
    expect(markAllReadLabel(0)).toBe('Mark all as read (0)');
    expect(markAllReadLabel(12)).toBe('Mark all as read (12)');
  });
});

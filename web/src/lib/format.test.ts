import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatTime } from './format';

describe('date formats', () => {
  const local = new Date(2025, 2, 7, 14, 5); // 7 March 2025, 14:05 local time
  it("read 'MMM dd, yyyy' and 'h:mm a'", () => {
    expect(formatDate(local)).toBe('Mar 07, 2025');
    expect(formatTime(local)).toBe('2:05 PM');
    expect(formatDateTime(local)).toBe('Mar 07, 2025 2:05 PM');
  });
  it('accept ISO strings', () => {
    expect(formatDate(local.toISOString())).toBe('Mar 07, 2025');
  });
});

import { describe, expect, it } from 'vitest';
import { completePaymentPath, pickReplacesHold } from './holds';

const hold = { scheduledAt: '2030-01-02T10:00:00Z', service: { duration: 60 } };

describe('pickReplacesHold', () => {
  it('a paid pick always replaces the hold with that mentor (one hold per mentor)', () => {
    expect(pickReplacesHold(hold, { scheduledAt: '2030-01-03T15:00:00Z', duration: 60, free: false })).toBe(true);
  });

  it('a free pick replaces it only on the held time', () => {
    expect(pickReplacesHold(hold, { scheduledAt: '2030-01-02T10:30:00Z', duration: 30, free: true })).toBe(true);
    expect(pickReplacesHold(hold, { scheduledAt: '2030-01-02T09:30:00Z', duration: 30, free: true })).toBe(false);
    expect(pickReplacesHold(hold, { scheduledAt: '2030-01-02T11:00:00Z', duration: 30, free: true })).toBe(false);
  });
});

describe('completePaymentPath', () => {
  it("leads to the hold's payment step on its service's booking page", () => {
    expect(completePaymentPath({ id: 'r 1', service: { id: 's1' } } as never)).toBe('/booking/s1?reservation=r%201');
  });
});

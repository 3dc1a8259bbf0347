import { describe, expect, it } from 'vitest';
import { refundText } from './refund-line';

describe('refund in the session history', () => {
  it('states percentage, amount and status', () => {
    expect(refundText({ percentage: 50, amount: '20.00', status: 'pending' })).toBe('Refund 50%: $20.00, on its way');
    expect(refundText({ percentage: 100, amount: '40.00', status: 'succeeded' })).toBe('Refund 100%: $40.00, refunded');
    expect(refundText({ percentage: 100, amount: '40.00', status: 'failed' })).toBe(
      'Refund 100%: $40.00, failed: please contact support',
    );
    expect(refundText({ percentage: 0, amount: '0.00', status: 'not_needed' })).toBe(
      'No refund (cancelled less than 2 hours before the start)',
    );
    expect(refundText({ percentage: 100, amount: '0.00', status: 'not_needed' })).toBe('Nothing to refund');
  });
});

import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CancellationPolicy } from './cancellation-policy';

describe('CancellationPolicy', () => {
  it('states the refund tiers and the mentor notice before payment', () => {
    render(<CancellationPolicy minimumNoticeMinutes={120} />);
    expect(screen.getByRole('heading', { name: 'Cancellation policy' })).toBeInTheDocument();
    expect(screen.getByText(/Cancel 24 hours or more before the start/)).toHaveTextContent('full refund');
    expect(screen.getByText(/Cancel 2 to 24 hours before/)).toHaveTextContent('50% refund');
    expect(screen.getByText(/Less than 2 hours before/)).toHaveTextContent('no refund');
    expect(screen.getByText('This mentor takes bookings at least 2 hours ahead.')).toBeInTheDocument();
  });
});

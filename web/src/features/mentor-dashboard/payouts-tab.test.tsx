import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { payoutRequest, validatePayoutForm } from './payout-settings';
import { PayoutsTab } from './payouts-tab';

vi.mock('sonner', () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }));

const NONE = {
  mentorId: 'm-1',
  method: null,
  paypalEmail: null,
  venmoUsername: null,
  zelleEmail: null,
  minimumPayout: '50.00',
  notes: null,
};
const ZERO = { bookingCount: 0, pendingAmount: '0.00', platformFee: '0.00', mentorNet: '0.00' };
const EARNINGS = {
  pending: { bookingCount: 2, pendingAmount: '100.00', platformFee: '15.00', mentorNet: '85.00' },
  nextPayout: ZERO,
  minimumPayout: '50.00',
  history: [{ id: 'p-0', mentorAmount: '42.50', paidAt: '2026-11-16T10:00:00Z', method: 'venmo' }],
};

const render = () =>
  renderWithProviders(<PayoutsTab />, { client: clientWithUser(testUser), path: '/mentor-dashboard' });

beforeEach(() => {
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('Payouts tab', { timeout: 20_000 }, () => {
  it('shows the earnings and refuses a PayPal method without an e-mail', async () => {
    const fetchMock = mockFetch({
      'GET /api/mentor/payout-preferences': () => jsonResponse(200, NONE),
      'GET /api/mentor/earnings': () => jsonResponse(200, EARNINGS),
    });
    render();
    expect(await screen.findByTestId('pending-payout')).toHaveTextContent('$85.00');
    expect(screen.getByText(/· Venmo/)).toBeInTheDocument();
    const user = userEvent.setup();
    expect(screen.getByLabelText('Minimum Payout (USD)')).toHaveValue(50);
    await user.selectOptions(screen.getByLabelText('Payout Method'), 'paypal');
    await user.click(screen.getByRole('button', { name: 'Save Payout Settings' }));
    expect(toast.error).toHaveBeenCalledWith('Validation Error', {
      description: 'Please enter your PayPal email address',
    });
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it('sends only the chosen method and toasts the success', async () => {
    const fetchMock = mockFetch({
      'GET /api/mentor/payout-preferences': () =>
        jsonResponse(200, { ...NONE, method: 'paypal', paypalEmail: 'old@pay.example' }),
      'GET /api/mentor/earnings': () => jsonResponse(200, EARNINGS),
      'POST /api/mentor/payout-preferences': (_url, init) =>
        jsonResponse(200, { ...NONE, ...JSON.parse(String(init?.body)) }),
    });
    render();
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Payout Method'), 'venmo');
    await user.type(screen.getByLabelText('Venmo Username'), '@luna');
    await user.click(screen.getByRole('button', { name: 'Save Payout Settings' }));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Payout settings saved', {
        description: 'Your payout preferences have been updated successfully.',
      }),
    );
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      method: 'venmo',
      venmoUsername: '@luna',
      minimumPayout: '50.00',
    });
  });

  it("toasts 'Error' with the server's text", async () => {
    mockFetch({
      'GET /api/mentor/payout-preferences': () => jsonResponse(200, NONE),
      'GET /api/mentor/earnings': () => jsonResponse(200, EARNINGS),
      'POST /api/mentor/payout-preferences': () =>
        jsonResponse(400, { message: 'Please enter your Zelle email address' }),
    });
    render();
    const user = userEvent.setup();
    await user.selectOptions(await screen.findByLabelText('Payout Method'), 'zelle');
    await user.type(screen.getByLabelText('Zelle Email'), 'z@bank.example');
    await user.click(screen.getByRole('button', { name: 'Save Payout Settings' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Error', { description: 'Please enter your Zelle email address' }),
    );
  });
});

describe('payout settings rules', () => {
  const form = {
    method: 'zelle' as const,
    paypalEmail: 'a@b.co',
    venmoUsername: '@v',
    zelleEmail: ' z@b.co ',
    minimumPayout: '',
    notes: '',
  };
  it('defaults the minimum to 50.00 and keeps one method', () => {
    expect(payoutRequest(form)).toEqual({ method: 'zelle', zelleEmail: 'z@b.co', minimumPayout: '50.00' });
  });
  it('checks the minimum and the method', () => {
    expect(validatePayoutForm({ ...form, minimumPayout: '-1' })).toMatch(/non-negative/);
    expect(validatePayoutForm({ ...form, minimumPayout: '1.234' })).toMatch(/non-negative/);
    expect(validatePayoutForm({ ...form, minimumPayout: '12.5' })).toBeNull();
    expect(validatePayoutForm({ ...form, method: 'venmo', venmoUsername: ' ' })).toBe(
      'Please enter your Venmo username',
    );
    expect(validatePayoutForm({ ...form, method: '' })).toBe('Please choose a payout method');
  });
});

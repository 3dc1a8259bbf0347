import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { AdminPayoutsPage, NO_DESTINATION_WARNING } from './admin-payouts-page';
import { fromCents, payoutSummary, toCents } from './payouts-api';

vi.mock('sonner', () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }));

const admin = { ...testUser, isAdmin: true, role: 'admin' as const };

const payout = (over: Record<string, unknown> = {}) => ({
  id: 'p-1',
  mentorId: 'm-1',
  mentor: { displayName: 'Luna Starweaver', user: { firstName: 'Luna', lastName: 'Star', email: 'luna@example.com' } },
  bookingIds: ['b-1', 'b-2'],
  bookingCount: 2,
  pendingAmount: '100.00',
  platformFee: '15.00',
  mentorNet: '85.00',
  payoutPreferences: { method: 'paypal', paypalEmail: 'luna@pay.example', venmoUsername: null, zelleEmail: null },
  createdAt: '2026-11-23T06:00:00Z',
  ...over,
});

const render = (user: typeof testUser = admin) =>
  renderWithProviders(<AdminPayoutsPage />, { client: clientWithUser(user), path: '/admin/payouts' });

beforeEach(() => {
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('/admin/payouts', { timeout: 20_000 }, () => {
  it('tells a non-admin they have no access, and asks nothing of the server', async () => {
    const fetchMock = mockFetch({});
    render(testUser);
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText("You don't have permission to access admin payouts.")).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/admin'))).toBe(false);
  });

  it('says which mentors wait for a later batch because their payout method changed', async () => {
    mockFetch({
      'GET /api/admin/payouts/pending': () => jsonResponse(200, []),
      'GET /api/admin/payouts/history': () => jsonResponse(200, []),
      'GET /api/admin/payouts/held': () =>
        jsonResponse(200, [
          {
            mentorId: 'm-9',
            mentor: { displayName: 'Nova' },
            destinationChangedAt: '2026-11-24T10:00:00Z',
            heldUntil: '2026-11-27T10:00:00Z',
          },
        ]),
    });
    render();
    expect(await screen.findByRole('heading', { name: 'Waiting for a later batch (1)' })).toBeInTheDocument();
    expect(screen.getByText('Nova')).toBeInTheDocument();
    expect(screen.getByText(/Payout method changed .*72 hours after a change/)).toBeInTheDocument();
  });

  it('shows the summary, the pending cards with copy, and the warning without preferences', async () => {
    mockFetch({
      'GET /api/admin/payouts/pending': () =>
        jsonResponse(200, [
          payout(),
          payout({
            id: 'p-2',
            mentorId: 'm-2',
            mentorNet: '0.10',
            bookingCount: 1,
            payoutPreferences: null,
            mentor: { displayName: 'Sol', user: { firstName: 'S', lastName: 'O', email: 's@example.com' } },
          }),
        ]),
      'GET /api/admin/payouts/history': () => jsonResponse(200, []),
    });
    const user = userEvent.setup();
    render();
    expect(await screen.findByRole('tab', { name: 'Pending Payouts (2)' })).toBeInTheDocument();
    expect(screen.getByText('$85.10')).toBeInTheDocument();
    expect(screen.getByText('Across 2 mentors')).toBeInTheDocument();
    expect(screen.getByText('Ready for payout')).toBeInTheDocument();
    expect(screen.getByText('Unpaid bookings')).toBeInTheDocument();
    const luna = screen.getByRole('article', { name: 'Payout for Luna Starweaver' });
    expect(within(luna).getByText('Luna Star · luna@example.com')).toBeInTheDocument();
    expect(within(luna).getByText('−$15.00')).toBeInTheDocument();
    await user.click(within(luna).getByRole('button', { name: 'Copy luna@pay.example' }));
    expect(await within(luna).findByText('Copied!')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('luna@pay.example');
    const sol = screen.getByRole('article', { name: 'Payout for Sol' });
    expect(within(sol).getByText('This mentor has not set payout preferences yet.')).toBeInTheDocument();
    expect(within(sol).getByRole('button', { name: 'Mark as Paid' })).toBeDisabled();
    expect(screen.getByRole('link', { name: /Export CSV/ })).toHaveAttribute(
      'href',
      '/api/admin/payouts/export?status=pending',
    );
  });

  it("disables 'Mark as Paid' with the reason when there is nothing to pay into, and counts 1 mentor", async () => {
    mockFetch({
      'GET /api/admin/payouts/pending': () =>
        jsonResponse(200, [
          payout({
            payoutPreferences: { method: 'manual', paypalEmail: null, venmoUsername: null, zelleEmail: null },
          }),
        ]),
      'GET /api/admin/payouts/history': () => jsonResponse(200, []),
    });
    render();
    const luna = await screen.findByRole('article', { name: 'Payout for Luna Starweaver' });
    expect(screen.getByText('Across 1 mentor')).toBeInTheDocument();
    const button = within(luna).getByRole('button', { name: 'Mark as Paid' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(NO_DESTINATION_WARNING);
  });

  it('marks a payout paid after the confirmation, and shows the server refusal', async () => {
    let pending = [payout()];
    let history: unknown[] = [];
    const fetchMock = mockFetch({
      'GET /api/admin/payouts/pending': () => jsonResponse(200, pending),
      'GET /api/admin/payouts/history': () => jsonResponse(200, history),
      'POST /api/admin/payouts/mark-paid': () => {
        pending = [];
        history = [
          {
            id: 'p-1',
            mentor: { displayName: 'Luna Starweaver' },
            method: 'paypal',
            recipientInfo: 'luna@pay.example',
            mentorAmount: '85.00',
            paidAt: '2026-11-23T10:00:00Z',
            createdAt: '2026-11-23T06:00:00Z',
          },
        ];
        return jsonResponse(200, { message: 'Payout marked as paid' });
      },
    });
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Mark as Paid' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Payout' });
    expect(
      within(dialog).getByText('Please confirm that you have sent the payment to this mentor.'),
    ).toBeInTheDocument();
    await user.type(within(dialog).getByPlaceholderText('Transaction ID or confirmation number'), 'TX-1');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Payment Sent' }));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Payout processed', { description: 'Payout marked as paid' }),
    );
    const sent = fetchMock.mock.calls.find(
      ([url, init]) => url === '/api/admin/payouts/mark-paid' && init?.method === 'POST',
    );
    expect(JSON.parse(String(sent?.[1]?.body))).toEqual({
      mentorId: 'm-1',
      bookingIds: ['b-1', 'b-2'],
      method: 'paypal',
      recipientInfo: 'luna@pay.example',
      notes: 'TX-1',
    });
    expect(await screen.findByRole('heading', { name: 'No pending payouts at this time' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Payout History' }));
    expect(await screen.findByRole('cell', { name: 'Luna Starweaver' })).toBeInTheDocument();
  });

  it("toasts 'Error' with the server's message on a refusal", async () => {
    mockFetch({
      'GET /api/admin/payouts/pending': () => jsonResponse(200, [payout()]),
      'GET /api/admin/payouts/history': () => jsonResponse(200, []),
      'POST /api/admin/payouts/mark-paid': () =>
        jsonResponse(409, { message: 'This payout has already been marked as paid' }),
    });
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Mark as Paid' }));
    await user.click(await screen.findByRole('button', { name: 'Confirm Payment Sent' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Error', { description: 'This payout has already been marked as paid' }),
    );
  });

  it('runs the batch now and says it is queued', async () => {
    mockFetch({
      'GET /api/admin/payouts/pending': () => jsonResponse(200, []),
      'GET /api/admin/payouts/history': () => jsonResponse(200, []),
      'POST /api/admin/payouts/run': () => jsonResponse(202, { message: 'Payout batch queued' }),
    });
    render();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Run payout batch now' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Payout batch queued', expect.anything()));
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Payout History' }));
    expect(await screen.findByRole('heading', { name: 'No payout history yet' })).toBeInTheDocument();
  });
});

describe('payout sums', () => {
  it('adds in cents', () => {
    expect(toCents('0.10') + toCents('0.20')).toBe(30);
    expect(fromCents(toCents('85.00') + toCents('0.10'))).toBe('85.10');
    expect(fromCents(5)).toBe('0.05');
    expect(payoutSummary([])).toEqual({ totalPending: '0.00', mentors: 0, bookings: 0 });
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { AvailabilitySlotView, BookingView, DateOverrideView, MentorStatsView } from '@/api/model';
import { formatDate, formatTime } from '@/lib/format';
import { mentor, MENTOR_ID } from '@/testing/catalogue-fixtures';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { MentorDashboardPage } from './mentor-dashboard-page';

let success: MockInstance;
let error: MockInstance;

beforeEach(() => {
  // Radix's Switch measures itself; jsdom has no ResizeObserver.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  success = vi.spyOn(toast, 'success').mockImplementation(() => 1);
  error = vi.spyOn(toast, 'error').mockImplementation(() => 1);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const MINUTE = 60_000;
const SEEKER_ID = '7a7a7a7a-1111-4222-8333-944444444444';

function booking(overrides: Partial<BookingView> = {}): BookingView {
  return {
    id: 'b-pending',
    status: 'pending',
    scheduledAt: new Date(Date.now() + 3 * 24 * 60 * MINUTE).toISOString(),
    duration: 60,
    totalAmount: '45.00',
    notes: 'First time with tarot, a little nervous.',
    createdAt: '2026-01-01T00:00:00Z',
    service: { id: 's-1', title: 'Tarot Insight Reading', duration: 60, serviceType: 'tarot' },
    user: { id: SEEKER_ID, firstName: 'Orion', lastName: 'Seeker' },
    mentor: { id: MENTOR_ID, userId: 'u-m', displayName: 'Luna Starweaver' },
    ...overrides,
  } as BookingView;
}

const STATS: MentorStatsView = {
  totalSessions: 7,
  thisMonth: 3,
  totalEarnings: '120.00',
  platformFeePercent: 15,
  platformFee: '18.00',
  netEarnings: '102.00',
  rating: '4.50',
  reviewCount: 2,
};

type Handlers = Parameters<typeof mockFetch>[0];

function setup(handlers: Handlers = {}) {
  const fetchMock = mockFetch({
    'GET /api/mentor/profile': () => jsonResponse(200, mentor()),
    'GET /api/mentor/stats': () => jsonResponse(200, STATS),
    'GET /api/mentor/bookings': () => jsonResponse(200, []),
    'GET /api/mentor/availability': () => jsonResponse(200, []),
    'GET /api/mentor/availability/overrides': () => jsonResponse(200, []),
    ...handlers,
  });
  renderWithProviders(<MentorDashboardPage />, { client: clientWithUser(testUser), path: '/mentor-dashboard' });
  return fetchMock;
}

const calls = (fetchMock: ReturnType<typeof mockFetch>, method: string, path: string) =>
  fetchMock.mock.calls.filter(
    ([url, init]) => url === path && ((init as RequestInit | undefined)?.method ?? 'GET') === method,
  );
const bodies = (fetchMock: ReturnType<typeof mockFetch>, method: string, path: string) =>
  calls(fetchMock, method, path).map(([, init]) => JSON.parse(String((init as RequestInit).body)));

/** The value shown under a summary card's label. */
function cardValue(label: string): HTMLElement {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling as HTMLElement;
}

describe('summary cards and the earnings card', () => {
  it('shows the four figures from GET /api/mentor/stats and the earnings after the 15% fee', async () => {
    setup();
    await waitFor(() => expect(cardValue('Total Sessions')).toHaveTextContent('7'));
    expect(cardValue('This Month')).toHaveTextContent('3');
    expect(cardValue('Total Earnings')).toHaveTextContent('$120.00');
    expect(cardValue('Rating')).toHaveTextContent('4.5');
    expect(cardValue('Rating')).toHaveTextContent('2 reviews');

    const earnings = screen.getByRole('region', { name: 'Earnings' });
    expect(within(earnings).getByText('Total earnings').nextElementSibling).toHaveTextContent('$120.00');
    expect(within(earnings).getByText('Platform fee (15%)').nextElementSibling).toHaveTextContent('−$18.00');
    expect(within(earnings).getByText('Your net earnings').nextElementSibling).toHaveTextContent('$102.00');
  });

  it("shows the server's fee and net as they are, without working them out again", async () => {
    // The server takes the fee per booking (0.38 on each of two 2.50 sessions): 15% of the total would be 6.75.
    setup({
      'GET /api/mentor/stats': () =>
        jsonResponse(200, {
          ...STATS,
          totalEarnings: '45.00',
          platformFeePercent: 15,
          platformFee: '6.76',
          netEarnings: '38.24',
        }),
    });
    const earnings = await screen.findByRole('region', { name: 'Earnings' });
    await waitFor(() =>
      expect(within(earnings).getByText('Total earnings').nextElementSibling).toHaveTextContent('$45.00'),
    );
    expect(within(earnings).getByText('Platform fee (15%)').nextElementSibling).toHaveTextContent('−$6.76');
    expect(within(earnings).getByText('Your net earnings').nextElementSibling).toHaveTextContent('$38.24');
  });

  it('shows no minus sign on a fee of nothing', async () => {
    setup({
      'GET /api/mentor/stats': () =>
        jsonResponse(200, { ...STATS, totalEarnings: '0.00', platformFee: '0.00', netEarnings: '0.00' }),
    });
    const earnings = await screen.findByRole('region', { name: 'Earnings' });
    await waitFor(() =>
      expect(within(earnings).getByText('Platform fee (15%)').nextElementSibling).toHaveTextContent(/^\$0\.00$/),
    );
  });

  it("shows 'New' for a mentor without reviews", async () => {
    setup({ 'GET /api/mentor/stats': () => jsonResponse(200, { ...STATS, rating: '0.00', reviewCount: 0 }) });
    await waitFor(() => expect(cardValue('Rating')).toHaveTextContent('New'));
    expect(cardValue('Rating')).toHaveTextContent('No reviews yet');
  });

  it('shows dashes when the figures cannot be loaded', async () => {
    setup({ 'GET /api/mentor/stats': () => jsonResponse(500, { message: 'boom' }) });
    await waitFor(() => expect(cardValue('Total Earnings')).toHaveTextContent('—'));
    expect(cardValue('Total Sessions')).toHaveTextContent('Unavailable right now');
    expect(screen.getByText('Earnings are unavailable right now.')).toBeInTheDocument();
  });
});

describe('Bookings tab', { timeout: 20_000 }, () => {
  it("shows 'No bookings yet'", async () => {
    setup();
    expect(await screen.findByRole('heading', { name: 'No bookings yet' })).toBeInTheDocument();
  });

  it("shows 'Failed to fetch bookings' when the list fails", async () => {
    setup({ 'GET /api/mentor/bookings': () => jsonResponse(500, 'oops') });
    expect(await screen.findByRole('heading', { name: 'Failed to fetch bookings' })).toBeInTheDocument();
  });

  it('cards show client, service, date, time, duration, total, status and notes, with the allowed actions', async () => {
    const soon = new Date(Date.now() + 5 * MINUTE).toISOString();
    const pending = booking();
    const live = booking({
      id: 'b-live',
      status: 'confirmed',
      scheduledAt: soon,
      notes: undefined,
      totalAmount: '0.00',
    });
    const later = booking({
      id: 'b-later',
      status: 'confirmed',
      user: { id: 'u-2', firstName: 'Vega', lastName: 'Star' },
    });
    const done = booking({ id: 'b-done', status: 'completed', scheduledAt: '2026-01-10T15:00:00Z' });
    const gone = booking({ id: 'b-gone', status: 'cancelled', scheduledAt: '2026-01-09T15:00:00Z' });
    setup({ 'GET /api/mentor/bookings': () => jsonResponse(200, [pending, later, live, done, gone]) });

    const list = await screen.findByRole('list', { name: 'Bookings' });
    const cards = within(list).getAllByRole('article');
    expect(cards).toHaveLength(5);

    const p = screen.getByRole('article', {
      name: `Orion Seeker, Tarot Insight Reading, ${formatDate(pending.scheduledAt)} at ${formatTime(pending.scheduledAt)}`,
    });
    expect(within(p).getByRole('heading', { name: 'Orion Seeker' })).toBeInTheDocument();
    expect(within(p).getByText('Tarot Insight Reading')).toBeInTheDocument();
    expect(within(p).getByText(formatDate(pending.scheduledAt))).toBeInTheDocument();
    expect(within(p).getByText(formatTime(pending.scheduledAt))).toBeInTheDocument();
    expect(formatDate(pending.scheduledAt)).toMatch(/^[A-Z][a-z]{2} \d{2}, \d{4}$/);
    expect(formatTime(pending.scheduledAt)).toMatch(/^\d{1,2}:\d{2} (AM|PM)$/);
    expect(within(p).getByText('60 minutes')).toBeInTheDocument();
    expect(within(p).getByText('$45.00')).toBeInTheDocument();
    expect(within(p).getByText('Pending')).toBeInTheDocument();
    expect(within(p).getByText('First time with tarot, a little nervous.')).toBeInTheDocument();
    expect(within(p).getByRole('button', { name: 'Confirm' })).toBeInTheDocument();
    expect(within(p).getByRole('button', { name: 'Cancel Booking' })).toBeInTheDocument();
    expect(within(p).queryByRole('button', { name: 'Mark Complete' })).not.toBeInTheDocument();
    expect(within(p).queryByRole('link', { name: 'Start Video Session' })).not.toBeInTheDocument();
    expect(within(p).getByRole('link', { name: 'Message Client' })).toHaveAttribute(
      'href',
      `/messages?user=${SEEKER_ID}&booking=b-pending`,
    );

    // Upcoming soonest first (live, then the two three days ahead), then past newest first, then cancelled.
    const [liveCard, , laterCard, doneCard, goneCard] = cards;
    // Confirmed, in the video window (starts in 5 minutes): Start Video Session; Mark Complete only once it has ended.
    expect(within(liveCard).getByText('Confirmed')).toBeInTheDocument();
    expect(within(liveCard).getByText('Free')).toBeInTheDocument();
    expect(within(liveCard).queryByRole('button', { name: 'Mark Complete' })).not.toBeInTheDocument();
    expect(within(liveCard).getByRole('link', { name: 'Start Video Session' })).toHaveAttribute(
      'href',
      `/messages?user=${SEEKER_ID}&booking=b-live&startCall=true`,
    );
    expect(within(liveCard).queryByRole('button', { name: 'Confirm' })).not.toBeInTheDocument();
    // Confirmed, three days ahead: no video yet, and the mentor can still cancel.
    expect(within(laterCard).getByRole('heading', { name: 'Vega Star' })).toBeInTheDocument();
    expect(within(laterCard).getByRole('button', { name: 'Cancel Booking' })).toBeInTheDocument();
    expect(within(laterCard).queryByRole('button', { name: 'Mark Complete' })).not.toBeInTheDocument();
    expect(within(laterCard).queryByRole('link', { name: 'Start Video Session' })).not.toBeInTheDocument();
    expect(within(laterCard).getByRole('link', { name: 'Message Client' })).toHaveAttribute(
      'href',
      '/messages?user=u-2&booking=b-later',
    );
    // Completed and cancelled: no status actions.
    for (const [card, label] of [
      [doneCard, 'Completed'],
      [goneCard, 'Cancelled'],
    ] as const) {
      expect(within(card).getByText(label)).toBeInTheDocument();
      expect(within(card).queryByRole('button', { name: /Confirm|Cancel|Mark Complete/ })).not.toBeInTheDocument();
      expect(within(card).queryByRole('link', { name: 'Start Video Session' })).not.toBeInTheDocument();
      expect(within(card).getByRole('link', { name: 'Message Client' })).toBeInTheDocument();
    }
  });

  it('sorts upcoming soonest first, then past newest first, and filters Upcoming / Past / Cancelled', async () => {
    const hours = (h: number) => new Date(Date.now() + h * 60 * MINUTE).toISOString();
    const list = [
      booking({
        id: 'b-past-old',
        status: 'completed',
        scheduledAt: hours(-72),
        user: { id: 'u-1', firstName: 'Old', lastName: 'Past' },
      }),
      booking({
        id: 'b-up-late',
        status: 'confirmed',
        scheduledAt: hours(48),
        user: { id: 'u-2', firstName: 'Late', lastName: 'Upcoming' },
      }),
      booking({
        id: 'b-cancel',
        status: 'cancelled',
        scheduledAt: hours(24),
        user: { id: 'u-3', firstName: 'Gone', lastName: 'Cancelled' },
      }),
      booking({
        id: 'b-past-new',
        status: 'confirmed',
        scheduledAt: hours(-5),
        user: { id: 'u-4', firstName: 'New', lastName: 'Past' },
      }),
      booking({
        id: 'b-up-soon',
        status: 'pending',
        scheduledAt: hours(3),
        user: { id: 'u-5', firstName: 'Soon', lastName: 'Upcoming' },
      }),
    ];
    setup({ 'GET /api/mentor/bookings': () => jsonResponse(200, list) });
    const names = () =>
      within(screen.getByRole('list', { name: 'Bookings' }))
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent);

    await screen.findByRole('list', { name: 'Bookings' });
    expect(names()).toEqual(['Soon Upcoming', 'Late Upcoming', 'New Past', 'Old Past', 'Gone Cancelled']);
    const filters = screen.getByRole('group', { name: 'Show bookings' });
    expect(within(filters).getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(within(filters).getByRole('button', { name: 'Upcoming' }));
    expect(within(filters).getByRole('button', { name: 'Upcoming' })).toHaveAttribute('aria-pressed', 'true');
    expect(names()).toEqual(['Soon Upcoming', 'Late Upcoming']);

    await userEvent.click(within(filters).getByRole('button', { name: 'Past' }));
    expect(names()).toEqual(['New Past', 'Old Past']);

    await userEvent.click(within(filters).getByRole('button', { name: 'Cancelled' }));
    expect(names()).toEqual(['Gone Cancelled']);
  });

  it('says so when a filter has nothing to show', async () => {
    setup({ 'GET /api/mentor/bookings': () => jsonResponse(200, [booking()]) });
    const filters = await screen.findByRole('group', { name: 'Show bookings' });
    await userEvent.click(within(filters).getByRole('button', { name: 'Cancelled' }));
    expect(screen.getByRole('status')).toHaveTextContent('No cancelled bookings');
    expect(screen.queryByRole('list', { name: 'Bookings' })).not.toBeInTheDocument();
  });

  it('Confirm, Mark Complete and Cancel send the status and refresh the list and the figures', async () => {
    const ended = new Date(Date.now() - 2 * 60 * MINUTE).toISOString();
    let list = [booking(), booking({ id: 'b-conf', status: 'confirmed', scheduledAt: ended })];
    const fetchMock = setup({
      'GET /api/mentor/bookings': () => jsonResponse(200, list),
      'PUT /api/mentor/bookings/b-pending': (_url, init) => {
        const { status } = JSON.parse(String(init?.body));
        list = list.map((b) => (b.id === 'b-pending' ? { ...b, status } : b));
        return jsonResponse(200, list[0]);
      },
      'PUT /api/mentor/bookings/b-conf': () => {
        list = list.map((b) => (b.id === 'b-conf' ? { ...b, status: 'completed' } : b));
        return jsonResponse(200, list[1]);
      },
    });
    const user = userEvent.setup();
    const cards = await screen.findAllByRole('article');
    const statsBefore = calls(fetchMock, 'GET', '/api/mentor/stats').length;
    const listBefore = calls(fetchMock, 'GET', '/api/mentor/bookings').length;

    await user.click(within(cards[0]).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(within(screen.getAllByRole('article')[0]).getByText('Confirmed')).toBeInTheDocument());
    expect(success).toHaveBeenCalledWith('Booking confirmed');
    expect(calls(fetchMock, 'GET', '/api/mentor/stats').length).toBeGreaterThan(statsBefore);
    expect(calls(fetchMock, 'GET', '/api/mentor/bookings').length).toBeGreaterThan(listBefore);

    await user.click(within(screen.getAllByRole('article')[1]).getByRole('button', { name: 'Mark Complete' }));
    await waitFor(() => expect(within(screen.getAllByRole('article')[1]).getByText('Completed')).toBeInTheDocument());
    expect(success).toHaveBeenCalledWith('Session marked complete');
    expect(bodies(fetchMock, 'PUT', '/api/mentor/bookings/b-pending')).toEqual([{ status: 'confirmed' }]);
    expect(bodies(fetchMock, 'PUT', '/api/mentor/bookings/b-conf')).toEqual([{ status: 'completed' }]);
  });

  it('Cancel Booking asks first, takes an optional reason, then cancels a confirmed booking', async () => {
    let list = [booking({ status: 'confirmed' })];
    const fetchMock = setup({
      'GET /api/mentor/bookings': () => jsonResponse(200, list),
      'POST /api/mentor/bookings/b-pending/cancel': () => {
        list = [{ ...list[0], status: 'cancelled' }];
        return jsonResponse(200, list[0]);
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel Booking' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel Booking' });
    expect(within(dialog).getByText('The seeker is refunded in full. This cannot be undone.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Reason (optional)')).toHaveAttribute('maxlength', '500');
    await user.click(within(dialog).getByRole('button', { name: 'Keep Booking' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls(fetchMock, 'POST', '/api/mentor/bookings/b-pending/cancel')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Cancel Booking' }));
    const again = screen.getByRole('dialog', { name: 'Cancel Booking' });
    await user.type(within(again).getByLabelText('Reason (optional)'), '  I am unwell ');
    await user.click(within(again).getByRole('button', { name: 'Cancel Booking' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies(fetchMock, 'POST', '/api/mentor/bookings/b-pending/cancel')).toEqual([{ reason: 'I am unwell' }]);
    expect(calls(fetchMock, 'PUT', '/api/mentor/bookings/b-pending')).toHaveLength(0);
    const bookingsList = screen.getByRole('list', { name: 'Bookings' });
    expect(await within(bookingsList).findByText('Cancelled')).toBeInTheDocument();
    expect(success).toHaveBeenCalledWith('Booking cancelled');
  });

  it("a refused cancellation toasts 'Failed to update booking' with the server's reason", async () => {
    setup({
      'GET /api/mentor/bookings': () => jsonResponse(200, [booking()]),
      'POST /api/mentor/bookings/b-pending/cancel': () =>
        jsonResponse(409, { message: 'This session has already started and can no longer be cancelled' }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel Booking' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Cancel Booking' })).getByRole('button', { name: 'Cancel Booking' }),
    );
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Failed to update booking', {
        description: 'This session has already started and can no longer be cancelled',
      }),
    );
  });

  it("toasts 'Failed to update booking' with the server's reason", async () => {
    setup({
      'GET /api/mentor/bookings': () =>
        jsonResponse(200, [
          booking({ status: 'confirmed', scheduledAt: new Date(Date.now() - 2 * 60 * MINUTE).toISOString() }),
        ]),
      'PUT /api/mentor/bookings/b-pending': () =>
        jsonResponse(409, { message: 'A cancelled booking cannot become completed' }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Mark Complete' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Failed to update booking', {
        description: 'A cancelled booking cannot become completed',
      }),
    );
  });
});

function slot(overrides: Partial<AvailabilitySlotView> = {}): AvailabilitySlotView {
  return { id: 'a-mon', dayOfWeek: 1, startTime: '09:00', endTime: '17:00', isActive: true, ...overrides };
}

async function openAvailability() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('tab', { name: 'Availability' }));
  return user;
}

describe('Availability tab', { timeout: 30_000 }, () => {
  it("shows 'No availability set' and the quick tips with the mentor's time zone", async () => {
    setup();
    await openAvailability();
    expect(await screen.findByRole('heading', { name: 'No availability set' })).toBeInTheDocument();
    const tips = screen.getByRole('complementary', { name: 'Quick Tips' });
    expect(tips).toHaveTextContent('Europe / London');
    expect(tips).toHaveTextContent('every 30 minutes');
    expect(tips).toHaveTextContent('up to 90 days ahead');
  });

  it("shows 'Failed to fetch availability' when the list fails", async () => {
    setup({ 'GET /api/mentor/availability': () => jsonResponse(500, 'oops') });
    await openAvailability();
    expect(await screen.findByRole('heading', { name: 'Failed to fetch availability' })).toBeInTheDocument();
  });

  it("lists Sunday to Saturday, 'Not available' for empty days, Active or Inactive per slot", async () => {
    setup({
      'GET /api/mentor/availability': () =>
        jsonResponse(200, [
          slot(),
          slot({ id: 'a-mon2', startTime: '18:00', endTime: '24:00', isActive: false }),
          slot({ id: 'a-sat', dayOfWeek: 6, startTime: '10:30', endTime: '12:00' }),
        ]),
    });
    await openAvailability();
    const days = await screen.findByRole('list', { name: 'Availability by day' });
    const headings = within(days)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent);
    expect(headings).toEqual(['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']);
    expect(within(days).getAllByText('Not available')).toHaveLength(5);
    const monday = within(days).getByRole('list', { name: 'Monday' });
    expect(within(monday).getByText('9:00 AM – 5:00 PM')).toBeInTheDocument();
    expect(within(monday).getByText('6:00 PM – 12:00 AM (midnight)')).toBeInTheDocument();
    expect(within(monday).getByText('Active')).toBeInTheDocument();
    expect(within(monday).getByText('Inactive')).toBeInTheDocument();
    expect(within(monday).getByRole('switch', { name: 'Active: Monday 9:00 AM to 5:00 PM' })).toBeChecked();
    expect(
      within(monday).getByRole('switch', { name: 'Active: Monday 6:00 PM to 12:00 AM (midnight)' }),
    ).not.toBeChecked();
    expect(within(days).getByRole('list', { name: 'Saturday' })).toHaveTextContent('10:30 AM – 12:00 PM');
  });

  it('the switch sends isActive; delete asks first and sends DELETE', async () => {
    let slots = [slot()];
    const fetchMock = setup({
      'GET /api/mentor/availability': () => jsonResponse(200, slots),
      'PUT /api/mentor/availability/a-mon': (_url, init) => {
        slots = [{ ...slots[0], ...JSON.parse(String(init?.body)) }];
        return jsonResponse(200, slots[0]);
      },
      'DELETE /api/mentor/availability/a-mon': () => {
        slots = [];
        return jsonResponse(200, { message: 'Availability deleted' });
      },
    });
    const user = await openAvailability();
    await user.click(await screen.findByRole('switch', { name: 'Active: Monday 9:00 AM to 5:00 PM' }));
    await waitFor(() => expect(screen.getByText('Inactive')).toBeInTheDocument());
    expect(bodies(fetchMock, 'PUT', '/api/mentor/availability/a-mon')).toEqual([{ isActive: false }]);

    await user.click(screen.getByRole('button', { name: 'Delete Monday 9:00 AM to 5:00 PM' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Availability' });
    expect(within(dialog).getByText('Are you sure you want to delete this availability slot?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls(fetchMock, 'DELETE', '/api/mentor/availability/a-mon')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Monday 9:00 AM to 5:00 PM' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Availability' })).getByRole('button', { name: 'Delete' }),
    );
    expect(await screen.findByRole('heading', { name: 'No availability set' })).toBeInTheDocument();
    expect(calls(fetchMock, 'DELETE', '/api/mentor/availability/a-mon')).toHaveLength(1);
    expect(success).toHaveBeenCalledWith('Availability deleted');
  });

  it("toasts 'Failed to delete availability' and 'Failed to save availability'", async () => {
    setup({
      'GET /api/mentor/availability': () => jsonResponse(200, [slot()]),
      'PUT /api/mentor/availability/a-mon': () => jsonResponse(500, 'oops'),
      'DELETE /api/mentor/availability/a-mon': () => jsonResponse(500, 'oops'),
    });
    const user = await openAvailability();
    await user.click(await screen.findByRole('switch', { name: 'Active: Monday 9:00 AM to 5:00 PM' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to save availability', expect.anything()));
    await user.click(screen.getByRole('button', { name: 'Delete Monday 9:00 AM to 5:00 PM' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Availability' })).getByRole('button', { name: 'Delete' }),
    );
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to delete availability', expect.anything()));
  });

  it('Add Availability: 48 half-hour times, required fields, end after start, then POST', async () => {
    let slots: AvailabilitySlotView[] = [];
    const fetchMock = setup({
      'GET /api/mentor/availability': () => jsonResponse(200, slots),
      'POST /api/mentor/availability': (_url, init) => {
        const created = slot({ id: 'a-new', ...JSON.parse(String(init?.body)) });
        slots = [created];
        return jsonResponse(201, created);
      },
    });
    const user = await openAvailability();
    await user.click(await screen.findByRole('button', { name: 'Add Availability' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Availability' });
    const start = within(dialog).getByLabelText('Start Time');
    const end = within(dialog).getByLabelText('End Time');
    // A disabled placeholder plus 48 times; the end also offers midnight.
    expect(
      within(start)
        .getAllByRole('option')
        .filter((o) => !(o as HTMLOptionElement).disabled),
    ).toHaveLength(48);
    expect(
      within(end)
        .getAllByRole('option')
        .filter((o) => !(o as HTMLOptionElement).disabled),
    ).toHaveLength(49);
    expect(within(end).getByRole('option', { name: '12:00 AM (midnight)' })).toHaveValue('24:00');
    expect(within(start).getByRole('option', { name: '1:30 PM' })).toHaveValue('13:30');

    await user.click(within(dialog).getByRole('button', { name: 'Save Availability' }));
    expect(within(dialog).getByText('Please select a day')).toBeInTheDocument();
    expect(within(dialog).getByText('Please select a start time')).toBeInTheDocument();
    expect(within(dialog).getByText('Please select an end time')).toBeInTheDocument();

    await user.selectOptions(within(dialog).getByLabelText('Day of Week'), 'Monday');
    await user.selectOptions(start, '10:00 AM');
    await user.selectOptions(end, '9:00 AM');
    await user.click(within(dialog).getByRole('button', { name: 'Save Availability' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('End time must be after start time');
    await user.selectOptions(end, '10:00 AM');
    await user.click(within(dialog).getByRole('button', { name: 'Save Availability' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('End time must be after start time');
    expect(calls(fetchMock, 'POST', '/api/mentor/availability')).toHaveLength(0);

    await user.selectOptions(end, '12:00 AM (midnight)');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save Availability' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies(fetchMock, 'POST', '/api/mentor/availability')).toEqual([
      { dayOfWeek: 1, startTime: '10:00', endTime: '24:00' },
    ]);
    expect(await screen.findByText('10:00 AM – 12:00 AM (midnight)')).toBeInTheDocument();
  });

  it("shows the server's message for an overlap (409)", async () => {
    setup({
      'GET /api/mentor/availability': () => jsonResponse(200, [slot()]),
      'POST /api/mentor/availability': () =>
        jsonResponse(409, { message: 'This time overlaps your availability on that day' }),
    });
    const user = await openAvailability();
    await user.click(await screen.findByRole('button', { name: 'Add Availability' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Availability' });
    await user.selectOptions(within(dialog).getByLabelText('Day of Week'), 'Monday');
    await user.selectOptions(within(dialog).getByLabelText('Start Time'), '4:00 PM');
    await user.selectOptions(within(dialog).getByLabelText('End Time'), '6:00 PM');
    await user.click(within(dialog).getByRole('button', { name: 'Save Availability' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This time overlaps your availability on that day',
    );
    expect(screen.getByRole('dialog', { name: 'Add Availability' })).toBeInTheDocument();
  });
});

describe('Availability for several days and date overrides', { timeout: 30_000 }, () => {
  it('adds one window on each chosen day in one call, and shows an overlap', async () => {
    let slots: AvailabilitySlotView[] = [];
    let refuse = true;
    const fetchMock = setup({
      'GET /api/mentor/availability': () => jsonResponse(200, slots),
      'POST /api/mentor/availability/bulk': (_url, init) => {
        if (refuse) return jsonResponse(409, { message: 'This time overlaps your availability on that day' });
        const body = JSON.parse(String(init?.body));
        slots = body.daysOfWeek.map((d: number) =>
          slot({ id: `a-${d}`, dayOfWeek: d, startTime: body.startTime, endTime: body.endTime }),
        );
        return jsonResponse(201, slots);
      },
    });
    const user = await openAvailability();
    await user.click(await screen.findByRole('button', { name: 'Add for Several Days' }));
    const dialog = screen.getByRole('dialog', { name: 'Add Availability for Several Days' });
    await user.click(within(dialog).getByRole('button', { name: 'Add to Selected Days' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please select at least one day');

    const days = within(dialog).getByRole('group', { name: 'Days' });
    await user.click(within(days).getByRole('checkbox', { name: 'Monday' }));
    await user.click(within(days).getByRole('checkbox', { name: 'Wednesday' }));
    await user.click(within(days).getByRole('checkbox', { name: 'Friday' }));
    await user.selectOptions(within(dialog).getByLabelText('From'), '6:00 PM');
    await user.selectOptions(within(dialog).getByLabelText('Until'), '9:00 PM');
    await user.click(within(dialog).getByRole('button', { name: 'Add to Selected Days' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'This time overlaps your availability on that day',
    );

    refuse = false;
    await user.click(within(days).getByRole('button', { name: 'Weekend' }));
    expect(within(days).getByRole('checkbox', { name: 'Monday' })).not.toBeChecked();
    expect(within(days).getByRole('checkbox', { name: 'Sunday' })).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Add to Selected Days' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies(fetchMock, 'POST', '/api/mentor/availability/bulk')).toEqual([
      { daysOfWeek: [1, 3, 5], startTime: '18:00', endTime: '21:00' },
      { daysOfWeek: [0, 6], startTime: '18:00', endTime: '21:00' },
    ]);
    expect(await screen.findAllByText('6:00 PM – 9:00 PM')).toHaveLength(2);
  });

  it('lists date overrides, says bookings are kept, adds a day off with extra hours and deletes one', async () => {
    const nextWeek = new Date(Date.now() + 7 * 24 * 60 * MINUTE).toISOString().slice(0, 10);
    let overrides: DateOverrideView[] = [
      { id: 'o-1', date: '2099-01-05', isDayOff: true, startTime: null, endTime: null },
    ];
    const fetchMock = setup({
      'GET /api/mentor/availability/overrides': () => jsonResponse(200, overrides),
      'POST /api/mentor/availability/overrides': (_url, init) => {
        const created = { id: 'o-2', startTime: null, endTime: null, ...JSON.parse(String(init?.body)) };
        overrides = [...overrides, created];
        return jsonResponse(201, created);
      },
      'DELETE /api/mentor/availability/overrides/o-1': () => {
        overrides = overrides.filter((o) => o.id !== 'o-1');
        return jsonResponse(200, { message: 'Date override deleted' });
      },
    });
    const user = await openAvailability();
    const list = await screen.findByRole('list', { name: 'Date overrides' });
    expect(within(list).getByText('Mon, Jan 5, 2099')).toBeInTheDocument();
    expect(within(list).getByText('Day off')).toBeInTheDocument();
    expect(screen.getByText(/An override never cancels bookings you already have on that date/)).toBeInTheDocument();

    const form = screen.getByRole('form', { name: 'Add a date override' });
    await user.click(within(form).getByRole('button', { name: 'Add Override' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Please choose a date');
    await user.type(within(form).getByLabelText('Date'), nextWeek);
    await user.click(within(form).getByRole('checkbox', { name: 'Extra hours' }));
    await user.selectOptions(within(form).getByLabelText('Extra from'), '6:00 PM');
    await user.selectOptions(within(form).getByLabelText('Extra until'), '8:00 PM');
    await user.click(within(form).getByRole('button', { name: 'Add Override' }));
    expect(await within(list).findByText('Day off, only 6:00 PM – 8:00 PM')).toBeInTheDocument();
    expect(bodies(fetchMock, 'POST', '/api/mentor/availability/overrides')).toEqual([
      { date: nextWeek, isDayOff: true, startTime: '18:00', endTime: '20:00' },
    ]);

    await user.click(within(list).getByRole('button', { name: 'Delete Mon, Jan 5, 2099: Day off' }));
    await waitFor(() => expect(within(list).queryByText('Mon, Jan 5, 2099')).not.toBeInTheDocument());
    expect(calls(fetchMock, 'DELETE', '/api/mentor/availability/overrides/o-1')).toHaveLength(1);
  });
});

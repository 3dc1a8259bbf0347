import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { format } from 'date-fns';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  BookingGroupSessionView,
  BookingView,
  ClientDashboard,
  EmailPreferencesView,
  GroupStatus,
} from '@/api/model';
import { isoDate } from '@/components/slot-picker';
import { formatDate, formatTime } from '@/lib/format';
import { browserTimeZone } from '@/lib/time-zones';
import { wallTimeToIso } from '@/lib/wall-time';
import { mentor } from '@/testing/catalogue-fixtures';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';

const { services: _services, ...mentorCard } = mentor();
import { bookingCardLabel } from './components/booking-card';
import DashboardPage, { initialTab } from './dashboard-page';

let success: ReturnType<typeof vi.spyOn>;
let error: ReturnType<typeof vi.spyOn>;
let info: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  success = vi.spyOn(toast, 'success').mockImplementation(() => 1);
  error = vi.spyOn(toast, 'error').mockImplementation(() => 1);
  info = vi.spyOn(toast, 'info').mockImplementation(() => 1);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MENTOR_ID = '0b7c9b52-4a7e-4f3b-9d55-1e2f3a4b5c6d';
const DASHBOARD = 'GET /api/user/dashboard';
const PREFERENCES = '/api/user/email-preferences';

function inFuture(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}

function booking(id: string, overrides: Partial<BookingView> = {}): BookingView {
  return {
    id,
    status: 'confirmed',
    scheduledAt: inFuture(3 * 24 * HOUR),
    duration: 60,
    totalAmount: '75.00',
    createdAt: '2025-01-01T00:00:00Z',
    hasReview: false,
    refunds: [],
    refundedAmount: '0.00',
    service: { id: 'svc-1', title: 'Birth Chart Reading', duration: 60, serviceType: 'astrology' },
    user: { id: testUser.id, firstName: 'Ada', lastName: 'Lovelace' },
    mentor: { id: MENTOR_ID, userId: 'mentor-user', displayName: 'Luna Starweaver' },
    ...overrides,
  };
}

function dashboard(bookings: BookingView[], overrides: Partial<ClientDashboard> = {}): ClientDashboard {
  return {
    user: testUser,
    bookings,
    stats: { totalSessions: bookings.length, upcomingSessions: 1, totalSpent: '1234.5' },
    ...overrides,
  };
}

function renderDashboard() {
  return renderWithProviders(<DashboardPage />, { client: clientWithUser(testUser), path: '/dashboard' });
}

function bodyOf(fetchMock: ReturnType<typeof mockFetch>, method: string, url: string): unknown {
  const call = fetchMock.mock.calls.find(([u, init]) => String(u) === url && init?.method === method);
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
}

function calls(fetchMock: ReturnType<typeof mockFetch>, method: string, url: string): number {
  return fetchMock.mock.calls.filter(([u, init]) => String(u) === url && (init?.method ?? 'GET') === method).length;
}

function card(b: BookingView) {
  return screen.getByRole('article', { name: bookingCardLabel(b) });
}

describe('DashboardPage: loading, failure and the empty state', () => {
  it("shows 'Failed to fetch dashboard data' when the load fails", async () => {
    mockFetch({ [DASHBOARD]: () => jsonResponse(500, { message: 'boom' }) });
    renderDashboard();
    expect(screen.getByLabelText('Loading your dashboard')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Failed to fetch dashboard data' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it("welcomes a seeker without bookings to the journey, with 'Seeker' for a missing first name", async () => {
    mockFetch({
      [DASHBOARD]: () =>
        jsonResponse(
          200,
          dashboard([], {
            user: { ...testUser, firstName: '' },
            stats: { totalSessions: 0, upcomingSessions: 0, totalSpent: '0.00' },
          }),
        ),
    });
    renderDashboard();
    expect(await screen.findByRole('heading', { name: 'Welcome back, Seeker!' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Welcome to Your Journey' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Find Mentors' })).toHaveAttribute('href', '/mentors');
    expect(screen.getByRole('link', { name: /Book New Session/ })).toHaveAttribute('href', '/mentors');
    // The empty upcoming list links to /mentors too.
    expect(screen.getByRole('link', { name: 'Browse Mentors' })).toHaveAttribute('href', '/mentors');
  });
});

describe('DashboardPage: header, figures, quick actions and lists', () => {
  it('shows the welcome line, the three figures and the quick actions', async () => {
    mockFetch({ [DASHBOARD]: () => jsonResponse(200, dashboard([booking('b1')])) });
    renderDashboard();
    expect(await screen.findByRole('heading', { name: 'Welcome back, Ada!' })).toBeInTheDocument();
    const figures = screen.getByLabelText('Your figures').textContent;
    expect(figures).toContain('Total Sessions1');
    expect(figures).toContain('Upcoming1');
    expect(figures).toContain('Total spent$1,234.50');
    expect(figures).not.toContain('Invested');
    const quick = screen.getByRole('navigation', { name: 'Quick actions' });
    expect(
      within(quick)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual([
      '/mentors',
      '/favorites',
      '/mentors?type=astrology',
      '/mentors?type=tarot',
      '/mentors?type=energy_healing',
    ]);
    const tabs = screen.getByRole('tablist', { name: 'My dashboard' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Upcoming Sessions', 'Session History', 'Profile', 'Email Preferences']);
    expect(within(tabs).getByRole('tab', { name: 'Upcoming Sessions' })).toHaveAttribute('aria-selected', 'true');
  });

  it('splits upcoming (pending or confirmed, not ended) from history (completed, cancelled or ended)', async () => {
    const future = booking('future', { notes: 'Focus on my career' });
    const pending = booking('pending', { status: 'pending', scheduledAt: inFuture(5 * 24 * HOUR) });
    const started = booking('started', { scheduledAt: inFuture(-10 * MINUTE), duration: 45 });
    const ended = booking('ended', { scheduledAt: inFuture(-2 * HOUR), duration: 60 });
    const completed = booking('done', { status: 'completed', scheduledAt: inFuture(-3 * 24 * HOUR) });
    const cancelled = booking('cancelled', { status: 'cancelled', scheduledAt: inFuture(7 * 24 * HOUR) });
    mockFetch({
      [DASHBOARD]: () => jsonResponse(200, dashboard([cancelled, pending, future, started, ended, completed])),
    });
    renderDashboard();
    const user = userEvent.setup();

    const upcoming = await screen.findByRole('list', { name: 'Upcoming sessions' });
    expect(
      within(upcoming)
        .getAllByRole('article')
        .map((a) => a.getAttribute('aria-label')),
    ).toEqual([bookingCardLabel(started), bookingCardLabel(future), bookingCardLabel(pending)]);
    // A confirmed session in progress stays under Upcoming, 'Happening now', with its video link
    // until start plus duration, and can no longer be moved or cancelled.
    const live = card(started);
    expect(live).toHaveTextContent('Happening now');
    expect(within(live).getByRole('link', { name: /Start Video Session/ })).toHaveAttribute(
      'href',
      `/messages?mentor=${MENTOR_ID}&booking=started&startCall=true`,
    );
    expect(within(live).queryByRole('button', { name: /Reschedule/ })).not.toBeInTheDocument();
    expect(within(live).queryByRole('button', { name: /^Cancel$/ })).not.toBeInTheDocument();
    const c = card(future);
    expect(c).not.toHaveTextContent('Happening now');
    expect(within(c).getByRole('heading', { name: 'Birth Chart Reading' })).toBeInTheDocument();
    expect(c).toHaveTextContent('with Luna Starweaver');
    expect(c).toHaveTextContent(format(new Date(future.scheduledAt), 'MMM dd, yyyy'));
    expect(c).toHaveTextContent(format(new Date(future.scheduledAt), 'h:mm a'));
    expect(c).toHaveTextContent('60 minutes');
    expect(c).toHaveTextContent('$75.00');
    expect(c).toHaveTextContent('Confirmed');
    expect(c).toHaveTextContent('Notes: Focus on my career');
    expect(within(c).getByText('LS')).toBeInTheDocument();
    expect(within(c).getByRole('link', { name: /View Mentor/ })).toHaveAttribute('href', `/mentor/${MENTOR_ID}`);
    expect(within(c).getByRole('link', { name: /Message/ })).toHaveAttribute(
      'href',
      `/messages?mentor=${MENTOR_ID}&booking=future`,
    );
    expect(within(c).getByRole('button', { name: /Reschedule/ })).toBeInTheDocument();
    expect(within(c).getByRole('button', { name: /Cancel/ })).toBeInTheDocument();
    // Three days ahead: no video yet.
    expect(within(c).queryByRole('link', { name: /Start Video Session/ })).not.toBeInTheDocument();
    expect(card(pending)).toHaveTextContent('Pending');

    await user.click(screen.getByRole('tab', { name: 'Session History' }));
    const history = screen.getByRole('list', { name: 'Session history' });
    expect(
      within(history)
        .getAllByRole('article')
        .map((a) => a.getAttribute('aria-label')),
    ).toEqual([bookingCardLabel(cancelled), bookingCardLabel(ended), bookingCardLabel(completed)]);
    for (const b of [cancelled, ended, completed]) {
      expect(within(card(b)).queryByRole('button', { name: /Reschedule/ })).not.toBeInTheDocument();
      expect(within(card(b)).queryByRole('button', { name: /^Cancel$/ })).not.toBeInTheDocument();
    }
    expect(within(card(ended)).queryByRole('link', { name: /Start Video Session/ })).not.toBeInTheDocument();
    expect(card(ended)).not.toHaveTextContent('Happening now');
  });

  it('keeps a live group seat under Upcoming, leading to its group call, which opens 15 minutes early', async () => {
    const group = (id: string, status: GroupStatus = 'scheduled'): BookingGroupSessionView => ({
      id,
      status,
      isUserRemoved: false,
      removalReason: null,
    });
    const seat = booking('seat', {
      scheduledAt: inFuture(-5 * MINUTE),
      duration: 60,
      groupSessionId: 'group-1',
      groupSession: group('group-1', 'active'),
      service: { id: 'svc-g', title: 'Full moon circle', duration: 60, serviceType: 'meditation' },
    });
    // Its call opens 15 minutes before the start (the waiting room): 10 minutes early it is open,
    // 20 minutes early not yet.
    const soon = booking('soon-seat', {
      scheduledAt: inFuture(10 * MINUTE),
      groupSessionId: 'group-2',
      groupSession: group('group-2'),
      service: { id: 'svc-g', title: 'New moon circle', duration: 60, serviceType: 'meditation' },
    });
    const later = booking('later-seat', {
      scheduledAt: inFuture(20 * MINUTE),
      groupSessionId: 'group-3',
      groupSession: group('group-3'),
      service: { id: 'svc-g', title: 'Half moon circle', duration: 60, serviceType: 'meditation' },
    });
    mockFetch({ [DASHBOARD]: () => jsonResponse(200, dashboard([seat, soon, later])) });
    renderDashboard();
    const upcoming = await screen.findByRole('list', { name: 'Upcoming sessions' });
    expect(within(card(soon)).getByRole('link', { name: /Join Video Call/ })).toHaveAttribute(
      'href',
      '/group-video-call/group-2',
    );
    expect(card(soon)).not.toHaveTextContent('Happening now');
    expect(within(card(later)).queryByRole('link', { name: /Join Video Call/ })).not.toBeInTheDocument();
    const c = within(upcoming).getByRole('article', { name: bookingCardLabel(seat) });
    expect(c).toHaveTextContent('Happening now');
    expect(within(c).getByRole('link', { name: /Join Video Call/ })).toHaveAttribute(
      'href',
      '/group-video-call/group-1',
    );
  });

  it('shows a seat whose session ended, or whose seeker was removed, as such: in History, with no way in', async () => {
    const seat = (id: string, groupSession: Omit<BookingGroupSessionView, 'id'>, over: Partial<BookingView> = {}) =>
      booking(id, {
        scheduledAt: inFuture(-5 * MINUTE),
        duration: 60,
        groupSessionId: `g-${id}`,
        groupSession: { id: `g-${id}`, ...groupSession },
        service: { id: 'svc-g', title: `Circle ${id}`, duration: 60, serviceType: 'meditation' },
        ...over,
      });
    const ended = seat('ended', { status: 'completed', isUserRemoved: false, removalReason: null });
    const conduct = seat('conduct', { status: 'active', isUserRemoved: true, removalReason: 'conduct' });
    const other = seat(
      'other',
      { status: 'active', isUserRemoved: true, removalReason: 'other' },
      { status: 'cancelled', refund: { percentage: 100, amount: '20.00', status: 'pending' } },
    );
    mockFetch({ [DASHBOARD]: () => jsonResponse(200, dashboard([ended, conduct, other])) });
    renderDashboard();
    await screen.findByRole('heading', { name: /Welcome/ });
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Session History' }));
    const history = await screen.findByRole('list', { name: 'Session history' });
    for (const b of [ended, conduct, other]) {
      const c = within(history).getByRole('article', { name: bookingCardLabel(b) });
      expect(within(c).queryByRole('link', { name: /Join Video Call/ })).not.toBeInTheDocument();
      expect(c).not.toHaveTextContent('Happening now');
      expect(c).not.toHaveTextContent('Confirmed');
    }
    const at = (b: typeof ended) => within(history).getByRole('article', { name: bookingCardLabel(b) });
    expect(at(ended)).toHaveTextContent('Session ended');
    expect(at(conduct)).toHaveTextContent('Removed from session');
    expect(at(conduct)).toHaveTextContent('for conduct, so your seat is not refunded');
    expect(at(other)).toHaveTextContent('Cancelled');
    expect(at(other)).toHaveTextContent('refunded in full');
    expect(at(other)).toHaveTextContent('Refund 100%: $20.00, on its way');
  });

  it('offers Start Video Session from 15 minutes before the start, only for a confirmed booking', async () => {
    const soon = booking('soon', { scheduledAt: inFuture(10 * MINUTE) });
    const later = booking('later', { scheduledAt: inFuture(20 * MINUTE) });
    const pendingSoon = booking('pending-soon', { status: 'pending', scheduledAt: inFuture(5 * MINUTE) });
    mockFetch({ [DASHBOARD]: () => jsonResponse(200, dashboard([soon, later, pendingSoon])) });
    renderDashboard();
    await screen.findByRole('list', { name: 'Upcoming sessions' });
    expect(within(card(soon)).getByRole('link', { name: /Start Video Session/ })).toBeInTheDocument();
    expect(within(card(later)).queryByRole('link', { name: /Start Video Session/ })).not.toBeInTheDocument();
    expect(within(card(pendingSoon)).queryByRole('link', { name: /Start Video Session/ })).not.toBeInTheDocument();
  });
});

describe('DashboardPage: reschedule', () => {
  const b = booking('b1', { duration: 45 });
  const url = `/api/user/bookings/b1/reschedule`;
  const today = new Date();
  const slots = `GET /api/mentors/${MENTOR_ID}/available-slots?${new URLSearchParams({
    date: isoDate(today),
    duration: '45',
    timeZone: browserTimeZone(),
    // The booking's own time counts as free when it moves.
    excludeBooking: 'b1',
  })}`;

  async function openDialog() {
    const user = userEvent.setup();
    renderDashboard();
    await screen.findByRole('list', { name: 'Upcoming sessions' });
    await user.click(within(card(b)).getByRole('button', { name: /Reschedule/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule Session' });
    return { user, dialog };
  }

  it('asks for a new time, then moves the booking with the trimmed reason and refreshes the dashboard', async () => {
    const fetchMock = mockFetch({
      [DASHBOARD]: () => jsonResponse(200, dashboard([b])),
      [slots]: () => jsonResponse(200, ['23:30']),
      [`PUT ${url}`]: () => jsonResponse(200, { message: 'Booking rescheduled successfully', booking: b }),
    });
    const { user, dialog } = await openDialog();

    await user.click(within(dialog).getByRole('button', { name: 'Confirm Reschedule' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please select a new time');
    expect(calls(fetchMock, 'PUT', url)).toBe(0);

    await user.click(within(dialog).getByRole('button', { name: new RegExp(format(today, 'EEEE, MMMM d, yyyy')) }));
    await user.click(await within(dialog).findByRole('radio', { name: '11:30 PM' }));
    await user.type(within(dialog).getByLabelText('Reason for rescheduling (optional)'), '  Work trip  ');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Reschedule' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodyOf(fetchMock, 'PUT', url)).toEqual({
      scheduledAt: wallTimeToIso(isoDate(today), '23:30', browserTimeZone()),
      reason: 'Work trip',
    });
    expect(success).toHaveBeenCalledWith('Session Rescheduled', expect.anything());
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/user/dashboard')).toBe(2));
  });

  it("shows 'Rescheduling Failed' with the server's message, or 'Failed to reschedule booking'", async () => {
    let answer = () => jsonResponse(409, { message: 'This time is no longer available' });
    mockFetch({
      [DASHBOARD]: () => jsonResponse(200, dashboard([b])),
      [slots]: () => jsonResponse(200, ['23:30']),
      [`PUT ${url}`]: () => answer(),
    });
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: new RegExp(format(today, 'EEEE, MMMM d, yyyy')) }));
    await user.click(await within(dialog).findByRole('radio', { name: '11:30 PM' }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Reschedule' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Rescheduling Failed', { description: 'This time is no longer available' }),
    );
    // The taken time is dropped; the dialog stays open.
    expect(screen.getByRole('dialog', { name: 'Reschedule Session' })).toBeInTheDocument();

    answer = () => jsonResponse(500, undefined);
    await user.click(await within(dialog).findByRole('radio', { name: '11:30 PM' }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Reschedule' }));
    await waitFor(() =>
      expect(error).toHaveBeenLastCalledWith('Rescheduling Failed', { description: 'Failed to reschedule booking' }),
    );
  });
});

describe('DashboardPage: reschedule inside the last 2 hours', () => {
  it('says it is too late instead of offering times', async () => {
    const soon = booking('soon', { scheduledAt: inFuture(HOUR + 30 * MINUTE) });
    const fetchMock = mockFetch({ [DASHBOARD]: () => jsonResponse(200, dashboard([soon])) });
    renderDashboard();
    const user = userEvent.setup();
    await screen.findByRole('list', { name: 'Upcoming sessions' });
    await user.click(within(card(soon)).getByRole('button', { name: /Reschedule/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Reschedule Session' });
    expect(dialog).toHaveTextContent('Bookings can be rescheduled up to 2 hours before the start.');
    expect(within(dialog).queryByRole('button', { name: 'Confirm Reschedule' })).not.toBeInTheDocument();
    // The dialog's own 'Close' (the X in the corner has the same name).
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
  });
});

describe('DashboardPage: cancel', () => {
  const b = booking('b1', { totalAmount: '50.00' });
  const url = '/api/user/bookings/b1/cancel';
  const preview = 'GET /api/user/bookings/b1/refund-preview';

  async function openDialog() {
    const user = userEvent.setup();
    renderDashboard();
    await screen.findByRole('list', { name: 'Upcoming sessions' });
    await user.click(within(card(b)).getByRole('button', { name: /Cancel/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel Session' });
    return { user, dialog };
  }

  it('shows the policy and the exact refund, requires the acknowledgement, then cancels and refreshes', async () => {
    const fetchMock = mockFetch({
      [DASHBOARD]: () => jsonResponse(200, dashboard([b])),
      [preview]: () => jsonResponse(200, { refundPercentage: 100, refundAmount: '50.00' }),
      [`PUT ${url}`]: () =>
        jsonResponse(200, {
          message: 'Booking cancelled',
          booking: { ...b, status: 'cancelled' },
          refundPolicy: { refundPercentage: 100, refundAmount: '50.00' },
        }),
    });
    const { user, dialog } = await openDialog();

    expect(dialog).toHaveTextContent(
      '24 hours or more before the session: 100% refund, you get back everything you paid',
    );
    expect(dialog).toHaveTextContent('2 to 24 hours before: 50% refund, you get back 50% of what you paid');
    expect(dialog).toHaveTextContent('Less than 2 hours before: no refund, you get nothing back');
    expect(dialog).not.toHaveTextContent('fee');
    // Three days ahead: the 100% tier applies.
    expect(within(dialog).getByText(/24 hours or more/)).toHaveAttribute('aria-current', 'true');
    expect(await within(dialog).findByText('Refund if you cancel now: $50.00 (100%)')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Confirm Cancellation' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please acknowledge the policy');
    expect(calls(fetchMock, 'PUT', url)).toBe(0);

    await user.click(within(dialog).getByRole('checkbox', { name: /I understand the cancellation policy/ }));
    await user.type(within(dialog).getByLabelText('Reason for cancelling (optional)'), '  Feeling unwell ');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Cancellation' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodyOf(fetchMock, 'PUT', url)).toEqual({ acknowledgePolicy: true, reason: 'Feeling unwell' });
    expect(success).toHaveBeenCalledWith('Session Cancelled', { description: 'Refund: $50.00 (100%).' });
    await waitFor(() => expect(calls(fetchMock, 'GET', '/api/user/dashboard')).toBe(2));
  });

  it("shows 'Cancellation Failed' with the server's message, or 'Failed to cancel booking'", async () => {
    let answer = () => jsonResponse(409, { message: 'This session has already started' });
    mockFetch({
      [DASHBOARD]: () => jsonResponse(200, dashboard([b])),
      [preview]: () => jsonResponse(200, { refundPercentage: 50, refundAmount: '25.00' }),
      [`PUT ${url}`]: () => answer(),
    });
    const { user, dialog } = await openDialog();
    expect(await within(dialog).findByText('Refund if you cancel now: $25.00 (50%)')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: /I understand/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Cancellation' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Cancellation Failed', { description: 'This session has already started' }),
    );
    answer = () => jsonResponse(500, undefined);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Cancellation' }));
    await waitFor(() =>
      expect(error).toHaveBeenLastCalledWith('Cancellation Failed', { description: 'Failed to cancel booking' }),
    );
  });
});

describe('DashboardPage: a review written earlier', () => {
  it('shows the review itself under the thanks', async () => {
    const reviewed = booking('rev', {
      status: 'completed',
      scheduledAt: inFuture(-3 * 24 * HOUR),
      hasReview: true,
      review: { rating: 5, comment: 'Clear and kind' },
    });
    mockFetch({ [DASHBOARD]: () => jsonResponse(200, dashboard([reviewed])) });
    renderDashboard();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Session History' }));
    expect(within(card(reviewed)).getByText('Clear and kind')).toBeInTheDocument();
    expect(within(card(reviewed)).getByRole('img', { name: 'Rated 5.0 out of 5' })).toBeInTheDocument();
  });
});

describe('DashboardPage: reviews in Session History', () => {
  const done = booking('done', { status: 'completed', scheduledAt: inFuture(-2 * 24 * HOUR) });
  const other = booking('other', { status: 'completed', scheduledAt: inFuture(-5 * 24 * HOUR) });
  const url = (id: string) => `/api/bookings/${id}/review`;

  it('posts 1 to 5 stars and an optional comment; the form then goes, as it does for an earlier review (409)', async () => {
    const fetchMock = mockFetch({
      [DASHBOARD]: () => jsonResponse(200, dashboard([done, other])),
      [`POST ${url('done')}`]: () =>
        jsonResponse(201, { id: 'r1', rating: 4, comment: 'Lovely', createdAt: new Date().toISOString(), user: {} }),
      [`POST ${url('other')}`]: () =>
        jsonResponse(409, { code: 'already_reviewed', message: 'You have already reviewed this session' }),
    });
    renderDashboard();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Session History' }));

    const form = within(card(done)).getByRole('form', { name: 'Review Birth Chart Reading' });
    await user.click(within(form).getByRole('button', { name: 'Submit Review' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Rating must be from 1 to 5');

    await user.click(within(form).getByRole('radio', { name: '4 stars' }));
    await user.type(within(form).getByLabelText('Comment (optional)'), ' Lovely ');
    await user.click(within(form).getByRole('button', { name: 'Submit Review' }));
    await waitFor(() => expect(within(card(done)).queryByRole('form')).not.toBeInTheDocument());
    expect(bodyOf(fetchMock, 'POST', url('done'))).toEqual({ rating: 4, comment: 'Lovely' });
    expect(within(card(done)).getByText('Thanks for your review!')).toBeInTheDocument();
    // The review itself shows, not only the thanks.
    expect(within(card(done)).getByText('Lovely')).toBeInTheDocument();
    expect(within(card(done)).getByRole('img', { name: 'Rated 4.0 out of 5' })).toBeInTheDocument();
    expect(success).toHaveBeenCalledWith('Review submitted', expect.anything());

    const second = within(card(other)).getByRole('form');
    await user.click(within(second).getByRole('radio', { name: '5 stars' }));
    await user.click(within(second).getByRole('button', { name: 'Submit Review' }));
    await waitFor(() => expect(within(card(other)).queryByRole('form')).not.toBeInTheDocument());
    expect(info).toHaveBeenCalledWith('You have already reviewed this session');
  });
});

describe('DashboardPage: profile', () => {
  it("shows the account read-only, 'Not set' for a missing name and the member state", async () => {
    mockFetch({
      [DASHBOARD]: () =>
        jsonResponse(
          200,
          dashboard([booking('b1')], {
            user: { ...testUser, lastName: '' },
            stats: { totalSessions: 2, upcomingSessions: 1, totalSpent: '0.00' },
          }),
        ),
    });
    renderDashboard();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Profile' }));
    const panel = screen.getByRole('tabpanel', { name: 'Profile' });
    expect(panel).toHaveTextContent('First NameAda');
    expect(panel).toHaveTextContent('Last NameNot set');
    expect(panel).toHaveTextContent('Emailada@example.com');
    expect(panel).toHaveTextContent('Member SinceActive member');
    expect(within(panel).getByRole('img', { name: 'Your profile photo' })).toHaveTextContent('AD');
    expect(within(panel).queryByRole('textbox')).not.toBeInTheDocument();
  });

  it("says 'New member' before the first session", async () => {
    mockFetch({
      [DASHBOARD]: () =>
        jsonResponse(
          200,
          dashboard([booking('b1', { status: 'cancelled' })], {
            stats: { totalSessions: 0, upcomingSessions: 0, totalSpent: '0.00' },
          }),
        ),
    });
    renderDashboard();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Profile' }));
    expect(screen.getByRole('tabpanel', { name: 'Profile' })).toHaveTextContent('Member SinceNew member');
  });
});

describe('DashboardPage: email preferences', () => {
  const prefs: EmailPreferencesView = {
    bookingConfirmations: true,
    bookingReminders: true,
    marketingEmails: true,
    reviewRequests: false,
  };

  async function openTab() {
    renderDashboard();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Email Preferences' }));
    return user;
  }

  it('shows the four toggles and saves one changed boolean at once, disabling the toggles meanwhile', async () => {
    let release: (r: Response) => void = () => {};
    const fetchMock = mockFetch({
      [DASHBOARD]: () => jsonResponse(200, dashboard([booking('b1')])),
      [`GET ${PREFERENCES}`]: () => jsonResponse(200, prefs),
      [`PUT ${PREFERENCES}`]: () => new Promise<Response>((resolve) => (release = resolve)),
    });
    const user = await openTab();
    const labels = ['Booking confirmations', 'Booking reminders', 'Marketing emails', 'Review requests'];
    for (const label of labels) expect(await screen.findByRole('switch', { name: label })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Review requests' })).toHaveAttribute('aria-checked', 'false');

    await user.click(screen.getByRole('switch', { name: 'Marketing emails' }));
    expect(bodyOf(fetchMock, 'PUT', PREFERENCES)).toEqual({ marketingEmails: false });
    for (const label of labels) expect(screen.getByRole('switch', { name: label })).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'Marketing emails' })).toHaveAttribute('aria-checked', 'false');

    release(jsonResponse(200, { ...prefs, marketingEmails: false }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Marketing emails' })).toBeEnabled());
    expect(screen.getByRole('switch', { name: 'Marketing emails' })).toHaveAttribute('aria-checked', 'false');
  });

  it("toasts 'Error' 'Failed to update email preferences' and keeps the saved value", async () => {
    mockFetch({
      [DASHBOARD]: () => jsonResponse(200, dashboard([booking('b1')])),
      [`GET ${PREFERENCES}`]: () => jsonResponse(200, prefs),
      [`PUT ${PREFERENCES}`]: () => jsonResponse(500, { message: 'boom' }),
    });
    const user = await openTab();
    await user.click(await screen.findByRole('switch', { name: 'Booking reminders' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Error', { description: 'Failed to update email preferences' }),
    );
    expect(screen.getByRole('switch', { name: 'Booking reminders' })).toHaveAttribute('aria-checked', 'true');
  });

  it("says 'Failed to load email preferences' when they cannot be read", async () => {
    mockFetch({
      [DASHBOARD]: () => jsonResponse(200, dashboard([booking('b1')])),
      [`GET ${PREFERENCES}`]: () => jsonResponse(500, { message: 'boom' }),
    });
    await openTab();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load email preferences');
  });
});

// Dates in the cards are the browser's: the formatter is the app's own.
it('formats dates as MMM dd, yyyy and times as h:mm a', () => {
  const d = new Date(2025, 2, 9, 14, 5);
  expect(formatDate(d)).toBe('Mar 09, 2025');
  expect(formatTime(d)).toBe('2:05 PM');
});

describe('DashboardPage: holds waiting for payment', () => {
  const held = {
    id: 'res-9',
    scheduledAt: inFuture(2 * 24 * HOUR),
    expiresAt: inFuture(40 * MINUTE),
    totalAmount: '75.00',
    notes: null,
    mentor: { ...mentorCard },
    service: { id: 'svc-1', title: 'Birth Chart Reading', duration: 60, serviceType: 'astrology' },
  };

  it("lists each hold with 'Complete payment' (back to its payment step) and 'Release'", async () => {
    const holds = [held];
    const fetchMock = mockFetch({
      [DASHBOARD]: () => jsonResponse(200, dashboard([booking('b1')])),
      'GET /api/user/reservations': () => jsonResponse(200, holds),
      'DELETE /api/reservations/res-9': () => {
        holds.pop();
        return jsonResponse(200, { message: 'Reservation released' });
      },
    });
    renderDashboard();
    const card = await screen.findByLabelText('Held: Birth Chart Reading');
    expect(within(card).getByText('with Luna Starweaver')).toBeInTheDocument();
    expect(within(card).getByText(new RegExp(`Held for you until ${formatTime(held.expiresAt)}`))).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Complete payment' })).toHaveAttribute(
      'href',
      '/booking/svc-1?reservation=res-9',
    );
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Release' }));
    await waitFor(() => expect(calls(fetchMock, 'DELETE', '/api/reservations/res-9')).toBe(1));
    expect(success).toHaveBeenCalledWith('Reservation released', { description: 'The time is free again.' });
    await waitFor(() => expect(screen.queryByLabelText('Held: Birth Chart Reading')).not.toBeInTheDocument());
  });
});

describe('DashboardPage: the tab in the address', () => {
  it('opens the tab ?tab= names (the e-mail footers link Email Preferences), else Upcoming Sessions', () => {
    expect(initialTab('email-preferences')).toBe('email-preferences');
    expect(initialTab('history')).toBe('history');
    expect(initialTab(null)).toBe('upcoming');
    expect(initialTab('admin')).toBe('upcoming');
  });
});

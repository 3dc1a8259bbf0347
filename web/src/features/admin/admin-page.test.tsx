import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { AdminBookingView, AdminMentorView, UserView } from '@/api/model';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { AdminPage } from './admin-page';
import { ADMIN_BOOKINGS_PAGE_SIZE, pageCount } from './admin-text';

let success: MockInstance;
let error: MockInstance;
beforeEach(() => {
  success = vi.spyOn(toast, 'success').mockImplementation(() => 1);
  error = vi.spyOn(toast, 'error').mockImplementation(() => 1);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const admin: UserView = {
  ...testUser,
  id: 'a-1',
  email: 'admin@example.com',
  firstName: 'Root',
  lastName: 'Admin',
  isAdmin: true,
  role: 'admin',
};
const seeker: UserView = { ...testUser, id: 'u-1', email: 'ada@example.com' };
const STATS = { totalUsers: 12, totalMentors: 3, totalBookings: 40, totalRevenue: '1234.5' };
const MENTOR: AdminMentorView = {
  id: 'm-1',
  displayName: 'Luna Starweaver',
  userId: 'u-m',
  user: { id: 'u-m', firstName: 'Luna', lastName: 'Star', email: 'luna@example.com' },
  rating: '4.75',
  totalSessions: 9,
  isActive: false,
  approvalStatus: 'approved',
  rejectionReason: null,
  submittedAt: '2026-01-01T00:00:00Z',
  reviewedAt: '2026-01-02T00:00:00Z',
  servicesCount: 2,
  noShowCount: 0,
  stats: { totalBookings: 11, totalRevenue: '300.00' },
};
const booking = (i: number): AdminBookingView => ({
  id: `b-${i}`,
  status: 'confirmed',
  scheduledAt: '2026-03-01T15:00:00Z',
  duration: 60,
  totalAmount: '40.00',
  paymentStatus: 'approved',
  createdAt: '2026-02-01T00:00:00Z',
  user: { id: 'u-1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
  mentor: { id: 'm-1', displayName: 'Luna Starweaver' },
  service: { id: 's-1', title: `Reading ${i}` },
});

function setup(user: UserView | null, handlers: Parameters<typeof mockFetch>[0] = {}) {
  const fetchMock = mockFetch({
    'GET /api/admin/stats': () => jsonResponse(200, STATS),
    'GET /api/admin/users': () => jsonResponse(200, [admin, seeker]),
    'GET /api/admin/mentors': () => jsonResponse(200, [MENTOR]),
    ...handlers,
  });
  renderWithProviders(<AdminPage />, { client: clientWithUser(user), path: '/admin' });
  return fetchMock;
}

describe('AdminPage', () => {
  it.each([
    ['signed out', null],
    ['a seeker', seeker],
  ])('%s sees Access Denied and nothing is asked of the api', async (_, user) => {
    const fetchMock = setup(user);
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText("You don't have permission to access the admin dashboard.")).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the four figures, revenue with $ and two decimals, and a link to payouts', async () => {
    setup(admin);
    await waitFor(() => expect(screen.getByText('$1,234.50')).toBeInTheDocument());
    for (const [label, value] of [
      ['Total Users', '12'],
      ['Total Mentors', '3'],
      ['Total Bookings', '40'],
    ]) {
      const term = screen.getByText(label);
      expect(term.closest('div')?.textContent).toContain(value);
    }
    expect(screen.getByText('Total Revenue')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Payouts/ })).toHaveAttribute('href', '/admin/payouts');
    expect(screen.getByRole('tab', { name: 'Users', selected: true })).toBeInTheDocument();
  });

  it('shows a scheduled deletion on the users tab', async () => {
    setup(admin, {
      'GET /api/admin/users': () =>
        jsonResponse(200, [admin, { ...seeker, deletionScheduledAt: '2026-12-12T10:00:00Z' }]),
    });
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getByRole('row', { name: 'Ada Lovelace' })).toHaveTextContent(/Deletion scheduled for/);
    expect(within(table).getAllByText(/Deletion scheduled for/)).toHaveLength(1);
  });

  it('filters users, deactivates and activates them, and never offers to deactivate oneself', async () => {
    let inactive = false;
    const fetchMock = setup(admin, {
      'GET /api/admin/users': () => jsonResponse(200, [admin, { ...seeker, isActive: !inactive }]),
      'GET /api/admin/users?role=mentor&isActive=false': () => jsonResponse(200, []),
      'PUT /api/admin/users/u-1/status': (_url, init) => {
        inactive = !JSON.parse(String(init?.body)).isActive;
        return jsonResponse(200, { ...seeker, isActive: !inactive });
      },
    });
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getByRole('button', { name: 'Deactivate admin@example.com' })).toBeDisabled();
    await user.click(within(table).getByRole('button', { name: 'Deactivate ada@example.com' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('User deactivated', expect.anything()));
    expect(
      JSON.parse(
        String(
          fetchMock.mock.calls.find(([u, i]) => u === '/api/admin/users/u-1/status' && i?.method === 'PUT')?.[1]?.body,
        ),
      ),
    ).toEqual({ isActive: false });
    await user.click(await screen.findByRole('button', { name: 'Activate ada@example.com' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('User activated', expect.anything()));

    await user.selectOptions(screen.getByLabelText('Role'), 'mentor');
    await user.selectOptions(screen.getAllByLabelText('Status')[0], 'false');
    expect(await screen.findByText('No users match these filters.')).toBeInTheDocument();
  });

  it("toasts 'Failed to update user status' with the server's reason", async () => {
    setup(admin, { 'PUT /api/admin/users/u-1/status': () => jsonResponse(409, { message: 'Nope' }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Deactivate ada@example.com' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to update user status', { description: 'Nope' }));
  });

  it.each([
    ['GET /api/admin/stats', 'Failed to fetch platform stats'],
    ['GET /api/admin/users', 'Failed to fetch users'],
  ])('a failing %s toasts %s', async (call, title) => {
    setup(admin, { [call]: () => jsonResponse(500, { message: 'boom' }) });
    await waitFor(() => expect(error).toHaveBeenCalledWith(title, { description: 'boom' }));
  });

  it('Mentors: rating, sessions, revenue, services count and status', async () => {
    setup(admin);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Mentors' }));
    const row = await screen.findByRole('row', { name: 'Luna Starweaver' });
    for (const text of ['4.75', '9', '11', '$300.00', '2', 'Inactive', 'luna@example.com']) {
      expect(within(row).getByText(new RegExp(text.replace('$', '\\$')))).toBeInTheDocument();
    }
  });

  it('Messages: the contact inbox lists open messages and marks one answered', async () => {
    let answered = false;
    const message = {
      id: 'c-1',
      userId: null,
      name: 'Sam',
      email: 'sam@example.com',
      subject: 'Rude mentor',
      category: 'report',
      categoryLabel: 'Report an Issue',
      message: 'He was rude in our session.',
      createdAt: '2026-11-20T10:00:00Z',
      answeredAt: null,
    };
    const fetchMock = setup(admin, {
      'GET /api/admin/contact-messages?status=open': () =>
        jsonResponse(200, answered ? [] : [{ ...message, status: 'open' }]),
      'POST /api/admin/contact-messages/c-1/answered': () => {
        answered = true;
        return jsonResponse(200, { ...message, status: 'answered', answeredAt: '2026-11-21T10:00:00Z' });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Messages' }));
    const card = await screen.findByRole('article', { name: 'Message from Sam' });
    expect(within(card).getByText('Report an Issue')).toBeInTheDocument();
    expect(within(card).getByText('He was rude in our session.')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Mark as answered' }));
    expect(await screen.findByRole('heading', { name: 'No messages here' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/admin/contact-messages/c-1/answered')).toBe(true);
  });

  it('Mentors: filters by approval, approves one and rejects another with a reason', async () => {
    const pending: AdminMentorView = { ...MENTOR, id: 'm-2', displayName: 'Nova Vale', approvalStatus: 'pending' };
    const other: AdminMentorView = { ...MENTOR, id: 'm-3', displayName: 'Orrin Ash', approvalStatus: 'pending' };
    const decided: Record<string, string> = {};
    const fetchMock = setup(admin, {
      'GET /api/admin/mentors': () => jsonResponse(200, [pending, other, MENTOR]),
      'GET /api/admin/mentors?approvalStatus=pending': () =>
        jsonResponse(
          200,
          [pending, other].filter((m) => !decided[m.id]),
        ),
      'POST /api/admin/mentors/m-2/approve': () => {
        decided['m-2'] = 'approved';
        return jsonResponse(200, { ...pending, approvalStatus: 'approved' });
      },
      'POST /api/admin/mentors/m-3/reject': () => {
        decided['m-3'] = 'rejected';
        return jsonResponse(200, { ...other, approvalStatus: 'rejected', rejectionReason: 'Too vague' });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Mentors' }));
    const approvedRow = await screen.findByRole('row', { name: 'Luna Starweaver' });
    expect(within(approvedRow).getByText('Approved')).toBeInTheDocument();
    expect(within(approvedRow).queryByRole('button', { name: /^Approve/ })).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Approval'), 'Awaiting review');
    await waitFor(() => expect(screen.queryByRole('row', { name: 'Luna Starweaver' })).not.toBeInTheDocument());
    const row = screen.getByRole('row', { name: 'Nova Vale' });
    expect(within(row).getByText('Awaiting review')).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Approve Nova Vale' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Mentor approved', { description: 'Nova Vale' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: 'Nova Vale' })).not.toBeInTheDocument());

    await user.click(
      within(screen.getByRole('row', { name: 'Orrin Ash' })).getByRole('button', { name: 'Reject Orrin Ash' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Reject Orrin Ash' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject Mentor' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please give the mentor a reason');
    await user.type(within(dialog).getByLabelText('Reason'), 'Too vague');
    await user.click(within(dialog).getByRole('button', { name: 'Reject Mentor' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Mentor rejected', { description: 'Orrin Ash' }));
    const rejectCall = fetchMock.mock.calls.find(([url]) => url === '/api/admin/mentors/m-3/reject');
    expect(JSON.parse(String(rejectCall?.[1]?.body))).toEqual({ reason: 'Too vague' });
    expect(await screen.findByText('No mentors match this filter.')).toBeInTheDocument();
  });

  it('Announcements: sends one to an audience and shows how many have it', async () => {
    const sent: unknown[] = [];
    const fetchMock = setup(admin, {
      'GET /api/admin/announcements': () =>
        jsonResponse(
          200,
          sent.length === 0
            ? []
            : [
                {
                  id: 'a-1',
                  audience: 'mentors',
                  title: 'Full moon',
                  message: 'Open late tonight.',
                  createdAt: '2026-11-20T10:00:00Z',
                  deliveredCount: 1234,
                  completedAt: '2026-11-20T10:00:05Z',
                },
              ],
        ),
      'POST /api/admin/announcements': (_, init) => {
        sent.push(JSON.parse(String(init?.body)));
        return jsonResponse(202, { id: 'a-1' });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Announcements' }));
    await user.click(await screen.findByRole('button', { name: 'Send announcement' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Title must be 1 to 100 characters');
    await user.selectOptions(screen.getByLabelText('Audience'), 'mentors');
    await user.type(screen.getByLabelText('Title'), 'Full moon');
    await user.type(screen.getByLabelText('Message'), 'Open late tonight.');
    await user.click(screen.getByRole('button', { name: 'Send announcement' }));
    const card = await screen.findByRole('article', { name: 'Announcement Full moon' });
    expect(within(card).getByText('Delivered to 1,234 users')).toBeInTheDocument();
    expect(sent).toEqual([{ audience: 'mentors', title: 'Full moon', message: 'Open late tonight.' }]);
    expect(fetchMock).toHaveBeenCalled();
  });

  it("Mentors: a failure toasts 'Failed to fetch mentors'", async () => {
    setup(admin, { 'GET /api/admin/mentors': () => jsonResponse(500, { message: 'boom' }) });
    await userEvent.setup().click(await screen.findByRole('tab', { name: 'Mentors' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to fetch mentors', { description: 'boom' }));
  });

  it('Bookings: 20 a page with paging, and the status and date filters go to the api', async () => {
    const first = Array.from({ length: ADMIN_BOOKINGS_PAGE_SIZE }, (_, i) => booking(i));
    const fetchMock = setup(admin, {
      'GET /api/admin/bookings?page=1&pageSize=20': () =>
        jsonResponse(200, { bookings: first, total: 21, page: 1, pageSize: 20 }),
      'GET /api/admin/bookings?page=2&pageSize=20': () =>
        jsonResponse(200, { bookings: [booking(20)], total: 21, page: 2, pageSize: 20 }),
      'GET /api/admin/bookings?status=cancelled&startDate=2026-03-01&endDate=2026-03-31&page=1&pageSize=20': () =>
        jsonResponse(200, { bookings: [], total: 0, page: 1, pageSize: 20 }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Bookings' }));
    const table = await screen.findByRole('table', { name: 'Bookings' });
    expect(within(table).getAllByRole('row')).toHaveLength(ADMIN_BOOKINGS_PAGE_SIZE + 1);
    expect(screen.getByText(/21 bookings · Page 1 of 2/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Reading 20')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    const section = screen.getByRole('region', { name: 'Bookings' });
    await user.selectOptions(within(section).getByLabelText('Status'), 'cancelled');
    await user.type(within(section).getByLabelText('From'), '2026-03-01');
    await user.type(within(section).getByLabelText('To'), '2026-03-31');
    expect(await screen.findByText('No bookings match these filters.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([u]) => u)).toContain(
      '/api/admin/bookings?status=cancelled&startDate=2026-03-01&endDate=2026-03-31&page=1&pageSize=20',
    );
  });

  it("Bookings: a failure toasts 'Failed to fetch bookings'", async () => {
    setup(admin, { 'GET /api/admin/bookings?page=1&pageSize=20': () => jsonResponse(500, { message: 'boom' }) });
    await userEvent.setup().click(await screen.findByRole('tab', { name: 'Bookings' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to fetch bookings', { description: 'boom' }));
  });
});

describe('admin constants', () => {
  it('the bookings table shows 20 a page', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(20)).toBe(1);
    expect(pageCount(21)).toBe(2);
    expect(pageCount(5, 2)).toBe(3);
  });
});

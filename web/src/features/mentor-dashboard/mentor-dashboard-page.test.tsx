import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mentor, MENTOR_ID, service, SERVICE_ID } from '@/testing/catalogue-fixtures';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { MentorDashboardPage } from './mentor-dashboard-page';

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
});
afterEach(() => vi.unstubAllGlobals());

/** The dashboard's other loads, answered empty (stats, bookings, availability). */
const EMPTY_LISTS = {
  'GET /api/mentor/stats': () =>
    jsonResponse(200, {
      totalSessions: 0,
      thisMonth: 0,
      totalEarnings: '0.00',
      platformFeePercent: 15,
      platformFee: '0.00',
      netEarnings: '0.00',
      rating: '0.00',
      reviewCount: 0,
    }),
  'GET /api/mentor/bookings': () => jsonResponse(200, []),
  'GET /api/mentor/availability': () => jsonResponse(200, []),
};

const render = () =>
  renderWithProviders(<MentorDashboardPage />, { client: clientWithUser(testUser), path: '/mentor-dashboard' });

function bodies(fetchMock: ReturnType<typeof mockFetch>, method: string, path: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([url, init]) => url === path && (init as RequestInit | undefined)?.method === method)
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)));
}

describe('/mentor-dashboard', { timeout: 20_000 }, () => {
  it("prompts 'Create Your Mentor Profile' when the user is not a mentor", async () => {
    mockFetch({ 'GET /api/mentor/profile': () => jsonResponse(404, { message: 'Mentor profile not found' }) });
    render();
    expect(await screen.findByRole('heading', { name: 'Create Your Mentor Profile' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create Mentor Profile' })).toHaveAttribute('href', '/become-mentor');
  });

  it('greets by display name; Bookings is the default tab and every tab is open', async () => {
    mockFetch({ 'GET /api/mentor/profile': () => jsonResponse(200, mentor()), ...EMPTY_LISTS });
    render();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome back, Luna Starweaver!' }),
    ).toBeInTheDocument();
    const tabs = screen.getByRole('tablist', { name: 'Mentor dashboard' });
    for (const name of ['Bookings', 'Services', 'Group Sessions', 'Availability', 'Calendar', 'Payouts', 'Profile']) {
      expect(within(tabs).getByRole('tab', { name })).toBeEnabled();
    }
    expect(within(tabs).getByRole('tab', { name: 'Bookings' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('heading', { name: 'No bookings yet' })).toBeInTheDocument();
    await userEvent.setup().click(within(tabs).getByRole('tab', { name: 'Services' }));
    expect(screen.getByRole('heading', { name: 'Birth Chart Reading' })).toBeInTheDocument();
  });

  it('opens the tab named by ?tab= (the calendar notification links to the Calendar tab)', async () => {
    mockFetch({
      'GET /api/mentor/profile': () => jsonResponse(200, mentor()),
      'GET /api/mentor/calendar-connection': () => jsonResponse(404, { message: 'No calendar is connected' }),
      ...EMPTY_LISTS,
    });
    renderWithProviders(<MentorDashboardPage />, {
      client: clientWithUser(testUser),
      path: '/mentor-dashboard?tab=calendar',
    });
    const tabs = await screen.findByRole('tablist', { name: 'Mentor dashboard' });
    expect(within(tabs).getByRole('tab', { name: 'Calendar' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('heading', { name: 'Connect Your Calendar' })).toBeInTheDocument();
  });

  it('sends a mentor with only a profile (no service, no weekly hours) back to the wizard', async () => {
    mockFetch({ ...EMPTY_LISTS, 'GET /api/mentor/profile': () => jsonResponse(200, mentor({ services: [] })) });
    renderWithProviders(
      <Routes>
        <Route path="/mentor-dashboard" element={<MentorDashboardPage />} />
        <Route path="/become-mentor" element={<h1>Wizard here</h1>} />
      </Routes>,
      { client: clientWithUser(testUser), path: '/mentor-dashboard' },
    );
    expect(await screen.findByRole('heading', { name: 'Wizard here' })).toBeInTheDocument();
  });

  it("offers 'Create Your First Service' (a mentor with hours but no service) and creates a free group service", async () => {
    let services: unknown[] = [];
    const fetchMock = mockFetch({
      'GET /api/mentor/availability': () =>
        jsonResponse(200, [{ id: 'a-1', dayOfWeek: 1, startTime: '09:00', endTime: '17:00', isActive: true }]),
      'GET /api/mentor/profile': () => jsonResponse(200, mentor({ services: services as never })),
      'POST /api/services': (_url, init) => {
        const body = JSON.parse(String(init?.body));
        const created = service({ ...body, id: SERVICE_ID });
        services = [created];
        return jsonResponse(201, created);
      },
    });
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Services' }));
    await user.click(await screen.findByRole('button', { name: 'Create Your First Service' }));
    const dialog = screen.getByRole('dialog', { name: 'Create New Service' });
    await user.click(within(dialog).getByRole('button', { name: 'Create Service' }));
    expect(within(dialog).getByText('Service title must be at least 3 characters')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Service Title'), 'New Moon Circle');
    await user.click(within(dialog).getByLabelText('Description'));
    await user.paste('A guided group meditation at each new moon.');
    await user.selectOptions(within(dialog).getByLabelText('Service Type'), 'Meditation');
    await user.click(within(dialog).getByRole('checkbox', { name: 'This is a free service' }));
    expect(within(dialog).getByLabelText('Price (USD)')).toBeDisabled();
    expect(within(dialog).getByLabelText('Price (USD)')).toHaveValue(0);
    await user.clear(within(dialog).getByLabelText('Duration (minutes)'));
    await user.click(within(dialog).getByRole('switch', { name: 'Group session' }));
    await user.clear(within(dialog).getByLabelText('Max Participants'));
    await user.type(within(dialog).getByLabelText('Max Participants'), '12');
    await user.click(within(dialog).getByRole('button', { name: 'Create Service' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies(fetchMock, 'POST', '/api/services')).toEqual([
      {
        title: 'New Moon Circle',
        description: 'A guided group meditation at each new moon.',
        serviceType: 'meditation',
        price: '0.00',
        duration: 60,
        isGroupSession: true,
        maxParticipants: 12,
        mentorId: MENTOR_ID,
      },
    ]);
    expect(await screen.findByRole('heading', { name: 'New Moon Circle' })).toBeInTheDocument();
  }, 30_000);

  it('Edit Service sends only the changed fields, including Active', async () => {
    const fetchMock = mockFetch({
      'GET /api/mentor/profile': () => jsonResponse(200, mentor()),
      [`PUT /api/mentor/services/${SERVICE_ID}`]: () => jsonResponse(200, service({ price: '80.00', isActive: false })),
    });
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Services' }));
    await user.click(await screen.findByRole('button', { name: 'Edit Birth Chart Reading' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Service' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(within(dialog).getByText('No changes to save')).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText('Price (USD)'));
    await user.type(within(dialog).getByLabelText('Price (USD)'), '80');
    await user.click(within(dialog).getByRole('switch', { name: 'Active' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies(fetchMock, 'PUT', `/api/mentor/services/${SERVICE_ID}`)).toEqual([
      { price: '80.00', isActive: false },
    ]);
  }, 30_000);

  it('Profile tab: read-only details and Edit Mentor Profile with trimmed specialties, the time zone and the minimum notice', async () => {
    const fetchMock = mockFetch({
      'GET /api/mentor/profile': () => jsonResponse(200, mentor({ specialties: ['Astrology', ' Numerology '] })),
      'PUT /api/mentor/profile': (_url, init) => jsonResponse(200, mentor(JSON.parse(String(init?.body)))),
    });
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Profile' }));
    const panel = screen.getByRole('tabpanel', { name: 'Profile' });
    expect(within(panel).getByText('$50.00')).toBeInTheDocument();
    expect(within(panel).getByText(/read the stars/)).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Edit Profile' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Mentor Profile' });
    await user.clear(within(dialog).getByLabelText('Display Name'));
    await user.type(within(dialog).getByLabelText('Display Name'), 'Luna');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Meditation Guide' }));
    await user.selectOptions(within(dialog).getByLabelText('Time Zone'), 'America/New_York');
    expect(within(dialog).getByLabelText('Minimum Notice')).toHaveValue('120');
    await user.selectOptions(within(dialog).getByLabelText('Minimum Notice'), '1 day');
    await user.click(within(dialog).getByRole('button', { name: 'Save Profile' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies(fetchMock, 'PUT', '/api/mentor/profile')).toEqual([
      {
        displayName: 'Luna',
        bio: mentor().bio,
        specialties: ['Astrology', 'Numerology', 'Meditation Guide'],
        basePrice: '50.00',
        timeZone: 'America/New_York',
        minimumNoticeMinutes: 1440,
      },
    ]);
  }, 30_000);
});

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GroupSessionView } from '@/api/model';
import * as navigation from '@/lib/navigation';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import GroupSessionsPage from './group-sessions-page';

beforeEach(() => {
  vi.spyOn(toast, 'success').mockImplementation(() => 1);
  vi.spyOn(toast, 'error').mockImplementation(() => 1);
  vi.spyOn(navigation, 'hardNavigate').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

/** The first page as the page asks for it: 12 cards a page. */
const LIST = 'GET /api/group-sessions?page=1&pageSize=12';

/** A page of sessions; the body stays a list and X-Total-Count says how many match on every page. */
function listed(sessions: GroupSessionView[], total = sessions.length): Response {
  return new Response(JSON.stringify(sessions), {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(total) },
  });
}

function session(over: Partial<GroupSessionView> = {}): GroupSessionView {
  return {
    id: 'a1b2c3d4-0000-4000-8000-000000000001',
    title: 'Full Moon Circle',
    description: 'We read together.',
    status: 'scheduled',
    scheduledAt: inHours(48),
    endsAt: inHours(49),
    maxParticipants: 4,
    currentParticipants: 1,
    isUserBooked: false,
    isUserRemoved: false,
    isLive: false,
    userRemoval: null,
    service: {
      id: 'svc',
      title: 'Circle',
      duration: 60,
      price: '25.00',
      serviceType: 'energy_healing',
      mentor: { id: 'm1', userId: 'mentor-user' },
    },
    mentor: {
      id: 'm1',
      userId: 'mentor-user',
      displayName: 'Luna Starweaver',
      profileImageUrl: null,
      rating: '4.80',
      totalSessions: 12,
    },
    participants: [],
    ...over,
  };
}

function Location() {
  const l = useLocation();
  return <p data-testid="location">{l.pathname}</p>;
}

function renderPage(path = '/group-sessions') {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/group-sessions" element={<GroupSessionsPage />} />
        <Route path="*" element={null} />
      </Routes>
      <Location />
    </>,
    { client: clientWithUser(testUser), path },
  );
}

describe('/group-sessions', () => {
  it('shows 6 skeleton cards while loading', () => {
    mockFetch({ [LIST]: () => new Promise<Response>(() => {}) });
    renderPage();
    expect(screen.getByTestId('group-session-skeletons').children).toHaveLength(6);
  });

  it('shows cards with badges and the button of each state', async () => {
    mockFetch({
      [LIST]: () =>
        listed([
          session(),
          session({ id: 'full', title: 'Full one', currentParticipants: 4 }),
          session({ id: 'booked', title: 'Booked one', isUserBooked: true }),
          session({
            id: 'live',
            title: 'Live one',
            isUserBooked: true,
            status: 'active',
            scheduledAt: inHours(-0.2),
            endsAt: inHours(0.8),
          }),
        ]),
    });
    renderPage();
    const list = await screen.findByRole('list', { name: 'Group sessions' });
    const card = (title: string) => within(list).getByRole('heading', { name: title }).closest('li')!;
    expect(within(card('Full Moon Circle')).getByText('3 spots left')).toBeInTheDocument();
    expect(within(card('Full Moon Circle')).getByRole('button', { name: 'Join Session' })).toBeEnabled();
    expect(within(card('Full Moon Circle')).getByText('$25.00')).toBeInTheDocument();
    expect(within(card('Full Moon Circle')).getByText('energy healing')).toBeInTheDocument();
    expect(within(card('Full one')).getByText('Full')).toBeInTheDocument();
    expect(within(card('Full one')).getByRole('button', { name: 'Session Full' })).toBeDisabled();
    expect(within(card('Booked one')).getByText('Booked')).toBeInTheDocument();
    expect(within(card('Booked one')).getByRole('button', { name: /^Session Starts / })).toBeDisabled();
    expect(within(card('Live one')).getByText('Live Now')).toBeInTheDocument();
    expect(within(card('Live one')).getByRole('link', { name: 'Join Video Call' })).toHaveAttribute(
      'href',
      '/group-video-call/live',
    );
  });

  it("a seat the mentor removed from the live call says so, with no 'Join Video Call'", async () => {
    const CONDUCT = 'The mentor removed you for conduct, so your seat is not refunded.';
    mockFetch({
      [LIST]: () =>
        listed([
          session({
            id: 'live',
            title: 'Live one',
            isUserBooked: true,
            isUserRemoved: true,
            userRemoval: { reason: 'conduct', refundAmount: '0.00', message: CONDUCT },
            status: 'active',
            scheduledAt: inHours(-0.2),
            endsAt: inHours(0.8),
          }),
        ]),
    });
    renderPage();
    const list = await screen.findByRole('list', { name: 'Group sessions' });
    const card = within(list).getByRole('heading', { name: 'Live one' }).closest('li')!;
    expect(within(card).getByText('You were removed from this session by the mentor.')).toBeInTheDocument();
    expect(within(card).getByText(CONDUCT)).toBeInTheDocument();
    expect(within(card).queryByRole('link', { name: 'Join Video Call' })).not.toBeInTheDocument();
    // Nothing to join or book: only the report button stays.
    expect(
      within(card)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Report this group session']);
  });

  it('a paid session holds a seat and goes to /group-booking/{id}', async () => {
    const fetch = mockFetch({
      [LIST]: () => listed([session()]),
      'POST /api/reservations': () =>
        jsonResponse(201, { freeBooking: false, booking: null, reservation: { id: 'hold-1' }, expiresAt: inHours(1) }),
    });
    renderPage();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Join Session' }));
    expect(await screen.findByText('/group-booking/hold-1')).toBeInTheDocument();
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({
      groupSessionId: session().id,
      totalAmount: '25.00',
      notes: '',
    });
  });

  it("a full session says 'Session Full' with the spec's text", async () => {
    mockFetch({
      [LIST]: () => listed([session()]),
      'POST /api/reservations': () =>
        jsonResponse(409, { message: 'Session Full - This group session is already at capacity.' }),
    });
    renderPage();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Join Session' }));
    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Session Full', {
        description: 'This group session is already at capacity.',
      }),
    );
  });

  it('shows the empty state with a link to /mentors, and the benefit blurbs', async () => {
    mockFetch({ [LIST]: () => jsonResponse(200, []) });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'No Upcoming Group Sessions' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse Mentors' })).toHaveAttribute('href', '/mentors');
    for (const blurb of ['Shared Experience', 'Better Value', 'Expert Guidance']) {
      expect(screen.getByRole('heading', { name: blurb })).toBeInTheDocument();
    }
  });

  it("says 'Unable to Load Group Sessions' on failure and goes to /auth on 401", async () => {
    mockFetch({ [LIST]: () => jsonResponse(500, { message: 'boom' }) });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Unable to Load Group Sessions' })).toBeInTheDocument();
  });

  it('pages through the sessions: the total, Next and Previous, each page one request', async () => {
    const fetch = mockFetch({
      [LIST]: () => listed([session()], 13),
      'GET /api/group-sessions?page=2&pageSize=12': () =>
        listed([session({ id: 'second-page', title: 'Thirteenth circle' })], 13),
    });
    renderPage();
    expect(await screen.findByText('13 sessions')).toBeInTheDocument();
    const pages = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pages).getByText('Page 1 of 2')).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: /Previous/ })).toBeDisabled();
    await userEvent.setup().click(within(pages).getByRole('button', { name: /Next/ }));
    expect(await screen.findByRole('heading', { name: 'Thirteenth circle' })).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(fetch.mock.calls.map(([url]) => String(url))).toContain('/api/group-sessions?page=2&pageSize=12');
  });

  it('filters by service type, price, dates and words, in one request, and can clear them', async () => {
    const filtered = (url: string) => {
      const q = new URL(url, 'http://x').searchParams;
      return (
        q.get('service') === 'meditation' &&
        q.get('minPrice') === '10' &&
        q.get('maxPrice') === '30' &&
        q.get('search') === 'moon' &&
        q.get('from') === '2026-12-01' &&
        q.get('to') === '2026-12-31' &&
        q.get('page') === '1' &&
        !!q.get('timeZone')
      );
    };
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url === '/api/group-sessions?page=1&pageSize=12') return listed([session()]);
      if (filtered(url)) return listed([]);
      return jsonResponse(404, { message: 'Not found' });
    });
    vi.stubGlobal('fetch', fetch);
    renderPage();
    const user = userEvent.setup();
    const form = await screen.findByRole('search', { name: 'Filter group sessions' });
    await user.selectOptions(within(form).getByLabelText('Service type'), 'meditation');
    await user.type(within(form).getByLabelText('Min price ($)'), '10');
    await user.type(within(form).getByLabelText('Max price ($)'), '30');
    await user.type(within(form).getByLabelText('Search'), 'moon');
    await user.type(within(form).getByLabelText('From'), '2026-12-01');
    await user.type(within(form).getByLabelText('To'), '2026-12-31');
    await user.click(within(form).getByRole('button', { name: /Apply Filters/ }));
    expect(await screen.findByRole('heading', { name: 'No sessions match your filters' })).toBeInTheDocument();
    expect(fetch.mock.calls.filter(([url]) => filtered(String(url)))).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(await screen.findByRole('heading', { name: 'Full Moon Circle' })).toBeInTheDocument();
  });

  it('offers a mentor no report of their own session, and their card opens its call once the room is open', async () => {
    const mine = { mentor: { ...session().mentor, userId: testUser.id } };
    mockFetch({
      [LIST]: () =>
        listed([
          session({ ...mine, id: 'soon', title: 'Mine soon', scheduledAt: inHours(0.2), endsAt: inHours(1.2) }),
          session({ ...mine, id: 'later', title: 'Mine later' }),
          session({ id: 'theirs', title: 'Theirs' }),
        ]),
    });
    renderPage();
    const list = await screen.findByRole('list', { name: 'Group sessions' });
    const card = (title: string) => within(list).getByRole('heading', { name: title }).closest('li')!;
    expect(within(card('Mine soon')).queryByRole('button', { name: 'Report this group session' })).toBeNull();
    expect(within(card('Mine later')).queryByRole('button', { name: 'Report this group session' })).toBeNull();
    expect(within(card('Theirs')).getByRole('button', { name: 'Report this group session' })).toBeInTheDocument();
    expect(within(card('Mine soon')).getByRole('link', { name: 'Start Group Session' })).toHaveAttribute(
      'href',
      '/group-video-call/soon',
    );
    expect(within(card('Mine later')).getByRole('link', { name: /manage it on your dashboard/ })).toBeInTheDocument();
  });
});

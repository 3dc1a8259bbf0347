import { screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes, useLocation } from 'react-router';
import {
  clientWithUser,
  jsonResponse,
  mockFetch,
  renderWithProviders,
  setSignedInCookie,
  testUser,
} from '@/testing/test-utils';
import { AppRoutes, preloadPage, PUBLIC_ROUTES, SIGNED_IN_ROUTES } from './routes';

function LocationProbe() {
  const location = useLocation();
  return (
    <>
      <div data-testid="location">{location.pathname}</div>
      <div data-testid="search">{location.search}</div>
    </>
  );
}

function renderAt(path: string, user: typeof testUser | null) {
  return renderWithProviders(
    <>
      <AppRoutes />
      <Routes>
        <Route path="*" element={<LocationProbe />} />
      </Routes>
    </>,
    { client: clientWithUser(user), path },
  );
}

// Every page is a chunk of its own; loading them all once here keeps each test's wait for its page
// short on a busy machine (the loading path itself is the same).
beforeAll(async () => {
  await Promise.all([...PUBLIC_ROUTES, ...SIGNED_IN_ROUTES].map((r) => r.page.preload()));
  await preloadPage('/', false);
}, 120_000);

beforeEach(() => {
  // Signed-in pages ask whether the user is a mentor; 404 means not a mentor.
  mockFetch({ 'GET /api/mentor/profile': () => jsonResponse(404, { message: 'Not found' }) });
});
afterEach(() => vi.unstubAllGlobals());

describe('route table', () => {
  it('lists exactly the public and signed-in paths of the spec', () => {
    expect(PUBLIC_ROUTES.map((r) => r.path)).toEqual([
      '/auth',
      '/forgot-password',
      '/reset-password',
      '/verify-email',
      '/terms-of-service',
      '/privacy-policy',
      '/help-center',
      '/community-guidelines',
      '/contact',
      '/mentors',
      '/mentor/:id',
    ]);
    expect(SIGNED_IN_ROUTES.map((r) => r.path)).toEqual([
      '/',
      '/mentor-dashboard',
      '/become-mentor',
      '/dashboard',
      '/admin',
      '/admin/payouts',
      '/admin/jobs',
      '/booking/:serviceId',
      '/group-sessions',
      '/group-booking/:bookingId',
      '/group-video-call/:sessionId',
      '/messages',
      '/profile',
      '/profile/:id',
      '/favorites',
      '/notifications',
      '/receipts',
      '/wallet',
      '/reading/:id',
    ]);
  });
});

describe('signed out', () => {
  it('shows the landing page at /', async () => {
    renderAt('/', null);
    expect(await screen.findByRole('link', { name: /Find Your Mentor/ })).toHaveAttribute('href', '/mentors');
    expect(screen.getByRole('heading', { name: 'How It Works' })).toBeInTheDocument();
  });

  it.each(['/dashboard', '/admin/payouts', '/booking/42'])('redirects %s to /auth', async (path) => {
    renderAt(path, null);
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/auth');
  });

  it.each(['/no-such-page', '/mentorz', '/admin/nothing-here'])(
    'shows the 404 screen for the unknown path %s, not the sign-in form',
    async (path) => {
      renderAt(path, null);
      expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Sign In' })).not.toBeInTheDocument();
      expect(screen.getByTestId('location')).toHaveTextContent(path);
    },
  );

  it('sends a visitor who wants to book to sign in, with the way back', async () => {
    renderAt('/booking/42', null);
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.getByTestId('search')).toHaveTextContent(`?next=${encodeURIComponent('/booking/42')}`);
  });

  it.each(['/mentors', '/mentor/42'])('lets a visitor browse %s without signing in', async (path) => {
    mockFetch({
      'GET /api/mentors?page=1&pageSize=12': () => jsonResponse(200, { mentors: [], total: 0, page: 1, pageSize: 12 }),
      'GET /api/mentors/42': () => jsonResponse(404, { message: 'Mentor not found' }),
    });
    renderAt(path, null);
    // The page's chunk (and the dialog library it shares with the signed-in header) loads on demand.
    expect(await screen.findByRole('heading', { level: 1 }, { timeout: 4000 })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(path);
    expect(screen.queryByRole('button', { name: 'Sign In' })).not.toBeInTheDocument();
  });

  it('can open every public path', async () => {
    renderAt('/forgot-password', null);
    expect(await screen.findByRole('button', { name: 'Send Reset Link' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/forgot-password');
  });

  it.each([
    ['/terms-of-service', 'Terms of Service'],
    ['/privacy-policy', 'Privacy Policy'],
    ['/help-center', 'Help Center'],
    ['/community-guidelines', 'Community Guidelines'],
    ['/contact', 'Contact Us'],
  ])('shows %s', async (path, title) => {
    renderAt(path, null);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(path);
  });

  it('shows the reset page with its invalid-link text when the token is missing', async () => {
    renderAt('/reset-password', null);
    expect(await screen.findByText('Invalid reset link. Please request a new password reset.')).toBeInTheDocument();
  });

  it('shows the sign-in link to the /auth page itself in the header', async () => {
    renderAt('/', null);
    await screen.findByRole('link', { name: /Find Your Mentor/ });
    const signIn = screen.getAllByRole('link', { name: 'Sign In' })[0];
    expect(signIn).toHaveAttribute('href', '/auth');
    expect(screen.getByRole('link', { name: 'Services' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'About' })).toBeInTheDocument();
  });
});

describe('signed in', () => {
  it('shows home at / with the first name', async () => {
    renderAt('/', testUser);
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back, Ada!' })).toBeInTheDocument();
  });

  it("says 'Welcome', not 'Welcome back', at a user's first sign-in", async () => {
    renderAt('/', { ...testUser, previousSignInAt: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome, Ada!' })).toBeInTheDocument();
  });

  it("greets 'Seeker' when there is no first name", async () => {
    renderAt('/', { ...testUser, firstName: '' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back, Seeker!' })).toBeInTheDocument();
  });

  it('opens signed-in pages', async () => {
    // 'abc' is no mentor id: the mentor page itself answers (no 404 screen of the router).
    renderAt('/mentor/abc', testUser);
    expect(await screen.findByRole('heading', { level: 1, name: 'Mentor Not Found' })).toBeInTheDocument();
  });

  it('still opens public pages', async () => {
    renderAt('/help-center', testUser);
    expect(await screen.findByRole('heading', { level: 1, name: 'Help Center' })).toBeInTheDocument();
  });

  it('shows the 404 screen for an unknown path', async () => {
    renderAt('/no-such-page', testUser);
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText(/could not find the page you were looking for/)).toBeInTheDocument();
    expect(screen.queryByText(/router/)).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/no-such-page');
  });

  it('sends a signed-in visitor of /auth home', async () => {
    renderAt('/auth', testUser);
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back, Ada!' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });
});

describe('while the signed-in state loads', () => {
  it('shows a spinner', async () => {
    setSignedInCookie(true);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>(() => {})),
    );
    const { createQueryClient } = await import('@/lib/query-client');
    renderWithProviders(<AppRoutes />, { client: createQueryClient(), path: '/' });
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
  });

  it('treats a 401 from /api/auth/user as signed out', async () => {
    setSignedInCookie(true);
    mockFetch({
      'GET /api/auth/user': () => jsonResponse(401, { code: 'unauthorized', message: 'Unauthorized' }, 'Unauthorized'),
    });
    const { createQueryClient } = await import('@/lib/query-client');
    renderWithProviders(<AppRoutes />, { client: createQueryClient(), path: '/dashboard' });
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
  });

  it('without the signed_in cookie asks nothing and shows the signed-out app at once', async () => {
    setSignedInCookie(false);
    const fetchMock = mockFetch();
    const { createQueryClient } = await import('@/lib/query-client');
    renderWithProviders(<AppRoutes />, { client: createQueryClient(), path: '/dashboard' });
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => String(url))).not.toContain('/api/auth/user');
  });
});

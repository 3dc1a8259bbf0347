import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as navigation from '@/lib/navigation';
import { AUTH_USER_KEY } from '@/lib/auth';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { Header } from './header';

let hardNavigate: ReturnType<typeof vi.spyOn>;
// The signed-in parts load on demand; importing them once here keeps the first test that shows
// them from waiting on the transform.
beforeAll(async () => {
  await Promise.all([import('./notification-bell'), import('./account-menu'), import('./unread-messages-badge')]);
}, 30_000);

beforeEach(() => {
  hardNavigate = vi.spyOn(navigation, 'hardNavigate').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

function mainNav() {
  return within(screen.getByRole('navigation', { name: 'Main' }));
}

function calledPaths(fetchMock: ReturnType<typeof mockFetch>): string[] {
  return fetchMock.mock.calls.map(([url]) => String(url));
}

describe('Header', () => {
  it("signed out: shows 'Find Mentors', 'Services', 'About' and a sign-in link to /auth", () => {
    const fetchMock = mockFetch();
    renderWithProviders(<Header />);
    expect(mainNav().getByRole('link', { name: 'Find Mentors' })).toHaveAttribute('href', '/mentors');
    expect(mainNav().getByRole('link', { name: 'Services' })).toBeInTheDocument();
    expect(mainNav().getByRole('link', { name: 'About' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('signed in, not a mentor: My Dashboard and Become a Mentor, no admin link', async () => {
    const fetchMock = mockFetch();
    renderWithProviders(<Header />, { client: clientWithUser(testUser) });
    await waitFor(() =>
      expect(calledPaths(fetchMock)).toEqual(
        expect.arrayContaining(['/api/notifications?limit=10', '/api/notifications/unread-count']),
      ),
    );
    // The user view says they are no mentor: nothing asks for a mentor profile (it would be 404).
    expect(calledPaths(fetchMock)).not.toContain('/api/mentor/profile');
    const nav = mainNav();
    expect(nav.getByRole('link', { name: 'Find Mentors' })).toHaveAttribute('href', '/mentors');
    expect(nav.getByRole('link', { name: 'Group Sessions' })).toHaveAttribute('href', '/group-sessions');
    expect(nav.getByRole('link', { name: 'Messages' })).toHaveAttribute('href', '/messages');
    expect(nav.getByRole('link', { name: 'Favorites' })).toHaveAttribute('href', '/favorites');
    expect(nav.getByRole('link', { name: 'My Dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(nav.queryByRole('link', { name: 'Mentor Dashboard' })).not.toBeInTheDocument();
    expect(nav.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Become a Mentor' })).toHaveAttribute('href', '/become-mentor');
    // The notification bell (its own tests: notification-bell.test.tsx) loads the latest ten and the count.
    // It loads on demand (a signed-out visitor's first page never downloads it).
    expect(await screen.findByRole('button', { name: 'Notifications' })).toBeInTheDocument();
    await waitFor(() =>
      expect(calledPaths(fetchMock)).toEqual(
        expect.arrayContaining(['/api/notifications?limit=10', '/api/notifications/unread-count']),
      ),
    );
  });

  it('mentor (the user view says isMentor): Mentor Dashboard and their own bookings as a client', async () => {
    mockFetch();
    renderWithProviders(<Header />, { client: clientWithUser({ ...testUser, role: 'mentor', isMentor: true }) });
    expect(await mainNav().findByRole('link', { name: 'Mentor Dashboard' })).toHaveAttribute(
      'href',
      '/mentor-dashboard',
    );
    expect(mainNav().queryByRole('link', { name: 'My Dashboard' })).not.toBeInTheDocument();
    expect(mainNav().getByRole('link', { name: 'My Bookings' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByRole('link', { name: 'Become a Mentor' })).not.toBeInTheDocument();
  });

  it('admin (isAdmin exactly true): Admin link', async () => {
    mockFetch({ 'GET /api/mentor/profile': () => jsonResponse(404, { message: 'Not found' }) });
    renderWithProviders(<Header />, { client: clientWithUser({ ...testUser, isAdmin: true, role: 'admin' }) });
    expect(mainNav().getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
    // Admins run the platform: they are not offered to become a mentor.
    expect(screen.queryByRole('link', { name: 'Become a Mentor' })).not.toBeInTheDocument();
  });

  it('an admin who is also a mentor gets both the Admin and the Mentor Dashboard links', () => {
    mockFetch();
    renderWithProviders(<Header />, {
      client: clientWithUser({ ...testUser, isAdmin: true, role: 'admin', isMentor: true }),
    });
    expect(mainNav().getByRole('link', { name: 'Admin' })).toHaveAttribute('href', '/admin');
    expect(mainNav().getByRole('link', { name: 'Mentor Dashboard' })).toHaveAttribute('href', '/mentor-dashboard');
  });

  it('logs out: POST /api/logout, clears the cache, opens /auth', async () => {
    const fetchMock = mockFetch({
      'GET /api/mentor/profile': () => jsonResponse(404, { message: 'Not found' }),
      'POST /api/logout': () => jsonResponse(200, { message: 'Logged out' }),
    });
    const { client } = renderWithProviders(<Header />, { client: clientWithUser(testUser) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Account menu/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('/auth'));
    expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/logout' && init?.method === 'POST')).toBe(true);
    expect(client.getQueryData(AUTH_USER_KEY)).toBeUndefined();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import type { Notification } from '@/lib/notifications';
import { NotificationBell } from './notification-bell';

afterEach(() => vi.unstubAllGlobals());

function Location() {
  return <p data-testid="location">{useLocation().pathname}</p>;
}

const notifications: Notification[] = [
  {
    id: 'n1',
    type: 'booking_confirmed',
    title: 'Booking confirmed',
    message: 'Your session with Luna is confirmed.',
    isRead: false,
    createdAt: '2025-03-09T14:05:00Z',
    actionUrl: '/dashboard',
  },
  {
    id: 'n2',
    // A kind newer than this client's union: the bell must still show it.
    type: 'cosmic_event' as string as Notification['type'],
    title: 'Something new',
    message: 'A type this app does not know yet.',
    isRead: true,
    createdAt: '2025-03-08T10:00:00Z',
    actionUrl: null,
  },
];

function renderBell(count: number, list: Notification[] | (() => Response) = notifications) {
  const fetchMock = mockFetch({
    'GET /api/notifications/unread-count': () => jsonResponse(200, { count }),
    'GET /api/notifications?limit=10': typeof list === 'function' ? list : () => jsonResponse(200, list),
    'PUT /api/notifications/n1/read': () => jsonResponse(200, { ...notifications[0], isRead: true }),
  });
  renderWithProviders(
    <>
      <NotificationBell />
      <Location />
    </>,
    { client: clientWithUser(testUser), path: '/mentors' },
  );
  return fetchMock;
}

describe('NotificationBell', () => {
  it.each([
    [1, '1'],
    [99, '99'],
    [100, '99+'],
    [2500, '99+'],
  ])('shows %i unread as %s', async (count, shown) => {
    renderBell(count);
    const badge = await screen.findByTestId('notification-badge');
    expect(badge.textContent).toBe(shown);
    expect(screen.getByRole('button', { name: `Notifications, ${shown} unread` })).toBeInTheDocument();
  });

  it('shows no badge with nothing unread', async () => {
    const fetchMock = renderBell(0);
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/notifications/unread-count'),
    );
    expect(screen.queryByTestId('notification-badge')).not.toBeInTheDocument();
  });

  it('lists the latest notifications; clicking an unread one marks it read and follows its actionUrl', async () => {
    const fetchMock = renderBell(1);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Notifications/ }));
    const items = await screen.findAllByRole('menuitem');
    // Two notifications, then the link to the full list.
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Unread: Booking confirmed');
    expect(items[0]).toHaveTextContent('Mar 09, 2025');
    expect(items[1]).toHaveTextContent('Something new');
    expect(items[1]).not.toHaveTextContent('Unread');
    // An unknown type gets the default bell icon.
    expect(items[1].querySelector('svg.lucide-bell')).not.toBeNull();
    expect(items[0].querySelector('svg.lucide-calendar-check')).not.toBeNull();
    expect(within(items[2]).getByText('View all notifications').closest('a')).toHaveAttribute('href', '/notifications');

    await user.click(items[0]);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(fetchMock).toHaveBeenCalledWith('/api/notifications/n1/read', expect.objectContaining({ method: 'PUT' }));
  });

  it('clicking a read one without actionUrl neither calls the api nor navigates', async () => {
    const fetchMock = renderBell(0);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Notifications/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Something new/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/mentors');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
  });

  it("says 'Failed to fetch notifications' when the list cannot be loaded", async () => {
    renderBell(0, () => new Response('', { status: 500, statusText: 'Internal Server Error' }));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Notifications/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch notifications');
  });

  it("says 'No notifications yet' for an empty list", async () => {
    renderBell(0, []);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /^Notifications/ }));
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
  });
});

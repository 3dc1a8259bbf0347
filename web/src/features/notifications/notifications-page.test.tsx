import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '@/lib/format';
import type { Notification } from '@/lib/notifications';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { NotificationsPage } from './notifications-page';

let success: ReturnType<typeof vi.spyOn>;
let error: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  success = vi.spyOn(toast, 'success').mockImplementation(() => 1);
  error = vi.spyOn(toast, 'error').mockImplementation(() => 1);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const LIST = 'GET /api/notifications?limit=100';
const COUNT = 'GET /api/notifications/unread-count';

function notification(id: string, isRead: boolean, extra: Partial<Notification> = {}): Notification {
  return {
    id,
    type: 'booking_confirmed',
    title: `Title ${id}`,
    message: `Message ${id}`,
    isRead,
    createdAt: '2025-03-09T15:30:00Z',
    actionUrl: null,
    ...extra,
  };
}

function Location() {
  return <p data-testid="location">{useLocation().pathname}</p>;
}

function renderPage() {
  return renderWithProviders(
    <>
      <NotificationsPage />
      <Location />
    </>,
    { client: clientWithUser(testUser), path: '/notifications' },
  );
}

function paths(fetchMock: ReturnType<typeof mockFetch>, method = 'GET') {
  return fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === method).map(([url]) => String(url));
}

describe('NotificationsPage', () => {
  it('shows tabs All, Unread and Read with counts, and the unread ones highlighted', async () => {
    const list = [notification('a', false), notification('b', false), notification('c', true)];
    mockFetch({
      [LIST]: () => jsonResponse(200, list),
      [COUNT]: () => jsonResponse(200, { count: list.filter((n) => !n.isRead).length }),
    });
    renderPage();
    const user = userEvent.setup();

    expect(await screen.findByRole('tab', { name: 'All (3)' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Unread (2)' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Read (1)' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Mark all as read (2)' })).toBeEnabled();
    const all = screen.getByRole('list', { name: 'All notifications' });
    expect(within(all).getAllByRole('listitem')).toHaveLength(3);
    expect(within(all).getByText('Title a').closest('[data-unread]')).not.toBeNull();
    expect(within(all).getByText('Title c').closest('[data-unread]')).toBeNull();
    // MMM dd, yyyy h:mm a, in the browser's zone.
    expect(within(all).getAllByText(formatDateTime('2025-03-09T15:30:00Z'))).toHaveLength(3);
    expect(formatDateTime('2025-03-09T15:30:00Z')).toMatch(/^Mar \d{2}, 2025 \d{1,2}:30 [AP]M$/);

    await user.click(screen.getByRole('tab', { name: 'Read (1)' }));
    const read = screen.getByRole('list', { name: 'Read notifications' });
    expect(within(read).getByText('Title c')).toBeInTheDocument();
    expect(within(read).queryByText('Title a')).not.toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Unread (2)' }));
    const unread = screen.getByRole('list', { name: 'Unread notifications' });
    expect(within(unread).getAllByRole('listitem')).toHaveLength(2);
  });

  it("'Mark all as read (n)' marks every one read, says so and reloads list and count", async () => {
    let list = [notification('a', false), notification('b', true)];
    const fetchMock = mockFetch({
      [LIST]: () => jsonResponse(200, list),
      [COUNT]: () => jsonResponse(200, { count: list.filter((n) => !n.isRead).length }),
      'PUT /api/notifications/read-all': () => {
        list = list.map((n) => ({ ...n, isRead: true }));
        return jsonResponse(200, { message: 'Done', count: 1 });
      },
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Mark all as read (1)' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('All notifications marked as read'));
    expect(await screen.findByRole('button', { name: 'Mark all as read (0)' })).toBeDisabled();
    expect(screen.getByRole('tab', { name: 'Unread (0)' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Unread (0)' }));
    expect(screen.getByText('No unread notifications')).toBeInTheDocument();
    expect(paths(fetchMock).filter((p) => p === '/api/notifications?limit=100')).toHaveLength(2);
    expect(paths(fetchMock).filter((p) => p === '/api/notifications/unread-count')).toHaveLength(2);
  });

  it('deletes one (toast "Notification deleted") and shows the server message when that fails', async () => {
    let list = [notification('a', true), notification('b', true)];
    let failDelete = false;
    const fetchMock = mockFetch({
      [LIST]: () => jsonResponse(200, list),
      [COUNT]: () => jsonResponse(200, { count: 0 }),
      'DELETE /api/notifications/a': () => {
        list = list.filter((n) => n.id !== 'a');
        return jsonResponse(200, { message: 'Notification deleted' });
      },
      'DELETE /api/notifications/b': () =>
        failDelete ? new Response('', { status: 500, statusText: 'Internal Server Error' }) : jsonResponse(200, {}),
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete notification: Title a' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Notification deleted'));
    await waitFor(() => expect(screen.queryByText('Title a')).not.toBeInTheDocument());
    expect(paths(fetchMock, 'DELETE')).toEqual(['/api/notifications/a']);

    failDelete = true;
    await user.click(screen.getByRole('button', { name: 'Delete notification: Title b' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Error', { description: 'Failed to delete notification' }));
  });

  it('clicking an unread one marks it read and follows its actionUrl', async () => {
    const fetchMock = mockFetch({
      [LIST]: () => jsonResponse(200, [notification('a', false, { actionUrl: '/dashboard' })]),
      [COUNT]: () => jsonResponse(200, { count: 1 }),
      'PUT /api/notifications/a/read': () => jsonResponse(200, notification('a', true)),
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Title a/ }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(paths(fetchMock, 'PUT')).toEqual(['/api/notifications/a/read']);
  });

  it("says 'Failed to mark all notifications as read' when that fails", async () => {
    mockFetch({
      [LIST]: () => jsonResponse(200, [notification('a', false)]),
      [COUNT]: () => jsonResponse(200, { count: 1 }),
      'PUT /api/notifications/read-all': () => new Response('', { status: 502, statusText: 'Bad Gateway' }),
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Mark all as read (1)' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Error', { description: 'Failed to mark all notifications as read' }),
    );
  });

  it("shows the empty texts: 'No notifications yet', 'No unread notifications', 'No read notifications'", async () => {
    mockFetch({ [LIST]: () => jsonResponse(200, []), [COUNT]: () => jsonResponse(200, { count: 0 }) });
    renderPage();
    const user = userEvent.setup();
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Unread (0)' }));
    expect(screen.getByText('No unread notifications')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Read (0)' }));
    expect(screen.getByText('No read notifications')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all as read (0)' })).toBeDisabled();
  });

  it("shows 'Unable to Load Notifications' with Retry, which loads again", async () => {
    let fail = true;
    mockFetch({
      [LIST]: () =>
        fail
          ? new Response('', { status: 500, statusText: 'Internal Server Error' })
          : jsonResponse(200, [notification('a', true)]),
      [COUNT]: () => jsonResponse(200, { count: 0 }),
    });
    renderPage();
    const user = userEvent.setup();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Unable to Load Notifications');
    expect(alert).toHaveTextContent('Failed to fetch notifications');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Title a')).toBeInTheDocument();
  });
});

import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeProvider } from '@/lib/realtime';
import { FakeSocket } from '@/testing/fake-socket';
import { clientWithUser, jsonResponse, mockFetch, testUser } from '@/testing/test-utils';
import { UnreadMessagesBadge } from './unread-messages-badge';

beforeEach(() => FakeSocket.install());
afterEach(() => vi.unstubAllGlobals());

function renderBadge() {
  render(
    <QueryClientProvider client={clientWithUser(testUser)}>
      <RealtimeProvider>
        <UnreadMessagesBadge />
      </RealtimeProvider>
    </QueryClientProvider>,
  );
}

describe('UnreadMessagesBadge', () => {
  it('shows the count, and 99+ above 99', async () => {
    mockFetch({ 'GET /api/messages/unread-count': () => jsonResponse(200, { count: 100 }) });
    renderBadge();
    expect(await screen.findByTestId('messages-badge')).toHaveTextContent('99+');
  });

  it('shows 99 as it is and nothing for zero', async () => {
    let count = 99;
    mockFetch({ 'GET /api/messages/unread-count': () => jsonResponse(200, { count }) });
    renderBadge();
    expect(await screen.findByTestId('messages-badge')).toHaveTextContent(/^99 unread$/);
    count = 0;
    act(() => FakeSocket.last.open());
    act(() => FakeSocket.last.receive('conversationRead', { conversationId: 'c1', readerId: testUser.id, count: 99 }));
    await waitFor(() => expect(screen.queryByTestId('messages-badge')).not.toBeInTheDocument());
  });

  it('refetches when a message arrives', async () => {
    let count = 1;
    const fetchMock = mockFetch({ 'GET /api/messages/unread-count': () => jsonResponse(200, { count }) });
    renderBadge();
    expect(await screen.findByTestId('messages-badge')).toHaveTextContent('1');
    count = 2;
    act(() => FakeSocket.last.open());
    act(() => FakeSocket.last.receive('messageReceived', { id: 'm1', conversationId: 'c1', senderId: 'x' }));
    await waitFor(() => expect(screen.getByTestId('messages-badge')).toHaveTextContent('2'));
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/messages/unread-count')).toHaveLength(2);
  });
});

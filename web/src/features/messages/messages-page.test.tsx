import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { toast, Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CallProvider } from '@/lib/calls/call-provider';
import { RealtimeProvider } from '@/lib/realtime';
import { FakeSocket } from '@/testing/fake-socket';
import { clientWithUser, jsonResponse, mockFetch, testUser } from '@/testing/test-utils';
import type { ChatMessage, Conversation } from './api';
import { MessagesPage } from './messages-page';
import { MessagesRealtimeSync } from './realtime-sync';

const me = { id: testUser.id, firstName: 'Ada', lastName: 'Lovelace', profileImageUrl: null };
const luna = { id: 'u-luna', firstName: 'Luna', lastName: 'Star', profileImageUrl: null };

const conversation: Conversation = {
  id: 'c1',
  mentorId: 'm1',
  userId: me.id,
  bookingId: null,
  mentor: { id: 'm1', userId: luna.id, displayName: 'Luna Star', profileImageUrl: null, user: luna },
  user: me,
  unreadCount: 1,
  lastMessageAt: '2026-01-01T10:01:00Z',
  lastMessage: { content: 'Welcome, Ada', senderId: luna.id, createdAt: '2026-01-01T10:01:00Z' },
  createdAt: '2026-01-01T09:00:00Z',
};

function message(
  id: string,
  sender: typeof me,
  content: string,
  createdAt: string,
  extra: Partial<ChatMessage> = {},
): ChatMessage {
  return {
    id,
    conversationId: 'c1',
    senderId: sender.id,
    sender,
    content,
    messageType: 'text',
    isRead: false,
    createdAt,
    clientId: null,
    ...extra,
  };
}

const history = [
  message('m1', me, 'Hello Luna', '2026-01-01T10:00:00Z', { isRead: true }),
  message('m2', luna, 'Welcome, Ada', '2026-01-01T10:01:00Z'),
];

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderPage(path: string) {
  const client = clientWithUser(testUser);
  render(
    <QueryClientProvider client={client}>
      <RealtimeProvider>
        <MemoryRouter initialEntries={[path]}>
          <MessagesRealtimeSync />
          <CallProvider>
            <Routes>
              <Route path="/messages" element={<MessagesPage />} />
            </Routes>
            <Where />
          </CallProvider>
        </MemoryRouter>
      </RealtimeProvider>
      <Toaster />
    </QueryClientProvider>,
  );
  return client;
}

function api(extra: NonNullable<Parameters<typeof mockFetch>[0]> = {}) {
  return mockFetch({
    'GET /api/conversations': () => jsonResponse(200, [conversation]),
    'GET /api/conversations/c1/messages?limit=50&offset=0': () => jsonResponse(200, history),
    'GET /api/messages/unread-count': () => jsonResponse(200, { count: 1 }),
    ...extra,
  });
}

beforeEach(() => FakeSocket.install());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const thread = () => within(screen.getByRole('list', { name: 'Messages' }));
const threadLoaded = async () =>
  within(await screen.findByRole('list', { name: 'Messages' })).findByText('Welcome, Ada');

describe('MessagesPage', () => {
  it('lists conversations with the other party, last message and unread badge', async () => {
    api();
    renderPage('/messages');
    const list = within(await screen.findByRole('list', { name: 'Conversations' }));
    expect(list.getByText('Luna Star')).toBeInTheDocument();
    expect(list.getByText('Welcome, Ada')).toBeInTheDocument();
    expect(list.getByTestId('conversation-unread')).toHaveTextContent('1');
    expect(list.getByText('LS')).toBeInTheDocument();
  });

  it('opens a thread: joins it, marks it read, shows grouped messages and the read receipt', async () => {
    api();
    renderPage('/messages?conversation=c1');
    act(() => FakeSocket.last.open());
    expect(await threadLoaded()).toBeInTheDocument();
    expect(thread().getByText('Hello Luna')).toBeInTheDocument();
    expect(screen.getByTestId('message-status')).toHaveTextContent('Read');
    await waitFor(() => expect(FakeSocket.last.framesOf('joinConversation')).toEqual([{ conversationId: 'c1' }]));
    await waitFor(() => expect(FakeSocket.last.framesOf('markConversationRead')).toEqual([{ conversationId: 'c1' }]));
  });

  it('shows "Failed to fetch messages" when the thread cannot load', async () => {
    api({ 'GET /api/conversations/c1/messages?limit=50&offset=0': () => jsonResponse(500, { message: 'x' }) });
    renderPage('/messages?conversation=c1');
    expect(await screen.findByText('Failed to fetch messages')).toBeInTheDocument();
  });

  it('shows "Failed to fetch conversations" when the list cannot load', async () => {
    api({ 'GET /api/conversations': () => jsonResponse(500, { message: 'x' }) });
    renderPage('/messages');
    expect(await screen.findByText('Failed to fetch conversations')).toBeInTheDocument();
  });

  it('sends over the socket with a clientId, pending until the server acknowledges it', async () => {
    api();
    renderPage('/messages?conversation=c1');
    act(() => FakeSocket.last.open());
    await threadLoaded();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), '  See you soon  {Enter}');
    const [frame] = FakeSocket.last.framesOf('sendMessage');
    expect(frame).toMatchObject({ conversationId: 'c1', content: 'See you soon', messageType: 'text' });
    expect(typeof frame.clientId).toBe('string');
    expect(screen.getByText('Sending…')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('');
    expect(FakeSocket.last.framesOf('startTyping')).toEqual([{ conversationId: 'c1' }]);
    expect(FakeSocket.last.framesOf('stopTyping')).toEqual([{ conversationId: 'c1' }]);

    act(() =>
      FakeSocket.last.receive(
        'messageReceived',
        message('m3', me, 'See you soon', '2026-01-01T10:02:00Z', { clientId: frame.clientId as string }),
      ),
    );
    expect(screen.queryByText('Sending…')).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('message-status')).toHaveTextContent('Sent'));
    expect(thread().getAllByText('See you soon')).toHaveLength(1);

    act(() => FakeSocket.last.receive('conversationRead', { conversationId: 'c1', readerId: luna.id, count: 1 }));
    await waitFor(() => expect(screen.getByTestId('message-status')).toHaveTextContent('Read'));
  });

  it('keeps a message typed offline and sends it once when the socket is back', async () => {
    api();
    renderPage('/messages?conversation=c1');
    await threadLoaded();
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Offline hello{Enter}');
    expect(screen.getByText('Sending…')).toBeInTheDocument();
    expect(FakeSocket.last.sent).toEqual([]);
    act(() => FakeSocket.last.open());
    expect(FakeSocket.last.framesOf('sendMessage').map((d) => d.content)).toEqual(['Offline hello']);
  });

  it('shows who is typing and hides it when they stop', async () => {
    api();
    renderPage('/messages?conversation=c1');
    act(() => FakeSocket.last.open());
    await threadLoaded();
    act(() => FakeSocket.last.receive('userTyping', { conversationId: 'c1', userId: luna.id, isTyping: true }));
    expect(screen.getByText('Luna is typing…')).toBeInTheDocument();
    act(() => FakeSocket.last.receive('userTyping', { conversationId: 'c1', userId: luna.id, isTyping: false }));
    expect(screen.queryByText('Luna is typing…')).not.toBeInTheDocument();
  });

  it('a message from the other party arrives live', async () => {
    api();
    renderPage('/messages?conversation=c1');
    act(() => FakeSocket.last.open());
    await threadLoaded();
    act(() =>
      FakeSocket.last.receive('messageReceived', message('m9', luna, 'Are you there?', '2026-01-01T10:03:00Z')),
    );
    expect(await thread().findByText('Are you there?')).toBeInTheDocument();
  });

  it('?mentor= finds or creates the conversation, says so and opens it', async () => {
    const fetchMock = api({
      'GET /api/auth/user': () => jsonResponse(200, testUser),
      'POST /api/conversations': () => jsonResponse(201, conversation),
    });
    renderPage('/messages?mentor=m1&booking=b1');
    expect(await screen.findByText('Conversation started successfully!')).toBeInTheDocument();
    expect(screen.getByText('Success')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/messages?conversation=c1&booking=b1'),
    );
    const post = fetchMock.mock.calls.find(([url, init]) => url === '/api/conversations' && init?.method === 'POST');
    expect(JSON.parse(String(post![1]!.body))).toEqual({ mentorId: 'm1', bookingId: 'b1' });
  });

  it('?mentor= opening the conversation they already have says nothing about starting one', async () => {
    api({
      'GET /api/auth/user': () => jsonResponse(200, testUser),
      'POST /api/conversations': () => jsonResponse(200, conversation),
    });
    const success = vi.spyOn(toast, 'success');
    renderPage('/messages?mentor=m1');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/messages?conversation=c1'));
    await threadLoaded();
    expect(success).not.toHaveBeenCalled();
    success.mockRestore();
  });

  it("disables 'Video call' outside the booking's window, saying why and when it opens", async () => {
    const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
    const windowOf = (id: string, start: number, status = 'confirmed') => ({
      bookingId: id,
      status,
      opensAt: inMinutes(start - 15),
      closesAt: inMinutes(start + 60),
      isOpen: false,
    });
    api({
      'GET /api/bookings/later/video-window': () => jsonResponse(200, windowOf('later', 120)),
      'GET /api/bookings/soon/video-window': () => jsonResponse(200, windowOf('soon', 10)),
      'GET /api/bookings/pending/video-window': () => jsonResponse(200, windowOf('pending', 10, 'pending')),
    });
    renderPage('/messages?conversation=c1&booking=later');
    act(() => FakeSocket.last.open());
    await threadLoaded();
    const button = () => screen.getByRole('button', { name: /Video call/ });
    const reason = await screen.findByTestId('video-call-closed');
    expect(reason).toHaveTextContent(
      /^The video call opens .+ at \d{1,2}:\d{2} (AM|PM), 15 minutes before the session\.$/,
    );
    expect(button()).toBeDisabled();
    expect(button()).toHaveAccessibleDescription(reason.textContent ?? '');
    // Nothing goes to the server: the refusal is never a 'Connection Error'.
    expect(FakeSocket.last.framesOf('initiateCall')).toEqual([]);
  });

  it("says a refusal by a rule as it is, and only a fault of the server as 'Connection Error'", async () => {
    api();
    renderPage('/messages?conversation=c1');
    act(() => FakeSocket.last.open());
    await threadLoaded();
    const refusal = 'Video sessions open 15 minutes before the start and close at the end of the session';
    act(() => FakeSocket.last.receive('error', { message: refusal, event: 'initiateCall', code: 'validation' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(screen.queryByText('Connection Error')).not.toBeInTheDocument();
    act(() =>
      FakeSocket.last.receive('error', { message: 'Something went wrong.', event: 'sendMessage', code: 'internal' }),
    );
    expect(await screen.findByText('Connection Error')).toBeInTheDocument();
  });

  it('?user= that fails says to log in again', async () => {
    api({
      'GET /api/auth/user': () => jsonResponse(401, { message: 'Unauthorized' }),
    });
    renderPage('/messages?user=u9');
    expect(await screen.findByText('Failed to create conversation. Please try logging in again.')).toBeInTheDocument();
  });

  it('startCall=true starts the call 0.5 s after the thread opens, with the booking', async () => {
    api();
    renderPage('/messages?conversation=c1&booking=b1&startCall=true');
    act(() => FakeSocket.last.open());
    await threadLoaded();
    await waitFor(() =>
      expect(FakeSocket.last.framesOf('initiateCall')).toEqual([{ conversationId: 'c1', bookingId: 'b1' }]),
    );
  });

  it('loads the next older page when scrolled to the top, keeping the view where it was', async () => {
    const page = (from: number) =>
      Array.from({ length: 50 }, (_, i) =>
        message(`p${from + i}`, luna, `older ${from + i}`, new Date(Date.UTC(2025, 11, 1, 0, from + i)).toISOString(), {
          isRead: true,
        }),
      );
    const newest = [...page(50), ...history];
    const fetchMock = api({
      'GET /api/conversations/c1/messages?limit=50&offset=0': () => jsonResponse(200, newest.slice(-50)),
      'GET /api/conversations/c1/messages?limit=50&offset=50': () => jsonResponse(200, page(0)),
    });
    renderPage('/messages?conversation=c1');
    await threadLoaded();
    const scroller = screen.getByTestId('message-scroller');
    let height = 1000;
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, get: () => height });
    Object.defineProperty(scroller, 'clientHeight', { configurable: true, get: () => 400 });
    scroller.scrollTop = 10;
    act(() => {
      scroller.dispatchEvent(new Event('scroll'));
    });
    height = 2000;
    expect(await thread().findByText('older 0')).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/conversations/c1/messages?limit=50&offset=50');
    // The same messages stay in view: the new content above pushes the position down by its height.
    await waitFor(() => expect(scroller.scrollTop).toBe(1010));
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONNECT_TIMEOUT_MS } from './timing';
import { FakeSocket } from '@/testing/fake-socket';
import { RealtimeClient, realtimeUrl } from './client';

let client: RealtimeClient;

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.install();
  // random 0.5: the waits are exactly 1 s, 2 s, 4 s, 5 s, ...
  client = new RealtimeClient({ url: 'ws://app.test/api/ws', random: () => 0.5 });
});

afterEach(() => {
  client.stop();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('realtimeUrl', () => {
  it('is same-origin /api/ws, wss on https', () => {
    expect(realtimeUrl({ protocol: 'https:', host: 'mentors.example' })).toBe('wss://mentors.example/api/ws');
    expect(realtimeUrl({ protocol: 'http:', host: 'localhost:5173' })).toBe('ws://localhost:5173/api/ws');
  });
});

describe('RealtimeClient', () => {
  it('opens one socket on start and reports connected and disconnected', () => {
    const states: boolean[] = [];
    client.onStatus((connected) => states.push(connected));
    client.start();
    expect(FakeSocket.instances).toHaveLength(1);
    expect(FakeSocket.last.url).toBe('ws://app.test/api/ws');
    FakeSocket.last.open();
    expect(client.connected).toBe(true);
    FakeSocket.last.drop();
    expect(client.connected).toBe(false);
    expect(states).toEqual([true, false]);
  });

  it('reconnects after 1 s, 2 s, 4 s, 5 s, 5 s ... and resets the schedule once connected', () => {
    client.start();
    FakeSocket.last.drop();
    const waits = [1_000, 2_000, 4_000, 5_000, 5_000, 5_000];
    for (const [i, wait] of waits.entries()) {
      vi.advanceTimersByTime(wait - 1);
      expect(FakeSocket.instances).toHaveLength(i + 1);
      vi.advanceTimersByTime(1);
      expect(FakeSocket.instances).toHaveLength(i + 2);
      FakeSocket.last.drop();
    }
    vi.advanceTimersByTime(5_000);
    FakeSocket.last.open();
    FakeSocket.last.drop();
    const count = FakeSocket.instances.length;
    vi.advanceTimersByTime(1_000);
    expect(FakeSocket.instances).toHaveLength(count + 1);
  });

  it('abandons an attempt that has not opened after 20 s and tries again', () => {
    client.start();
    const first = FakeSocket.last;
    vi.advanceTimersByTime(CONNECT_TIMEOUT_MS - 1);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(first.readyState).toBe(FakeSocket.CLOSED);
    vi.advanceTimersByTime(1_000);
    expect(FakeSocket.instances).toHaveLength(2);
  });

  it('is connected only once the server says ready, and gives up on a socket that never does', () => {
    const states: boolean[] = [];
    client.onStatus((connected) => states.push(connected));
    client.start();
    FakeSocket.last.upgrade();
    expect(client.connected).toBe(false);
    expect(client.send('startTyping', { conversationId: 'c1' })).toBe(false);
    FakeSocket.last.receive('ready', { userId: 'me' });
    expect(client.connected).toBe(true);
    expect(states).toEqual([true]);

    FakeSocket.last.drop();
    vi.advanceTimersByTime(1_000);
    const silent = FakeSocket.last;
    silent.upgrade();
    vi.advanceTimersByTime(CONNECT_TIMEOUT_MS);
    expect(silent.readyState).toBe(FakeSocket.CLOSED);
    expect(client.connected).toBe(false);
  });

  it('stop closes the socket and never reconnects', () => {
    client.start();
    FakeSocket.last.open();
    client.stop();
    expect(FakeSocket.last.readyState).toBe(FakeSocket.CLOSED);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(client.connected).toBe(false);
  });

  it('sends typed frames and delivers typed events to subscribers', () => {
    client.start();
    FakeSocket.last.open();
    expect(client.send('joinConversation', { conversationId: 'c1' })).toBe(true);
    expect(FakeSocket.last.frames()).toEqual([{ event: 'joinConversation', data: { conversationId: 'c1' } }]);

    const typing = vi.fn();
    const off = client.on('userTyping', typing);
    FakeSocket.last.receive('userTyping', { conversationId: 'c1', userId: 'u2', isTyping: true });
    expect(typing).toHaveBeenCalledWith({ conversationId: 'c1', userId: 'u2', isTyping: true });
    off();
    FakeSocket.last.receive('userTyping', { conversationId: 'c1', userId: 'u2', isTyping: false });
    expect(typing).toHaveBeenCalledTimes(1);
  });

  it('ignores frames that are not JSON events', () => {
    client.start();
    FakeSocket.last.open();
    const handler = vi.fn();
    client.on('error', handler);
    FakeSocket.last.onmessage?.(new MessageEvent('message', { data: 'not json' }));
    expect(handler).not.toHaveBeenCalled();
  });

  it('does not send while offline', () => {
    client.start();
    expect(client.send('startTyping', { conversationId: 'c1' })).toBe(false);
  });

  it('tells reconnect listeners about every connection after the first', () => {
    const reconnected = vi.fn();
    client.onReconnect(reconnected);
    client.start();
    FakeSocket.last.open();
    expect(reconnected).not.toHaveBeenCalled();
    FakeSocket.last.drop();
    vi.advanceTimersByTime(1_000);
    FakeSocket.last.open();
    expect(reconnected).toHaveBeenCalledTimes(1);
  });
});

describe('the outbox', () => {
  it('keeps a message typed offline and sends it once when back, with its clientId', () => {
    client.start();
    const entry = client.sendMessage({ conversationId: 'c1', content: 'hello' });
    expect(entry.clientId).toMatch(/\S{16,}/);
    expect(client.outbox).toHaveLength(1);
    expect(FakeSocket.last.sent).toEqual([]);

    FakeSocket.last.open();
    expect(FakeSocket.last.framesOf('sendMessage')).toEqual([
      { conversationId: 'c1', content: 'hello', messageType: 'text', clientId: entry.clientId },
    ]);
    // Later sends of other messages do not repeat it on the same connection.
    client.sendMessage({ conversationId: 'c1', content: 'second' });
    expect(FakeSocket.last.framesOf('sendMessage').map((d) => d.content)).toEqual(['hello', 'second']);
  });

  it('drops a message from the outbox on its messageReceived ack', () => {
    client.start();
    FakeSocket.last.open();
    const changes = vi.fn();
    client.onOutbox(changes);
    const entry = client.sendMessage({ conversationId: 'c1', content: 'hi' });
    FakeSocket.last.receive('messageReceived', {
      id: 'm1',
      conversationId: 'c1',
      senderId: 'me',
      content: 'hi',
      clientId: entry.clientId,
    });
    expect(client.outbox).toEqual([]);
    expect(changes).toHaveBeenCalledTimes(2);
  });

  it('re-sends an unacknowledged message once on the next connection, with the same clientId', () => {
    client.start();
    FakeSocket.last.open();
    const entry = client.sendMessage({ conversationId: 'c1', content: 'lost?' });
    FakeSocket.last.drop();
    vi.advanceTimersByTime(1_000);
    const second = FakeSocket.last;
    second.open();
    expect(second.framesOf('sendMessage')).toEqual([
      { conversationId: 'c1', content: 'lost?', messageType: 'text', clientId: entry.clientId },
    ]);
    second.receive('messageReceived', { id: 'm1', conversationId: 'c1', clientId: entry.clientId });
    second.drop();
    vi.advanceTimersByTime(1_000);
    FakeSocket.last.open();
    expect(FakeSocket.last.framesOf('sendMessage')).toEqual([]);
  });
});

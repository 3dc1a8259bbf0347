import { CONNECT_TIMEOUT_MS, RECONNECT_MAX_ATTEMPTS, REALTIME_PING_INTERVAL_MS } from './timing';
import { reconnectDelay } from './backoff';
import { parseFrame, type ClientEvents, type ServerEvents } from './events';

/** A message typed by this user and not yet acknowledged by the server (its own messageReceived). */
export type OutboxEntry = {
  clientId: string;
  conversationId: string;
  content: string;
  messageType: string;
  /** When it was typed (ISO), to place it in the thread. */
  createdAt: string;
};

type Handler<T> = (data: T) => void;

/** WebSocket.OPEN (read as a number: tests replace the WebSocket class). */
const SOCKET_OPEN = 1;

export type RealtimeClientOptions = {
  url: string;
  createSocket?: (url: string) => WebSocket;
  random?: () => number;
};

/** The same-origin WebSocket address: wss on https, ws otherwise. */
export function realtimeUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`;
}

/** A random id made once per message, so a message re-sent after a reconnect is stored once. */
export function newClientId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The browser's end of /api/ws: one socket, reconnected with backoff for as long as the client runs,
 * typed send and subscribe, and an outbox of messages kept until the server acknowledges them (a
 * message typed offline goes out once the socket is back; the server stores a clientId once).
 */
export class RealtimeClient {
  private readonly url: string;
  private readonly createSocket: (url: string) => WebSocket;
  private readonly random: () => number;
  private socket: WebSocket | null = null;
  private running = false;
  private attempt = 0;
  private hasConnected = false;
  /** Counts connections, so each outbox entry goes out at most once per connection. */
  private connection = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private connectTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private readonly handlers = new Map<string, Set<Handler<never>>>();
  private readonly statusListeners = new Set<(connected: boolean) => void>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly outboxListeners = new Set<() => void>();
  private outboxEntries: OutboxEntry[] = [];
  private readonly sentOn = new Map<string, number>();
  connected = false;

  constructor({ url, createSocket = (u) => new WebSocket(u), random = Math.random }: RealtimeClientOptions) {
    this.url = url;
    this.createSocket = createSocket;
    this.random = random;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.open();
  }

  /** Closes the socket for good (logout, no user); the outbox is dropped with it. */
  stop(): void {
    this.running = false;
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onclose = socket.onerror = socket.onmessage = null;
      socket.close();
    }
    this.outboxEntries = [];
    this.sentOn.clear();
    this.notifyOutbox();
    this.setConnected(false);
  }

  /** Sends a frame if the socket is open; returns whether it went out. */
  send<E extends keyof ClientEvents>(event: E, data: ClientEvents[E]): boolean {
    const socket = this.socket;
    if (!this.connected || !socket || socket.readyState !== SOCKET_OPEN) return false;
    socket.send(JSON.stringify({ event, data }));
    return true;
  }

  /** Queues a message and sends it now or as soon as the socket is back. */
  sendMessage(input: { conversationId: string; content: string; messageType?: string }): OutboxEntry {
    const entry: OutboxEntry = {
      clientId: newClientId(),
      conversationId: input.conversationId,
      content: input.content,
      messageType: input.messageType ?? 'text',
      createdAt: new Date().toISOString(),
    };
    this.outboxEntries = [...this.outboxEntries, entry];
    this.notifyOutbox();
    this.flushOutbox();
    return entry;
  }

  get outbox(): readonly OutboxEntry[] {
    return this.outboxEntries;
  }

  on<E extends keyof ServerEvents>(event: E, handler: Handler<ServerEvents[E]>): () => void {
    let set = this.handlers.get(event);
    if (!set) {
      set = new Set();
      this.handlers.set(event, set);
    }
    set.add(handler as Handler<never>);
    return () => set.delete(handler as Handler<never>);
  }

  onStatus(listener: (connected: boolean) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Called on every connection after the first (the app then reloads what it may have missed). */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  onOutbox(listener: () => void): () => void {
    this.outboxListeners.add(listener);
    return () => this.outboxListeners.delete(listener);
  }

  private open(): void {
    if (!this.running) return;
    let socket: WebSocket;
    try {
      socket = this.createSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.connectTimer = setTimeout(() => {
      if (this.socket === socket && !this.connected) {
        this.drop(socket);
      }
    }, CONNECT_TIMEOUT_MS);

    socket.onmessage = (message: MessageEvent) => {
      if (this.socket !== socket) return;
      const frame = parseFrame(message.data);
      if (!frame) return;
      // The server says `ready` once this socket receives events: only from then on is anything
      // published reaching it, so only then is the client connected (and reloads what it missed).
      if (frame.event === 'ready' && !this.connected) this.ready();
      this.dispatch(frame.event, frame.data);
    };
    socket.onclose = () => {
      if (this.socket === socket) this.drop(socket);
    };
    socket.onerror = () => {
      // A close event follows an error; reconnection is handled there.
    };
  }

  private ready(): void {
    this.clearConnectTimer();
    this.attempt = 0;
    this.connection += 1;
    this.setConnected(true);
    this.pingTimer = setInterval(() => this.send('ping', {}), REALTIME_PING_INTERVAL_MS);
    this.flushOutbox();
    if (this.hasConnected) this.reconnectListeners.forEach((listener) => listener());
    this.hasConnected = true;
  }

  private drop(socket: WebSocket): void {
    socket.onopen = socket.onclose = socket.onerror = socket.onmessage = null;
    try {
      socket.close();
    } catch {
      // already closed
    }
    if (this.socket === socket) this.socket = null;
    this.clearTimers();
    this.setConnected(false);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (!this.running || this.reconnectTimer) return;
    if (this.attempt >= RECONNECT_MAX_ATTEMPTS) return;
    const delay = reconnectDelay(this.attempt, this.random());
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.open();
    }, delay);
  }

  private dispatch(event: string, data: Record<string, unknown>): void {
    this.handlers.get(event)?.forEach((handler) => {
      try {
        (handler as Handler<unknown>)(data);
      } catch (error) {
        console.error(`realtime handler for ${event} failed`, error);
      }
    });
    if (event === 'messageReceived' && typeof data.clientId === 'string') this.acknowledge(data.clientId);
  }

  private acknowledge(clientId: string): void {
    if (!this.outboxEntries.some((entry) => entry.clientId === clientId)) return;
    this.outboxEntries = this.outboxEntries.filter((entry) => entry.clientId !== clientId);
    this.sentOn.delete(clientId);
    this.notifyOutbox();
  }

  private flushOutbox(): void {
    if (!this.connected) return;
    for (const entry of this.outboxEntries) {
      if (this.sentOn.get(entry.clientId) === this.connection) continue;
      const sent = this.send('sendMessage', {
        conversationId: entry.conversationId,
        content: entry.content,
        messageType: entry.messageType,
        clientId: entry.clientId,
      });
      if (sent) this.sentOn.set(entry.clientId, this.connection);
    }
  }

  private setConnected(connected: boolean): void {
    if (this.connected === connected) return;
    this.connected = connected;
    this.statusListeners.forEach((listener) => listener(connected));
  }

  private notifyOutbox(): void {
    this.outboxListeners.forEach((listener) => listener());
  }

  private clearConnectTimer(): void {
    if (this.connectTimer) clearTimeout(this.connectTimer);
    this.connectTimer = null;
  }

  private clearTimers(): void {
    this.clearConnectTimer();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }
}

/**
 * A stand-in for the browser's WebSocket: tests open, feed and close it by hand and read what the
 * app sent. `FakeSocket.install()` replaces the global class for one test file.
 */
import { vi } from 'vitest';

export class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeSocket[] = [];

  readonly url: string;
  readyState = FakeSocket.CONNECTING;
  sent: string[] = [];
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;

  constructor(url: string) {
    this.url = url;
    FakeSocket.instances.push(this);
  }

  static install(): void {
    FakeSocket.instances = [];
    vi.stubGlobal('WebSocket', FakeSocket);
  }

  static get last(): FakeSocket {
    const socket = FakeSocket.instances.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }

  send(data: string): void {
    if (this.readyState !== FakeSocket.OPEN) throw new Error('send on a socket that is not open');
    this.sent.push(data);
  }

  close(): void {
    this.readyState = FakeSocket.CLOSED;
  }

  /** The server accepts the connection and, like /api/ws, says `ready` once the socket is registered. */
  open(): void {
    this.upgrade();
    this.receive('ready', { userId: 'me' });
  }

  /** The connection opens; the server has not said `ready` yet. */
  upgrade(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.(new Event('open'));
  }

  /** The server sends a frame. */
  receive(event: string, data: unknown): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify({ event, data }) }));
  }

  /** The connection drops. */
  drop(): void {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.(new CloseEvent('close'));
  }

  /** The frames sent so far, parsed. */
  frames(): { event: string; data: Record<string, unknown> }[] {
    return this.sent.map((text) => JSON.parse(text) as { event: string; data: Record<string, unknown> });
  }

  framesOf(event: string): Record<string, unknown>[] {
    return this.frames()
      .filter((frame) => frame.event === event)
      .map((frame) => frame.data);
  }
}

/**
 * The frames of the real-time channel (/api/ws): `{"event": NAME, "data": {...}}` both ways.
 * Every event and its data is generated from the Rust protocol (protocol.gen.ts, from
 * realtime.schema.json); this file only names what the UI uses.
 */

import type { MessageView, NotificationView } from '@/api/model';
import type { ClientEvents, ServerEvents } from './protocol.gen';

export type { CallEndReason, ClientEvents, GroupCallParticipant, GroupCallStream, ServerEvents } from './protocol.gen';
export { CLIENT_EVENT_NAMES, SERVER_EVENT_NAMES } from './protocol.gen';

/** Anyone the UI shows with a name and a photo (a caller, a conversation's party, a group-call member). */
export type Person = {
  id: string;
  firstName?: string | null;
  lastName?: string | null;
  profileImageUrl?: string | null;
};

/** A stored message, as REST and messageReceived both carry it. */
export type ChatMessage = MessageView;

/** A live notification: the same object GET /api/notifications lists. */
export type NotificationEvent = NotificationView;

export type ClientEventName = keyof ClientEvents;
export type ServerEventName = keyof ServerEvents;

/** Parses one incoming frame; null for anything that is not `{event: string, data: object}`. */
export function parseFrame(text: unknown): { event: string; data: Record<string, unknown> } | null {
  if (typeof text !== 'string') return null;
  try {
    const frame: unknown = JSON.parse(text);
    if (!frame || typeof frame !== 'object') return null;
    const { event, data } = frame as { event?: unknown; data?: unknown };
    if (typeof event !== 'string') return null;
    const payload = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
    return { event, data: payload };
  } catch {
    return null;
  }
}

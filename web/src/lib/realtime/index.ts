export { RealtimeClient, realtimeUrl, newClientId, type OutboxEntry } from './client';
export { reconnectDelay } from './backoff';
export type { ChatMessage, ClientEvents, NotificationEvent, Person, ServerEvents } from './events';
export { RealtimeProvider, refreshAfterReconnect, useOutbox, useRealtime, useRealtimeEvent } from './provider';

import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { toast } from 'sonner';
import { CONNECTION_ERROR_TITLE } from './texts';
import { useUser } from '@/lib/auth';
import { messageKeys, notificationKeys } from '@/lib/query-keys';
import { RealtimeClient, realtimeUrl, type OutboxEntry } from './client';
import type { ServerEvents } from './events';

type RealtimeValue = { client: RealtimeClient | null; connected: boolean };

/**
 * Whether an `error` frame reports a fault (the server failed or a service is down, or the frame
 * names no code) rather than a refusal by a rule, which carries the HTTP API's code of it
 * (`validation`, `forbidden`, `not_found`, `conflict`, `rate_limited`, ...).
 */
export function isFault(code: string | undefined | null): boolean {
  return !code || code === 'internal' || code === 'unavailable';
}

const RealtimeContext = createContext<RealtimeValue>({ client: null, connected: false });

/**
 * After a reconnect: reload what a dropped socket may have missed: the open thread from its newest
 * page, the conversation list, the unread counts and the notifications.
 */
export function refreshAfterReconnect(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.resetQueries({ predicate: (query) => messageKeys.isThread(query.queryKey) }),
    queryClient.invalidateQueries({ queryKey: messageKeys.conversations() }),
    queryClient.invalidateQueries({ queryKey: messageKeys.unreadCount() }),
    queryClient.invalidateQueries({ queryKey: notificationKeys.all() }),
    queryClient.invalidateQueries({ queryKey: notificationKeys.unreadCount() }),
  ]);
}

/**
 * Holds the real-time connection: open while someone is signed in, closed on logout or when
 * the user is missing. Components reach it through {@link useRealtime} and {@link useRealtimeEvent}.
 */
export function RealtimeProvider({
  children,
  createClient = () => new RealtimeClient({ url: realtimeUrl() }),
}: {
  children: ReactNode;
  createClient?: () => RealtimeClient;
}) {
  const { user } = useUser();
  const queryClient = useQueryClient();
  const [value, setValue] = useState<RealtimeValue>({ client: null, connected: false });
  const createRef = useRef(createClient);
  const userId = user?.id ?? null;

  useEffect(() => {
    if (!userId) return;
    const client = createRef.current();
    setValue({ client, connected: false });
    const offStatus = client.onStatus((connected) => setValue({ client, connected }));
    const offReconnect = client.onReconnect(() => void refreshAfterReconnect(queryClient));
    const offError = client.on('error', ({ message, code }) => {
      console.warn('realtime error', message);
      // A refusal by a rule (not now, not yours, not allowed) is said as it is; only a fault of
      // the server or the connection is a 'Connection Error'.
      if (isFault(code)) toast.error(CONNECTION_ERROR_TITLE, { description: message });
      else toast.error(message);
    });
    client.start();
    return () => {
      offStatus();
      offReconnect();
      offError();
      client.stop();
      setValue({ client: null, connected: false });
    };
  }, [userId, queryClient]);

  return <RealtimeContext.Provider value={value}>{children}</RealtimeContext.Provider>;
}

/** The connection (null while signed out) and whether it is up. */
export function useRealtime(): RealtimeValue {
  return useContext(RealtimeContext);
}

/** Runs `handler` for every `event` while the component is mounted; the latest handler is always used. */
export function useRealtimeEvent<E extends keyof ServerEvents>(
  event: E,
  handler: (data: ServerEvents[E]) => void,
): void {
  const { client } = useRealtime();
  const handlerRef = useRef(handler);
  useEffect(() => {
    handlerRef.current = handler;
  });
  useEffect(() => {
    if (!client) return;
    return client.on(event, (data) => handlerRef.current(data));
  }, [client, event]);
}

const NO_ENTRIES: readonly OutboxEntry[] = [];

/** Messages of a conversation typed by this user and not yet acknowledged by the server. */
export function useOutbox(conversationId: string | null): OutboxEntry[] {
  const { client } = useRealtime();
  const subscribe = useCallback((onChange: () => void) => (client ? client.onOutbox(onChange) : () => {}), [client]);
  const entries = useSyncExternalStore(subscribe, () => client?.outbox ?? NO_ENTRIES);
  return entries.filter((entry) => entry.conversationId === conversationId);
}

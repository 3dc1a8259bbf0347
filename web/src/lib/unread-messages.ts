/**
 * The header's unread-messages badge: GET /api/messages/unread-count, polled every 30 s and fresh for
 * 25 s, and reloaded at once when a message arrives or is read.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { getUnreadMessageCount } from '@/api/endpoints/messaging/messaging';
import { messageKeys } from './query-keys';
import { useRealtimeEvent } from './realtime/provider';

/** The unread message count is polled every 30 s and kept fresh for 25 s, so each poll refetches. */
export const UNREAD_MESSAGES_POLL_MS = 30_000;
export const UNREAD_MESSAGES_STALE_MS = 25_000;

export const UNREAD_MESSAGES_KEY = messageKeys.unreadCount();

export const unreadMessagesQuery = () =>
  queryOptions({ queryKey: UNREAD_MESSAGES_KEY, queryFn: ({ signal }) => getUnreadMessageCount({ signal }) });

export function useUnreadMessageCount({ enabled = true }: { enabled?: boolean } = {}) {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: UNREAD_MESSAGES_KEY });
  useRealtimeEvent('messageReceived', refresh);
  useRealtimeEvent('messageRead', refresh);
  useRealtimeEvent('conversationRead', refresh);
  return useQuery({
    ...unreadMessagesQuery(),
    select: (data) => data.count,
    refetchInterval: UNREAD_MESSAGES_POLL_MS,
    staleTime: UNREAD_MESSAGES_STALE_MS,
    enabled,
  });
}

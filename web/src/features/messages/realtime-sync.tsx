import { useQueryClient } from '@tanstack/react-query';
import { useUser } from '@/lib/auth';
import { useRealtimeEvent } from '@/lib/realtime';
import { addMessageToCache, markConversationReadInCache, markMessageReadInCache } from './api';

/** Keeps cached threads and the conversation list current with the live message events. */
export function MessagesRealtimeSync() {
  const queryClient = useQueryClient();
  const { user } = useUser();
  useRealtimeEvent('messageReceived', (message) => addMessageToCache(queryClient, message));
  useRealtimeEvent('messageRead', ({ conversationId, messageId }) =>
    markMessageReadInCache(queryClient, conversationId, messageId),
  );
  useRealtimeEvent('conversationRead', ({ conversationId, readerId }) =>
    markConversationReadInCache(queryClient, conversationId, readerId, user?.id),
  );
  return null;
}

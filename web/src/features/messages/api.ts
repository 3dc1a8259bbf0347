/**
 * The conversation calls: the list, one conversation, a thread's pages, find-or-create and mark-read.
 * The keys are lib/query-keys' messageKeys (the real-time channel refreshes the same ones); each
 * read is one `queryOptions` in {@link conversationQueries}.
 */
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { getAuthUser } from '@/api/endpoints/accounts/accounts';
import { getGetVideoWindowUrl, getVideoWindow } from '@/api/endpoints/dashboard/dashboard';
import {
  getConversation,
  getStartConversationUrl,
  listConversations,
  listMessages,
  markConversationRead,
  sendMessage,
} from '@/api/endpoints/messaging/messaging';
import type { ConversationView, StartConversationRequest } from '@/api/model';
import { MESSAGE_PAGE_SIZE } from './constants';
import { apiFetchResponse } from '@/lib/api-fetch';
import { accountKeys, apiKey, messageKeys } from '@/lib/query-keys';
import type { ChatMessage, Person } from '@/lib/realtime';

export type { ChatMessage, Person };

export type Conversation = ConversationView;

export const conversationKeys = {
  list: messageKeys.conversations,
  one: messageKeys.conversation,
  thread: messageKeys.thread,
};

export type ThreadData = InfiniteData<ChatMessage[], number>;

/** How many distinct messages a thread holds: the offset of the next older page. */
export function loadedCount(pages: ChatMessage[][]): number {
  return new Set(pages.flat().map((m) => m.id)).size;
}

export const conversationQueries = {
  list: () =>
    queryOptions({ queryKey: conversationKeys.list(), queryFn: ({ signal }) => listConversations({ signal }) }),
  one: (id: string) =>
    queryOptions({ queryKey: conversationKeys.one(id), queryFn: ({ signal }) => getConversation(id, { signal }) }),
  /** A thread: 50 messages per page, the newest first; older pages are loaded on demand. */
  thread: (conversationId: string) =>
    infiniteQueryOptions({
      queryKey: conversationKeys.thread(conversationId),
      queryFn: ({ pageParam, signal }): Promise<ChatMessage[]> =>
        listMessages(conversationId, { limit: MESSAGE_PAGE_SIZE, offset: pageParam }, { signal }),
      initialPageParam: 0,
      getNextPageParam: (lastPage, allPages) =>
        lastPage.length < MESSAGE_PAGE_SIZE ? undefined : loadedCount(allPages),
    }),
};

export function useConversations() {
  return useQuery(conversationQueries.list());
}

export function useConversation(id: string | null, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...conversationQueries.one(id ?? ''), enabled: enabled && !!id });
}

export function useThread(conversationId: string | null) {
  return useInfiniteQuery({ ...conversationQueries.thread(conversationId ?? ''), enabled: !!conversationId });
}

/** The thread's messages, oldest first, each once. */
export function threadMessages(data: InfiniteData<ChatMessage[], unknown> | undefined): ChatMessage[] {
  if (!data) return [];
  const byId = new Map<string, ChatMessage>();
  for (const page of [...data.pages].reverse()) for (const message of page) byId.set(message.id, message);
  return [...byId.values()].sort(
    (a, b) => new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime() || a.id.localeCompare(b.id),
  );
}

export type StartConversation = StartConversationRequest;

/** The conversation found or made, and whether it is new (201) rather than the one they had (200). */
export type StartedConversation = { conversation: Conversation; created: boolean };

/** POST /api/conversations (find or create), after checking that the session is still there. */
export function useStartConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: StartConversation): Promise<StartedConversation> => {
      const user = await getAuthUser();
      queryClient.setQueryData(accountKeys.user(), user);
      const { data, status } = await apiFetchResponse<Conversation>(getStartConversationUrl(), {
        method: 'POST',
        body: JSON.stringify(input),
      });
      return { conversation: data, created: status === 201 };
    },
    onSuccess: ({ conversation }) => {
      if (conversation?.id) queryClient.setQueryData(conversationKeys.one(conversation.id), conversation);
      void queryClient.invalidateQueries({ queryKey: conversationKeys.list() });
    },
  });
}

/** GET /api/bookings/{id}/video-window: when the booking's call opens and closes. */
export const videoWindowQuery = (bookingId: string) =>
  queryOptions({
    queryKey: apiKey(getGetVideoWindowUrl(bookingId)),
    queryFn: ({ signal }) => getVideoWindow(bookingId, { signal }),
    staleTime: 0,
  });

/** The booking's video window, read when a thread about it opens (none without a booking). */
export function useVideoWindow(bookingId: string | null) {
  return useQuery({ ...videoWindowQuery(bookingId ?? ''), enabled: !!bookingId });
}

/** PUT /api/conversations/{id}/read: the fallback while the socket is down. */
export function markConversationReadRest(conversationId: string) {
  return markConversationRead(conversationId);
}

/** POST /api/conversations/{id}/messages: the fallback send without a socket. */
export function sendMessageRest(conversationId: string, content: string, clientId?: string): Promise<ChatMessage> {
  return sendMessage(conversationId, { content, messageType: 'text', ...(clientId ? { clientId } : {}) });
}

// --- cache updates from real-time events ---------------------------------------------------

/** Puts a received message into its thread (once) and refreshes the list. */
export function addMessageToCache(queryClient: QueryClient, message: ChatMessage): void {
  queryClient.setQueryData<ThreadData>(conversationKeys.thread(message.conversationId), (data) => {
    if (!data || data.pages.length === 0) return data;
    const index = data.pages.findIndex((page) => page.some((m) => m.id === message.id));
    if (index >= 0) {
      return {
        ...data,
        pages: data.pages.map((page, i) => (i === index ? page.map((m) => (m.id === message.id ? message : m)) : page)),
      };
    }
    return { ...data, pages: [[...data.pages[0], message], ...data.pages.slice(1)] };
  });
  void queryClient.invalidateQueries({ queryKey: conversationKeys.list() });
}

function updateThread(
  queryClient: QueryClient,
  conversationId: string,
  update: (message: ChatMessage) => ChatMessage,
): void {
  queryClient.setQueryData<ThreadData>(conversationKeys.thread(conversationId), (data) =>
    data ? { ...data, pages: data.pages.map((page) => page.map(update)) } : data,
  );
}

export function markMessageReadInCache(queryClient: QueryClient, conversationId: string, messageId: string): void {
  updateThread(queryClient, conversationId, (m) => (m.id === messageId && !m.isRead ? { ...m, isRead: true } : m));
}

/** `readerId` read everything the other party sent in the conversation. */
export function markConversationReadInCache(
  queryClient: QueryClient,
  conversationId: string,
  readerId: string,
  myId: string | undefined,
): void {
  updateThread(queryClient, conversationId, (m) => (m.senderId !== readerId && !m.isRead ? { ...m, isRead: true } : m));
  if (readerId === myId) {
    queryClient.setQueryData<Conversation[]>(conversationKeys.list(), (list) =>
      list?.map((c) => (c.id === conversationId ? { ...c, unreadCount: 0 } : c)),
    );
  }
  void queryClient.invalidateQueries({ queryKey: conversationKeys.list() });
}

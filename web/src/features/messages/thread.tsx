import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CircleAlert, Clock, Video } from 'lucide-react';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { PersonAvatar, personName } from '@/components/person-avatar';
import { ReportButton } from '@/components/report-button';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { MESSAGES_TEXT } from './constants';
import { CallScreenSlot, useCall } from '@/lib/calls/call-provider';
import type { User } from '@/lib/auth';
import { formatTime } from '@/lib/format';
import { useOutbox, useRealtime, type OutboxEntry } from '@/lib/realtime';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';
import {
  addMessageToCache,
  markConversationReadInCache,
  markConversationReadRest,
  sendMessageRest,
  threadMessages,
  useThread,
  useVideoWindow,
  type ChatMessage,
  type Conversation,
} from './api';
import { callAvailability } from './video-window';
import { Composer } from './composer';
import { groupMessages } from './grouping';
import { otherParty } from './party';

/** Scrolled this close to the top, the next older page loads. */
const LOAD_OLDER_THRESHOLD_PX = 48;
/** Scrolled this close to the bottom, new messages keep the view at the bottom. */
const STICK_TO_BOTTOM_PX = 96;

type Props = {
  conversation: Conversation;
  me: User;
  typingUserIds: readonly string[];
  bookingId: string | null;
  onBack: () => void;
};

/** The right column: one conversation's messages, typing indicator, composer and its call. */
export function Thread({ conversation, me, typingUserIds, bookingId, onBack }: Props) {
  const queryClient = useQueryClient();
  const { client, connected } = useRealtime();
  const call = useCall();
  const thread = useThread(conversation.id);
  const outbox = useOutbox(conversation.id);
  const messages = useMemo(() => threadMessages(thread.data), [thread.data]);
  const party = otherParty(conversation, me.id);
  const partyTyping = typingUserIds.includes(party.id);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const restore = useRef<{ height: number; top: number } | null>(null);
  const conversationId = conversation.id;

  // The server tells a party about new messages as "seen" only while they view the thread.
  useEffect(() => {
    if (!client || !connected) return;
    client.send('joinConversation', { conversationId });
    return () => {
      client.send('leaveConversation', { conversationId });
    };
  }, [client, connected, conversationId]);

  const newestUnread = [...messages].reverse().find((m) => m.senderId !== me.id && !m.isRead)?.id ?? null;
  useEffect(() => {
    if (!newestUnread) return;
    const markRead = () => {
      if (document.visibilityState === 'hidden') return;
      if (client?.send('markConversationRead', { conversationId })) return;
      markConversationReadRest(conversationId)
        .then(() => markConversationReadInCache(queryClient, conversationId, me.id, me.id))
        .catch(() => {});
    };
    markRead();
    document.addEventListener('visibilitychange', markRead);
    return () => document.removeEventListener('visibilitychange', markRead);
  }, [newestUnread, client, conversationId, me.id, queryClient]);

  useEffect(() => {
    stickToBottom.current = true;
  }, [conversationId]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    if (restore.current) {
      if (thread.isFetchingNextPage) return;
      el.scrollTop = el.scrollHeight - restore.current.height + restore.current.top;
      restore.current = null;
      return;
    }
    if (stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [messages, outbox.length, partyTyping, thread.isFetchingNextPage]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_TO_BOTTOM_PX;
    if (el.scrollTop < LOAD_OLDER_THRESHOLD_PX && thread.hasNextPage && !thread.isFetchingNextPage) {
      restore.current = { height: el.scrollHeight, top: el.scrollTop };
      void thread.fetchNextPage();
    }
  };

  const send = (content: string) => {
    stickToBottom.current = true;
    if (client) {
      client.sendMessage({ conversationId, content });
      return;
    }
    void sendMessageRest(conversationId, content)
      .then((message) => addMessageToCache(queryClient, message))
      .catch(() => {});
  };

  const callHere =
    call.activeCall && (call.activeCall.conversationId === conversationId || call.activeCall.conversationId === null);
  const callBusy = !!call.activeCall || !!call.outgoingConversationId || call.resuming;
  // A call about a booking opens in the booking's window only: the button says when, rather than fail.
  const videoWindow = useVideoWindow(bookingId);
  // The clock ticks, so the button opens on its own when the window does.
  const now = useNow();
  const availability = videoWindow.data ? callAvailability(videoWindow.data, now) : null;
  const closedReason = availability && !availability.open ? availability.reason : null;
  const waitingForWindow = !!bookingId && videoWindow.isLoading;
  const lastOwnId = [...messages].reverse().find((m) => m.senderId === me.id)?.id;

  return (
    <section aria-label={`Conversation with ${party.name}`} className="flex h-full min-h-0 flex-col">
      <header className="flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-3">
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Back to conversations" onClick={onBack}>
          <ArrowLeft aria-hidden="true" className="h-5 w-5" />
        </Button>
        <PersonAvatar person={party.person} name={party.name} imageUrl={party.imageUrl} />
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-semibold text-slate-900">{party.name}</h2>
          <p className="text-xs text-slate-500" aria-live="polite">
            {connected ? '' : 'Reconnecting…'}
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          disabled={callBusy || !connected || !!closedReason || waitingForWindow}
          aria-describedby={closedReason ? 'video-call-closed' : undefined}
          onClick={() => call.startCall(conversationId, bookingId)}
        >
          <Video aria-hidden="true" className="h-4 w-4" />
          {call.outgoingConversationId === conversationId ? 'Calling…' : 'Video call'}
        </Button>
      </header>
      {closedReason && !callHere && (
        <p
          id="video-call-closed"
          data-testid="video-call-closed"
          className="flex items-center gap-2 border-b border-slate-200 bg-amber-50 px-4 py-2 text-xs text-amber-900"
        >
          <Clock aria-hidden="true" className="h-3.5 w-3.5 shrink-0" />
          {closedReason}
        </p>
      )}

      {callHere && (
        <div className="border-b border-slate-200 bg-slate-950 p-2">
          <CallScreenSlot peerName={party.name} />
        </div>
      )}

      <div
        ref={scrollRef}
        onScroll={onScroll}
        data-testid="message-scroller"
        className="min-h-0 flex-1 overflow-y-auto bg-slate-50 px-4 py-4"
      >
        {thread.isFetchingNextPage && (
          <div className="flex justify-center py-2">
            <Spinner label="Loading older messages" className="h-5 w-5 text-indigo-600" />
          </div>
        )}
        {thread.isLoading ? (
          <div className="flex justify-center py-10">
            <Spinner label="Loading messages" className="h-6 w-6 text-indigo-600" />
          </div>
        ) : thread.isError ? (
          <p role="alert" className="flex items-center justify-center gap-2 py-10 text-sm text-rose-700">
            <CircleAlert aria-hidden="true" className="h-4 w-4" />
            {MESSAGES_TEXT.messagesFailed}
          </p>
        ) : messages.length === 0 && outbox.length === 0 ? (
          <p className="py-10 text-center text-sm text-slate-500">No messages yet. Say hello!</p>
        ) : (
          <ol aria-label="Messages" className="space-y-3">
            {groupMessages(messages).map((group) => (
              <MessageGroup key={group[0].id} group={group} mine={group[0].senderId === me.id} lastOwnId={lastOwnId} />
            ))}
            {outbox.length > 0 && <PendingGroup entries={outbox} />}
          </ol>
        )}
        {partyTyping && connected && (
          <p data-testid="typing-indicator" className="mt-2 text-xs italic text-slate-500">
            {`${party.person.firstName || party.name} is typing…`}
          </p>
        )}
      </div>

      <Composer conversationId={conversationId} onSend={send} />
    </section>
  );
}

function MessageGroup({
  group,
  mine,
  lastOwnId,
}: {
  group: ChatMessage[];
  mine: boolean;
  lastOwnId: string | undefined;
}) {
  const sender = group[0].sender;
  return (
    <li className={cn('flex gap-2', mine ? 'justify-end' : 'justify-start')}>
      {!mine && <PersonAvatar person={sender} className="mt-5 h-8 w-8 text-xs" />}
      <div className={cn('flex max-w-[80%] flex-col gap-1', mine ? 'items-end' : 'items-start')}>
        <p className="px-1 text-[11px] text-slate-500">
          {mine ? 'You' : personName(sender)} · {formatTime(group[0].createdAt)}
        </p>
        {group.map((message) => {
          const status = mine ? (message.isRead ? 'read' : 'sent') : undefined;
          return (
            <div
              key={message.id}
              data-testid="message"
              data-message-id={message.id}
              data-status={status}
              className="flex flex-col"
            >
              <p
                title={formatTime(message.createdAt)}
                className={cn(
                  'whitespace-pre-wrap break-words rounded-2xl px-3.5 py-2 text-sm',
                  mine ? 'bg-indigo-600 text-white' : 'bg-white text-slate-900 shadow-sm ring-1 ring-slate-200',
                )}
              >
                {message.content}
              </p>
              {!mine && <ReportButton compact className="self-start" targetType="message" targetId={message.id} />}
              {mine && message.id === lastOwnId && (
                <span data-testid="message-status" className="self-end px-1 text-[11px] text-slate-500">
                  {message.isRead ? 'Read' : 'Sent'}
                </span>
              )}
            </div>
          );
        })}
      </div>
    </li>
  );
}

function PendingGroup({ entries }: { entries: OutboxEntry[] }) {
  return (
    <li className="flex justify-end">
      <div className="flex max-w-[80%] flex-col items-end gap-1">
        {entries.map((entry) => (
          <div key={entry.clientId} data-testid="message" data-status="pending" className="flex flex-col">
            <p className="whitespace-pre-wrap break-words rounded-2xl bg-indigo-400 px-3.5 py-2 text-sm text-white">
              {entry.content}
            </p>
            <span className="self-end px-1 text-[11px] text-slate-500">Sending…</span>
          </div>
        ))}
      </div>
    </li>
  );
}

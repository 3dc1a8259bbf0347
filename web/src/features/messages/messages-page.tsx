import { CircleAlert, MessageCircle } from 'lucide-react';
import { useEffect, useReducer, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { MESSAGES_TEXT, START_CALL_DELAY_MS } from './constants';
import { useCall } from '@/lib/calls/call-provider';
import { useUser } from '@/lib/auth';
import { useRealtime, useRealtimeEvent } from '@/lib/realtime';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import { useConversation, useConversations, useStartConversation } from './api';
import { ConversationList } from './conversation-list';
import { Thread } from './thread';
import { typingReducer } from './typing';

/**
 * /messages: conversations on the left, the open thread on the right. Query parameters: conversation
 * (open it), mentor or user (find or create the conversation with them, then open it), booking (the
 * booking a call belongs to) and startCall=true (call 0.5 s after the thread opens).
 */
export function MessagesPage() {
  useDocumentTitle('Messages');
  const { user } = useUser();
  const [params, setParams] = useSearchParams();
  const conversationParam = params.get('conversation');
  const mentorParam = params.get('mentor');
  const userParam = params.get('user');
  const bookingParam = params.get('booking');
  const startCallParam = params.get('startCall') === 'true';
  const conversations = useConversations();
  const start = useStartConversation();
  const call = useCall();
  const { connected } = useRealtime();
  const [typing, dispatchTyping] = useReducer(typingReducer, {});

  useRealtimeEvent('userTyping', dispatchTyping);
  useRealtimeEvent('messageReceived', (message) =>
    dispatchTyping({ conversationId: message.conversationId, userId: message.senderId, isTyping: false }),
  );

  // mentor= or user=: find or create the conversation, then show it.
  const started = useRef<string | null>(null);
  useEffect(() => {
    if (conversationParam || (!mentorParam && !userParam)) return;
    const key = `${mentorParam ?? ''}|${userParam ?? ''}|${bookingParam ?? ''}`;
    if (started.current === key) return;
    started.current = key;
    start.mutate(
      {
        ...(mentorParam ? { mentorId: mentorParam } : { userId: userParam ?? undefined }),
        ...(bookingParam ? { bookingId: bookingParam } : {}),
      },
      {
        onSuccess: ({ conversation, created }) => {
          // Only a new conversation is news; opening one they already have says nothing.
          if (created) toast.success(MESSAGES_TEXT.createdTitle, { description: MESSAGES_TEXT.createdText });
          const next = new URLSearchParams({ conversation: conversation.id });
          if (bookingParam) next.set('booking', bookingParam);
          if (startCallParam) next.set('startCall', 'true');
          setParams(next, { replace: true });
        },
        onError: () => toast.error(MESSAGES_TEXT.createFailedToast),
      },
    );
  }, [conversationParam, mentorParam, userParam, bookingParam, startCallParam, start, setParams]);

  const listed = conversations.data?.find((c) => c.id === conversationParam);
  const single = useConversation(conversationParam, { enabled: !listed && !conversations.isLoading });
  const selected = listed ?? single.data ?? null;

  // startCall=true: call 0.5 s after the thread opens, unless this side already is in the call (accepted,
  // or resuming it after a reload).
  const callStarted = useRef<string | null>(null);
  const startCall = call.startCall;
  const inCall = !!call.activeCall || !!call.outgoingConversationId || call.resuming;
  const selectedId = selected?.id ?? null;
  const callBookingId = bookingParam ?? selected?.bookingId ?? null;
  useEffect(() => {
    if (!startCallParam || !selectedId || !connected) return;
    if (callStarted.current === selectedId) return;
    if (inCall) {
      callStarted.current = selectedId;
      return;
    }
    const timer = window.setTimeout(() => {
      callStarted.current = selectedId;
      startCall(selectedId, callBookingId);
    }, START_CALL_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [startCallParam, selectedId, connected, inCall, startCall, callBookingId]);

  const select = (id: string) => setParams(new URLSearchParams({ conversation: id }));
  const back = () => setParams(new URLSearchParams());

  if (!user) return null;

  return (
    <div className="mx-auto flex w-full max-w-7xl flex-1 px-0 py-0 sm:px-6 sm:py-6 lg:px-8">
      <div className="grid h-[calc(100vh-4rem)] w-full overflow-hidden border-slate-200 bg-white sm:h-[calc(100vh-7rem)] sm:rounded-2xl sm:border md:grid-cols-[20rem_1fr]">
        <aside className={cn('min-h-0 flex-col border-r border-slate-200', selected ? 'hidden md:flex' : 'flex')}>
          <h1 className="flex items-center gap-2 border-b border-slate-200 px-4 py-4 font-display text-lg font-semibold text-slate-900">
            <MessageCircle aria-hidden="true" className="h-5 w-5 text-indigo-600" />
            Messages
          </h1>
          <div className="min-h-0 flex-1 overflow-y-auto">
            {conversations.isLoading ? (
              <div className="flex justify-center py-10">
                <Spinner label="Loading conversations" className="h-6 w-6 text-indigo-600" />
              </div>
            ) : conversations.isError ? (
              <div role="alert" className="space-y-3 px-4 py-10 text-center text-sm text-rose-700">
                <p className="flex items-center justify-center gap-2">
                  <CircleAlert aria-hidden="true" className="h-4 w-4" />
                  {MESSAGES_TEXT.conversationsFailed}
                </p>
                <Button variant="outline" size="sm" onClick={() => void conversations.refetch()}>
                  Retry
                </Button>
              </div>
            ) : (
              <ConversationList
                conversations={conversations.data ?? []}
                selectedId={selected?.id ?? null}
                myId={user.id}
                onSelect={select}
              />
            )}
          </div>
        </aside>
        <div className={cn('min-h-0 flex-col', selected ? 'flex' : 'hidden md:flex')}>
          {selected ? (
            <Thread
              key={selected.id}
              conversation={selected}
              me={user}
              typingUserIds={typing[selected.id] ?? []}
              bookingId={bookingParam ?? selected.bookingId ?? null}
              onBack={back}
            />
          ) : start.isPending || (conversationParam && single.isLoading) ? (
            <div className="flex flex-1 items-center justify-center">
              <Spinner label="Opening conversation" className="h-6 w-6 text-indigo-600" />
            </div>
          ) : (
            <div className="flex flex-1 flex-col items-center justify-center gap-2 p-8 text-center text-slate-500">
              <MessageCircle aria-hidden="true" className="h-10 w-10 text-slate-300" />
              <p className="text-sm">Select a conversation to start messaging.</p>
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

export default MessagesPage;

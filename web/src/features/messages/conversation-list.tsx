import { PersonAvatar } from '@/components/person-avatar';
import { badgeCount } from '@/config/constants';
import { formatDate, formatTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { Conversation } from './api';
import { otherParty } from './party';

function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return date.toDateString() === new Date().toDateString() ? formatTime(date) : formatDate(date);
}

/** The left column: one entry per conversation, newest activity first. */
export function ConversationList({
  conversations,
  selectedId,
  myId,
  onSelect,
}: {
  conversations: Conversation[];
  selectedId: string | null;
  myId: string | undefined;
  onSelect: (id: string) => void;
}) {
  if (conversations.length === 0) {
    return (
      <p className="px-4 py-10 text-center text-sm text-slate-500">
        No conversations yet. Message a mentor from their profile to start one.
      </p>
    );
  }
  return (
    <ul aria-label="Conversations" className="divide-y divide-slate-100">
      {conversations.map((conversation) => {
        const party = otherParty(conversation, myId);
        const unread = conversation.unreadCount ?? 0;
        const selected = conversation.id === selectedId;
        return (
          <li key={conversation.id}>
            <button
              type="button"
              onClick={() => onSelect(conversation.id)}
              aria-current={selected ? 'true' : undefined}
              data-testid="conversation"
              className={cn(
                'flex w-full items-center gap-3 px-4 py-3 text-left transition-colors',
                selected ? 'bg-indigo-50' : 'hover:bg-slate-50',
              )}
            >
              <PersonAvatar person={party.person} name={party.name} imageUrl={party.imageUrl} className="h-11 w-11" />
              <span className="min-w-0 flex-1">
                <span className="flex items-baseline justify-between gap-2">
                  <span
                    className={cn(
                      'truncate text-sm',
                      unread > 0 ? 'font-semibold text-slate-900' : 'font-medium text-slate-800',
                    )}
                  >
                    {party.name}
                  </span>
                  <span className="shrink-0 text-[11px] text-slate-500">{when(conversation.lastMessageAt)}</span>
                </span>
                <span className="flex items-center justify-between gap-2">
                  <span className="truncate text-xs text-slate-500">
                    {conversation.lastMessage?.content ?? 'No messages yet'}
                  </span>
                  {unread > 0 && (
                    <span
                      data-testid="conversation-unread"
                      className="inline-flex min-w-5 shrink-0 items-center justify-center rounded-full bg-indigo-600 px-1 text-[11px] font-semibold leading-5 text-white"
                    >
                      {badgeCount(unread)}
                      <span className="sr-only"> unread</span>
                    </span>
                  )}
                </span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

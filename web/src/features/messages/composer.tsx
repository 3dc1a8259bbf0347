import { SendHorizontal } from 'lucide-react';
import { useEffect, useId, useMemo, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { MESSAGE_COUNTER_FROM, MESSAGE_MAX_LENGTH, MESSAGES_TEXT } from './constants';
import { useRealtime } from '@/lib/realtime';
import { cn } from '@/lib/utils';
import { TypingNotifier } from './typing';

/** Characters as the server counts them (code points), after trimming. */
export function messageLength(text: string): number {
  return [...text.trim()].length;
}

/** Null when `text` may be sent, else why not. */
export function messageError(text: string): string | null {
  const length = messageLength(text);
  if (length === 0) return MESSAGES_TEXT.emptyMessage;
  if (length > MESSAGE_MAX_LENGTH) return MESSAGES_TEXT.tooLong;
  return null;
}

/** The message box: Enter sends, Shift+Enter breaks the line; typing is announced while it lasts. */
export function Composer({ conversationId, onSend }: { conversationId: string; onSend: (content: string) => void }) {
  const { client } = useRealtime();
  const [text, setText] = useState('');
  const counterId = useId();
  const typing = useMemo(
    () =>
      new TypingNotifier(
        () => client?.send('startTyping', { conversationId }),
        () => client?.send('stopTyping', { conversationId }),
      ),
    [client, conversationId],
  );
  useEffect(() => () => typing.done(), [typing]);

  const length = messageLength(text);
  const error = messageError(text);
  const tooLong = length > MESSAGE_MAX_LENGTH;

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (error) return;
    onSend(text.trim());
    setText('');
    typing.done();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form onSubmit={submit} className="border-t border-slate-200 bg-white p-3">
      <div className="flex items-end gap-2">
        <textarea
          aria-label="Message"
          aria-describedby={length >= MESSAGE_COUNTER_FROM ? counterId : undefined}
          aria-invalid={tooLong || undefined}
          placeholder="Type a message…"
          rows={1}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            if (event.target.value.trim()) typing.input();
            else typing.done();
          }}
          onKeyDown={onKeyDown}
          className="max-h-40 min-h-10 flex-1 resize-none rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-200"
        />
        <Button type="submit" aria-label="Send" disabled={!!error}>
          <SendHorizontal aria-hidden="true" className="h-4 w-4" />
        </Button>
      </div>
      {length >= MESSAGE_COUNTER_FROM && (
        <p id={counterId} className={cn('mt-1 text-right text-xs', tooLong ? 'text-rose-600' : 'text-slate-500')}>
          {tooLong ? `${MESSAGES_TEXT.tooLong} ` : ''}
          {length}/{MESSAGE_MAX_LENGTH}
        </p>
      )}
    </form>
  );
}

import { TYPING_IDLE_MS } from './constants';

/**
 * This user's typing in one conversation: startTyping on the first keystroke, stopTyping 2 s after
 * the last one, or at once when the message is sent or the thread closes.
 */
export class TypingNotifier {
  private typing = false;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly start: () => void,
    private readonly stop: () => void,
    private readonly idleMs: number = TYPING_IDLE_MS,
  ) {}

  /** A keystroke. */
  input(): void {
    if (!this.typing) {
      this.typing = true;
      this.start();
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.done(), this.idleMs);
  }

  /** Sent, cleared or left: stop now if typing. */
  done(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.typing) return;
    this.typing = false;
    this.stop();
  }
}

/** Who is typing, per conversation: a set of user ids changed by userTyping events. */
export type TypingState = Record<string, readonly string[]>;

export function typingReducer(
  state: TypingState,
  { conversationId, userId, isTyping }: { conversationId: string; userId: string; isTyping: boolean },
): TypingState {
  const users = state[conversationId] ?? [];
  const has = users.includes(userId);
  if (isTyping === has) return state;
  return {
    ...state,
    [conversationId]: isTyping ? [...users, userId] : users.filter((id) => id !== userId),
  };
}

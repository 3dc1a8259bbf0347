/** A call started through startCall=true begins after 0.5 s. */
export const START_CALL_DELAY_MS = 500;

/** A thread loads 50 messages per page. */
export const MESSAGE_PAGE_SIZE = 50;

/** Messages from one sender less than 5 minutes apart form one group. */
export const MESSAGE_GROUP_WINDOW_MS = 5 * 60_000;

/** Typing stops 2 s after the last keystroke. */
export const TYPING_IDLE_MS = 2_000;

/** A message is 1 to 5,000 characters after trimming. */
export const MESSAGE_MAX_LENGTH = 5_000;

/** The character counter shows from 90 % of the limit. */
export const MESSAGE_COUNTER_FROM = 4_500;

/** The fixed texts of /messages. */
export const MESSAGES_TEXT = {
  conversationsFailed: 'Failed to fetch conversations',
  messagesFailed: 'Failed to fetch messages',
  createFailed: 'Failed to create conversation',
  createFailedToast: 'Failed to create conversation. Please try logging in again.',
  createdTitle: 'Success',
  createdText: 'Conversation started successfully!',
  unreadCountFailed: 'Failed to fetch unread message count',
  emptyMessage: 'Message cannot be empty',
  tooLong: 'Message must be at most 5000 characters',
} as const;

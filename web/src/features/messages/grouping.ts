import { MESSAGE_GROUP_WINDOW_MS } from './constants';

type Groupable = { senderId: string; createdAt: string };

/**
 * Splits a thread (oldest first) into runs of one sender's messages, each less than 5 minutes after
 * the previous one; the sender's name and avatar show once per run.
 */
export function groupMessages<T extends Groupable>(messages: readonly T[]): T[][] {
  const groups: T[][] = [];
  let last: T | undefined;
  for (const message of messages) {
    const gap = last ? new Date(message.createdAt).getTime() - new Date(last.createdAt).getTime() : Infinity;
    if (last && last.senderId === message.senderId && gap <= MESSAGE_GROUP_WINDOW_MS) {
      groups[groups.length - 1].push(message);
    } else {
      groups.push([message]);
    }
    last = message;
  }
  return groups;
}

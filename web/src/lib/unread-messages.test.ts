import { describe, expect, it } from 'vitest';
import { UNREAD_MESSAGES_POLL_MS, UNREAD_MESSAGES_STALE_MS } from './unread-messages';

describe('polling', () => {
  it('keeps the message count fresh for less time than it polls', () => {
    expect(UNREAD_MESSAGES_STALE_MS).toBeLessThan(UNREAD_MESSAGES_POLL_MS);
  });
});

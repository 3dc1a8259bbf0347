import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TypingNotifier, typingReducer } from './typing';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('TypingNotifier', () => {
  it('stops 2 s after the last keystroke', () => {
    const start = vi.fn();
    const stop = vi.fn();
    const typing = new TypingNotifier(start, stop);
    typing.input();
    typing.input();
    expect(start).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_500);
    typing.input();
    vi.advanceTimersByTime(1_999);
    expect(stop).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(stop).toHaveBeenCalledTimes(1);
    typing.input();
    expect(start).toHaveBeenCalledTimes(2);
  });

  it('stops at once on send, and only once', () => {
    const start = vi.fn();
    const stop = vi.fn();
    const typing = new TypingNotifier(start, stop);
    typing.input();
    typing.done();
    expect(stop).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5_000);
    typing.done();
    expect(stop).toHaveBeenCalledTimes(1);
  });
});

describe('typingReducer', () => {
  it('adds and removes users per conversation', () => {
    let state = typingReducer({}, { conversationId: 'c1', userId: 'u1', isTyping: true });
    state = typingReducer(state, { conversationId: 'c1', userId: 'u2', isTyping: true });
    state = typingReducer(state, { conversationId: 'c2', userId: 'u1', isTyping: true });
    expect(state).toEqual({ c1: ['u1', 'u2'], c2: ['u1'] });
    state = typingReducer(state, { conversationId: 'c1', userId: 'u1', isTyping: false });
    expect(state).toEqual({ c1: ['u2'], c2: ['u1'] });
  });

  it('returns the same state when nothing changes', () => {
    const state = { c1: ['u1'] };
    expect(typingReducer(state, { conversationId: 'c1', userId: 'u1', isTyping: true })).toBe(state);
    expect(typingReducer(state, { conversationId: 'c1', userId: 'u9', isTyping: false })).toBe(state);
  });
});

import { describe, expect, it } from 'vitest';
import { callReducer, initialCallState, type CallState, type IncomingCall } from './call-state';

const incoming: IncomingCall = {
  callId: 'call-1',
  roomId: 'room-1',
  conversationId: 'conv-1',
  bookingId: null,
  caller: { id: 'u2', firstName: 'Luna', lastName: 'Star', profileImageUrl: null },
};

const ringing: CallState = { ...initialCallState, incomingCall: incoming };

describe('callReducer', () => {
  it('incomingCall sets the incoming call', () => {
    expect(callReducer(initialCallState, { type: 'incomingCall', call: incoming }).incomingCall).toBe(incoming);
  });

  it('accepting sets the active call and clears the incoming one', () => {
    const state = callReducer(ringing, { type: 'accept', now: 1000 });
    expect(state.incomingCall).toBeNull();
    expect(state.activeCall).toMatchObject({
      callId: 'call-1',
      roomId: 'room-1',
      conversationId: 'conv-1',
      role: 'callee',
      answeredAt: 1000,
    });
  });

  it('rejecting, callRejected and callEnded clear the incoming call', () => {
    expect(callReducer(ringing, { type: 'reject' }).incomingCall).toBeNull();
    expect(callReducer(ringing, { type: 'callRejected', callId: 'call-1' }).incomingCall).toBeNull();
    expect(callReducer(ringing, { type: 'callEnded', callId: 'call-1' }).incomingCall).toBeNull();
  });

  it('an end of another call leaves the shown one alone', () => {
    expect(callReducer(ringing, { type: 'callEnded', callId: 'other' })).toEqual(ringing);
  });

  it('initiateCall then callInitiated sets the active call (ringing), callAccepted answers it', () => {
    let state = callReducer(initialCallState, { type: 'initiate', conversationId: 'conv-1', bookingId: 'b1' });
    expect(state.outgoing).toEqual({ conversationId: 'conv-1', bookingId: 'b1' });
    state = callReducer(state, { type: 'callInitiated', callId: 'call-9', roomId: 'room-9' });
    expect(state.outgoing).toBeNull();
    expect(state.activeCall).toEqual({
      callId: 'call-9',
      roomId: 'room-9',
      conversationId: 'conv-1',
      bookingId: 'b1',
      role: 'caller',
      answeredAt: null,
    });
    state = callReducer(state, { type: 'callAccepted', callId: 'call-9', roomId: 'room-9', now: 5000 });
    expect(state.activeCall).toMatchObject({ callId: 'call-9', answeredAt: 5000, role: 'caller' });
  });

  it('callEnded and the local endCall clear the active call', () => {
    const active = callReducer(ringing, { type: 'accept', now: 1 });
    expect(callReducer(active, { type: 'callEnded', callId: 'call-1' }).activeCall).toBeNull();
    expect(callReducer(active, { type: 'endCall' }).activeCall).toBeNull();
  });

  it('a lost connection clears the incoming call and a ringing one, and keeps an answered call to resume', () => {
    const active = callReducer({ ...ringing }, { type: 'accept', now: 1 });
    const both = callReducer(active, { type: 'incomingCall', call: { ...incoming, callId: 'call-2' } });
    expect(callReducer(both, { type: 'disconnected' })).toEqual({ ...initialCallState, activeCall: active.activeCall });
    let calling = callReducer(initialCallState, { type: 'initiate', conversationId: 'conv-1', bookingId: null });
    calling = callReducer(calling, { type: 'callInitiated', callId: 'call-3', roomId: 'room-3' });
    expect(callReducer(calling, { type: 'disconnected' })).toEqual(initialCallState);
  });

  it('callResumed sets the call again (after a reload) and counts a new peer connection', () => {
    const resumed = {
      type: 'callResumed',
      callId: 'call-1',
      roomId: 'room-1',
      conversationId: 'conv-1',
      bookingId: 'b1',
      role: 'callee',
      answeredAt: 500,
      now: 9000,
    } as const;
    const fresh = callReducer(initialCallState, resumed);
    expect(fresh.activeCall).toEqual({
      callId: 'call-1',
      roomId: 'room-1',
      conversationId: 'conv-1',
      bookingId: 'b1',
      role: 'callee',
      answeredAt: 500,
      epoch: 1,
    });
    expect(callReducer(fresh, resumed).activeCall).toMatchObject({ answeredAt: 500, epoch: 2 });
    const other = callReducer(ringing, { type: 'accept', now: 1 });
    expect(callReducer(other, { ...resumed, callId: 'call-7' })).toBe(other);
  });

  it('accept without an incoming call changes nothing', () => {
    expect(callReducer(initialCallState, { type: 'accept', now: 1 })).toBe(initialCallState);
  });
});

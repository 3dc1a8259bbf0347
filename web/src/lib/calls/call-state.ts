import type { ServerEvents } from '@/lib/realtime';

export type IncomingCall = ServerEvents['incomingCall'];

export type ActiveCall = {
  callId: string;
  roomId: string;
  conversationId: string | null;
  bookingId: string | null;
  role: 'caller' | 'callee';
  /** When the other side answered (ms since the epoch); null while ringing. */
  answeredAt: number | null;
};

export type CallState = {
  incomingCall: IncomingCall | null;
  activeCall: ActiveCall | null;
  /** initiateCall sent, callInitiated not yet back. */
  outgoing: { conversationId: string; bookingId: string | null } | null;
};

export type CallAction =
  | { type: 'incomingCall'; call: IncomingCall }
  | { type: 'accept'; now: number }
  | { type: 'reject' }
  | { type: 'initiate'; conversationId: string; bookingId: string | null }
  | { type: 'initiateFailed' }
  | { type: 'callInitiated'; callId: string; roomId: string; conversationId?: string | null; bookingId?: string | null }
  | { type: 'callAccepted'; callId: string; roomId: string; now: number }
  | { type: 'callRejected'; callId: string }
  | { type: 'callEnded'; callId: string }
  | { type: 'endCall' }
  | { type: 'disconnected' };

export const initialCallState: CallState = { incomingCall: null, activeCall: null, outgoing: null };

/**
 * The call signalling states: an incomingCall event sets the incoming call; accepting it, or the
 * caller receiving callAccepted, sets the active call and clears the incoming one; rejecting,
 * callRejected or callEnded clear the incoming call; callEnded and the local endCall clear the
 * active call; callInitiated sets it; a lost connection clears both. Events for another call than
 * the one shown change nothing.
 */
export function callReducer(state: CallState, action: CallAction): CallState {
  switch (action.type) {
    case 'incomingCall':
      return { ...state, incomingCall: action.call };
    case 'accept': {
      const call = state.incomingCall;
      if (!call) return state;
      return {
        ...state,
        incomingCall: null,
        activeCall: {
          callId: call.callId,
          roomId: call.roomId,
          conversationId: call.conversationId,
          bookingId: call.bookingId ?? null,
          role: 'callee',
          answeredAt: action.now,
        },
      };
    }
    case 'reject':
      return { ...state, incomingCall: null };
    case 'initiate':
      return { ...state, outgoing: { conversationId: action.conversationId, bookingId: action.bookingId } };
    case 'initiateFailed':
      return { ...state, outgoing: null };
    case 'callInitiated':
      return {
        ...state,
        outgoing: null,
        activeCall: {
          callId: action.callId,
          roomId: action.roomId,
          conversationId: action.conversationId ?? state.outgoing?.conversationId ?? null,
          bookingId: action.bookingId ?? state.outgoing?.bookingId ?? null,
          role: 'caller',
          answeredAt: null,
        },
      };
    case 'callAccepted': {
      const incomingCall = state.incomingCall?.callId === action.callId ? null : state.incomingCall;
      const active = state.activeCall;
      const activeCall: ActiveCall =
        active && active.callId === action.callId
          ? { ...active, roomId: action.roomId, answeredAt: active.answeredAt ?? action.now }
          : {
              callId: action.callId,
              roomId: action.roomId,
              conversationId: null,
              bookingId: null,
              role: 'caller',
              answeredAt: action.now,
            };
      return { ...state, incomingCall, activeCall };
    }
    case 'callRejected':
      return {
        ...state,
        incomingCall: state.incomingCall?.callId === action.callId ? null : state.incomingCall,
        activeCall: state.activeCall?.callId === action.callId ? null : state.activeCall,
      };
    case 'callEnded':
      return {
        ...state,
        incomingCall: state.incomingCall?.callId === action.callId ? null : state.incomingCall,
        activeCall: state.activeCall?.callId === action.callId ? null : state.activeCall,
      };
    case 'endCall':
      return { ...state, activeCall: null, outgoing: null };
    case 'disconnected':
      return initialCallState;
  }
}

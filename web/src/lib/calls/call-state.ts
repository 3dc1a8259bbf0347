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
  /** How many times a party came back to this call (callResumed); each time the peer connection is made anew. */
  epoch?: number;
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
  | {
      type: 'callResumed';
      callId: string;
      roomId: string;
      conversationId: string | null;
      bookingId: string | null;
      role: 'caller' | 'callee';
      answeredAt: number | null;
      now: number;
    }
  | { type: 'endCall' }
  | { type: 'disconnected' };

export const initialCallState: CallState = { incomingCall: null, activeCall: null, outgoing: null };

/**
 * The call signalling states: an incomingCall event sets the incoming call; accepting it, or the
 * caller receiving callAccepted, sets the active call and clears the incoming one; rejecting,
 * callRejected or callEnded clear the incoming call; callEnded and the local endCall clear the
 * active call; callInitiated sets it. A lost connection clears the incoming call and a call still
 * ringing, but keeps an answered one: the server holds it for a while and the client resumes it once
 * it is back (callResumed sets it again, after a reload too, and starts a new peer connection).
 * Events for another call than the one shown change nothing.
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
    case 'callResumed': {
      const active = state.activeCall;
      if (active && active.callId !== action.callId) return state;
      return {
        ...state,
        incomingCall: state.incomingCall?.callId === action.callId ? null : state.incomingCall,
        activeCall: {
          callId: action.callId,
          roomId: action.roomId,
          conversationId: action.conversationId ?? active?.conversationId ?? null,
          bookingId: action.bookingId ?? active?.bookingId ?? null,
          role: action.role,
          answeredAt: active?.answeredAt ?? action.answeredAt ?? action.now,
          epoch: (active?.epoch ?? 0) + 1,
        },
      };
    }
    case 'endCall':
      return { ...state, activeCall: null, outgoing: null };
    case 'disconnected':
      return { ...initialCallState, activeCall: state.activeCall?.answeredAt != null ? state.activeCall : null };
  }
}

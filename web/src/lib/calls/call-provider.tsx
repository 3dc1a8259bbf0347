import { queryOptions, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { CALL_TEXT } from './texts';
import { CONNECTION_ERROR_TITLE } from '@/lib/realtime/texts';
import { getGetRtcConfigUrl, getRtcConfig } from '@/api/endpoints/messaging/messaging';
import { useUser } from '@/lib/auth';
import { apiKey } from '@/lib/query-keys';
import { useRealtime, useRealtimeEvent } from '@/lib/realtime';
import { callReducer, initialCallState, type ActiveCall, type IncomingCall } from './call-state';
import { CALL_MEDIA_CONSTRAINTS, PeerSession } from './peer';

type RtcConfig = { iceServers: RTCIceServer[] };

/** TURN credentials are time-limited: fetch the configuration again for a call after this long. */
const RTC_CONFIG_STALE_MS = 5 * 60_000;

/**
 * This tab's answered call and its user, `{callId, userId}`, kept across a reload (sessionStorage is per
 * tab) so the reloaded page resumes it.
 */
export const CALL_STORAGE_KEY = 'mentor.activeCall';

type StoredCall = { callId: string; userId: string };

function storedCall(): StoredCall | null {
  try {
    const value: unknown = JSON.parse(window.sessionStorage.getItem(CALL_STORAGE_KEY) ?? 'null');
    if (!value || typeof value !== 'object') return null;
    const { callId, userId } = value as Record<string, unknown>;
    return typeof callId === 'string' && typeof userId === 'string' ? { callId, userId } : null;
  } catch {
    return null;
  }
}

function storeCall(call: StoredCall | null) {
  try {
    if (call) window.sessionStorage.setItem(CALL_STORAGE_KEY, JSON.stringify(call));
    else window.sessionStorage.removeItem(CALL_STORAGE_KEY);
  } catch {
    // storage unavailable: a reload then loses the call, as before
  }
}

export type CallMedia = {
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  cameraOn: boolean;
  micOn: boolean;
  mediaError: string | null;
};

type CallContextValue = {
  incomingCall: IncomingCall | null;
  activeCall: ActiveCall | null;
  /** initiateCall sent for this conversation, waiting for callInitiated. */
  outgoingConversationId: string | null;
  /** After a reload: this tab's call is being resumed (resumeCall sent, no answer yet). */
  resuming: boolean;
  media: CallMedia;
  startCall: (conversationId: string, bookingId?: string | null) => void;
  acceptCall: () => void;
  declineCall: () => void;
  hangUp: () => void;
  toggleCamera: () => void;
  toggleMic: () => void;
};

const NO_MEDIA: CallMedia = { localStream: null, remoteStream: null, cameraOn: true, micOn: true, mediaError: null };

const CallContext = createContext<CallContextValue>({
  incomingCall: null,
  activeCall: null,
  outgoingConversationId: null,
  resuming: false,
  media: NO_MEDIA,
  startCall: () => {},
  acceptCall: () => {},
  declineCall: () => {},
  hangUp: () => {},
  toggleCamera: () => {},
  toggleMic: () => {},
});

export const RTC_CONFIG_KEY = apiKey(getGetRtcConfigUrl());

/** GET /api/rtc/config: the ICE servers (TURN credentials are time-limited, so kept only a while). */
export const rtcConfigQuery = () =>
  queryOptions({
    queryKey: RTC_CONFIG_KEY,
    queryFn: (): Promise<RtcConfig> => getRtcConfig(),
    staleTime: RTC_CONFIG_STALE_MS,
  });

type Session = {
  roomId: string;
  closed: boolean;
  /** A party came back to the call: this connection is being replaced; signals wait for the new one. */
  superseded: boolean;
  local: MediaStream | null;
  peer: PeerSession | null;
  ready: Promise<PeerSession>;
};

type Signal =
  | { kind: 'offer'; roomId: string; offer: RTCSessionDescriptionInit }
  | { kind: 'answer'; roomId: string; answer: RTCSessionDescriptionInit }
  | { kind: 'candidate'; roomId: string; candidate: RTCIceCandidateInit };

function stopTracks(stream: MediaStream | null) {
  stream?.getTracks().forEach((track) => track.stop());
}

/**
 * One-to-one calls: the signalling state (incoming, active), the WebRTC connection of the active call
 * and its camera and microphone, and the incoming-call overlay shown over any screen.
 */
/** The screen of a call in progress; app/ hands in the calls feature's, which the messages thread shows. */
export type CallScreen = (peerName: string) => ReactNode;

const CallScreenContext = createContext<CallScreen | null>(null);

/** Where a feature shows the call in progress: the screen app/ handed to the provider, if any. */
export function CallScreenSlot({ peerName }: { peerName: string }) {
  const screen = useContext(CallScreenContext);
  return screen?.(peerName) ?? null;
}

export function CallProvider({ children, screen }: { children: ReactNode; screen?: CallScreen }) {
  const { client, connected } = useRealtime();
  const { user, isLoading: userLoading } = useUser();
  const userId = user?.id ?? null;
  const userIdRef = useRef<string | null>(null);
  userIdRef.current = userId;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [state, dispatch] = useReducer(callReducer, initialCallState);
  const [media, setMedia] = useState<CallMedia>(NO_MEDIA);
  const stateRef = useRef(state);
  stateRef.current = state;
  const clientRef = useRef(client);
  clientRef.current = client;
  const sessionRef = useRef<Session | null>(null);
  const early = useRef<Signal[]>([]);
  /** The call this tab was in before a reload, until the server answers resumeCall. */
  const [stored, setStored] = useState<StoredCall | null>(storedCall);
  // Only the same user's call is resumed (another may have signed in in this tab since).
  const resuming = stored && (!userId || stored.userId === userId) ? stored.callId : null;
  const resumingRef = useRef(resuming);
  resumingRef.current = resuming;
  /** The room whose next peer connection offers (this side came back to the call). */
  const offerOnOpen = useRef<string | null>(null);

  const send = useCallback<NonNullable<typeof client>['send']>(
    (event, data) => clientRef.current?.send(event, data) ?? false,
    [],
  );

  const openSession = useCallback(
    (roomId: string): Session => {
      const session = { roomId, closed: false, superseded: false, local: null, peer: null } as unknown as Session;
      session.ready = (async () => {
        const [local, config] = await Promise.all([
          navigator.mediaDevices?.getUserMedia
            ? navigator.mediaDevices.getUserMedia(CALL_MEDIA_CONSTRAINTS).catch(() => null)
            : Promise.resolve(null),
          queryClient.fetchQuery(rtcConfigQuery()).catch((): RtcConfig => ({ iceServers: [] })),
        ]);
        if (session.closed) {
          stopTracks(local);
          throw new Error('call closed');
        }
        if (!local) toast.error(CALL_TEXT.mediaError, { description: CALL_TEXT.mediaErrorText });
        session.local = local;
        setMedia((m) => ({ ...m, localStream: local, mediaError: local ? null : CALL_TEXT.mediaErrorText }));
        const peer = new PeerSession({
          iceServers: config.iceServers ?? [],
          localStream: local,
          onRemoteStream: (stream) => setMedia((m) => ({ ...m, remoteStream: stream })),
          onIceCandidate: (candidate) => send('sendIceCandidate', { roomId, candidate }),
        });
        session.peer = peer;
        return peer;
      })();
      session.ready.catch(() => {});
      return session;
    },
    [queryClient, send],
  );

  const handleSignal = useCallback(
    (signal: Signal) => {
      const session = sessionRef.current;
      if (!session || session.roomId !== signal.roomId || session.superseded) {
        early.current.push(signal);
        return;
      }
      void session.ready
        .then(async (peer) => {
          if (signal.kind === 'offer') {
            const answer = await peer.acceptOffer(signal.offer);
            send('sendAnswer', { roomId: signal.roomId, answer });
          } else if (signal.kind === 'answer') {
            await peer.acceptAnswer(signal.answer);
          } else {
            await peer.addCandidate(signal.candidate);
          }
        })
        .catch((error: unknown) => console.warn('call signalling failed', error));
    },
    [send],
  );

  // The WebRTC side lives as long as the active call, made anew each time a party comes back to it.
  const roomId = state.activeCall?.roomId ?? null;
  const epoch = state.activeCall?.epoch ?? 0;
  useEffect(() => {
    if (!roomId) return;
    const session = openSession(roomId);
    sessionRef.current = session;
    const waiting = early.current.filter((signal) => signal.roomId === roomId);
    early.current = [];
    waiting.forEach(handleSignal);
    if (offerOnOpen.current === roomId) {
      // This side came back: it offers on the new connection, the other side answers.
      offerOnOpen.current = null;
      void session.ready
        .then(async (peer) => send('sendOffer', { roomId, offer: await peer.createOffer() }))
        .catch((error: unknown) => console.warn('call offer failed', error));
    }
    return () => {
      session.closed = true;
      session.peer?.close();
      stopTracks(session.local);
      if (sessionRef.current === session) sessionRef.current = null;
      setMedia(NO_MEDIA);
    };
  }, [roomId, epoch, openSession, handleSignal, send]);

  // On disconnect the incoming call and a call still ringing are cleared; an answered call stays (its
  // media may well still flow) and is resumed on the next connection, as is this tab's call after a reload.
  const wasConnected = useRef(false);
  useEffect(() => {
    if (wasConnected.current && !connected) dispatch({ type: 'disconnected' });
    wasConnected.current = connected;
    if (!connected) return;
    const active = stateRef.current.activeCall;
    const callId = active && active.answeredAt !== null ? active.callId : resumingRef.current;
    if (callId) send('resumeCall', { callId });
  }, [connected, send]);

  // This tab's answered call survives a reload.
  const answeredCallId = state.activeCall && state.activeCall.answeredAt !== null ? state.activeCall.callId : null;
  useEffect(() => {
    if (answeredCallId && userId) storeCall({ callId: answeredCallId, userId });
    else if (!resuming && (userId || !userLoading)) storeCall(null);
  }, [answeredCallId, resuming, userId, userLoading]);

  useRealtimeEvent('incomingCall', (call) => dispatch({ type: 'incomingCall', call }));
  useRealtimeEvent('callInitiated', (data) => {
    if (!stateRef.current.outgoing) {
      // Hung up before the server answered: end it now.
      send('endCall', { callId: data.callId });
      return;
    }
    dispatch({ type: 'callInitiated', ...data });
  });
  useRealtimeEvent('callAccepted', (data) => {
    dispatch({ type: 'callAccepted', callId: data.callId, roomId: data.roomId, now: Date.now() });
    // The caller offers once the callee is there; the session opens with the active call.
    queueMicrotask(() => {
      const session = sessionRef.current;
      if (!session || session.roomId !== data.roomId) return;
      void session.ready
        .then(async (peer) => send('sendOffer', { roomId: data.roomId, offer: await peer.createOffer() }))
        .catch((error: unknown) => console.warn('call offer failed', error));
    });
  });
  useRealtimeEvent('callRejected', (data) => {
    if (stateRef.current.activeCall?.callId === data.callId) toast('Call declined');
    dispatch({ type: 'callRejected', callId: data.callId });
  });
  useRealtimeEvent('callResumed', (data) => {
    const active = stateRef.current.activeCall;
    if (active ? active.callId !== data.callId : resumingRef.current !== data.callId) return;
    setStored(null);
    // Signals of the new connection wait for it; those of the old one are of no use any more.
    if (sessionRef.current?.roomId === data.roomId) sessionRef.current.superseded = true;
    early.current = early.current.filter((signal) => signal.roomId !== data.roomId);
    if (data.userId === userIdRef.current) offerOnOpen.current = data.roomId;
    dispatch({
      type: 'callResumed',
      callId: data.callId,
      roomId: data.roomId,
      conversationId: data.conversationId ?? null,
      bookingId: data.bookingId ?? null,
      role: data.role,
      answeredAt: data.answeredAt ? Date.parse(data.answeredAt) : null,
      now: Date.now(),
    });
  });
  useRealtimeEvent('callEnded', (data) => {
    if (resumingRef.current === data.callId) setStored(null);
    const wasActive = stateRef.current.activeCall?.callId === data.callId;
    dispatch({ type: 'callEnded', callId: data.callId });
    if (wasActive && data.reason === 'missed') toast('No answer');
  });
  useRealtimeEvent('error', (data) => {
    // A refused initiateCall (outside the booking's video window, say) frees the call button again.
    if (data.event === 'initiateCall' || (!data.event && stateRef.current.outgoing))
      dispatch({ type: 'initiateFailed' });
    // A call that cannot be resumed is over for this tab.
    if (data.event === 'resumeCall') {
      const callId = stateRef.current.activeCall?.callId ?? resumingRef.current;
      setStored(null);
      if (callId) dispatch({ type: 'callEnded', callId });
    }
  });
  useRealtimeEvent('offer', ({ roomId, offer }) => handleSignal({ kind: 'offer', roomId, offer }));
  useRealtimeEvent('answer', ({ roomId, answer }) => handleSignal({ kind: 'answer', roomId, answer }));
  useRealtimeEvent('iceCandidate', ({ roomId, candidate }) => handleSignal({ kind: 'candidate', roomId, candidate }));

  const startCall = useCallback(
    (conversationId: string, bookingId?: string | null) => {
      const current = stateRef.current;
      if (current.activeCall || current.outgoing) return;
      const sent = send('initiateCall', bookingId ? { conversationId, bookingId } : { conversationId });
      if (!sent) {
        toast.error(CONNECTION_ERROR_TITLE, { description: 'You are offline. Try again in a moment.' });
        return;
      }
      dispatch({ type: 'initiate', conversationId, bookingId: bookingId ?? null });
    },
    [send],
  );

  const acceptCall = useCallback(() => {
    const call = stateRef.current.incomingCall;
    if (!call) return;
    send('acceptCall', { callId: call.callId });
    dispatch({ type: 'accept', now: Date.now() });
    navigate(`/messages?conversation=${encodeURIComponent(call.conversationId)}&startCall=true`);
  }, [navigate, send]);

  const declineCall = useCallback(() => {
    const call = stateRef.current.incomingCall;
    if (!call) return;
    send('rejectCall', { callId: call.callId });
    dispatch({ type: 'reject' });
  }, [send]);

  const hangUp = useCallback(() => {
    const call = stateRef.current.activeCall;
    if (call) send('endCall', { callId: call.callId });
    dispatch({ type: 'endCall' });
  }, [send]);

  const toggleTracks = useCallback((kind: 'video' | 'audio') => {
    const local = sessionRef.current?.local;
    setMedia((m) => {
      const key = kind === 'video' ? 'cameraOn' : 'micOn';
      const on = !m[key];
      local?.getTracks().forEach((track) => {
        if (track.kind === kind) track.enabled = on;
      });
      return { ...m, [key]: on };
    });
  }, []);

  const value = useMemo<CallContextValue>(
    () => ({
      incomingCall: state.incomingCall,
      activeCall: state.activeCall,
      outgoingConversationId: state.outgoing?.conversationId ?? null,
      resuming: resuming !== null,
      media,
      startCall,
      acceptCall,
      declineCall,
      hangUp,
      toggleCamera: () => toggleTracks('video'),
      toggleMic: () => toggleTracks('audio'),
    }),
    [state, resuming, media, startCall, acceptCall, declineCall, hangUp, toggleTracks],
  );

  return (
    <CallContext.Provider value={value}>
      <CallScreenContext.Provider value={screen ?? null}>{children}</CallScreenContext.Provider>
    </CallContext.Provider>
  );
}

export function useCall(): CallContextValue {
  return useContext(CallContext);
}

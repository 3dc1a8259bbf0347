/**
 * The frames of the real-time channel (/api/ws): `{"event": NAME, "data": {...}}` both ways.
 * The WebSocket is not part of openapi.yaml, so these shapes are written here by hand.
 */

import type { MessageView, NotificationView } from '@/api/model';

export type Person = {
  id: string;
  firstName?: string | null;
  lastName?: string | null;
  profileImageUrl?: string | null;
};

/** A stored message, as REST and messageReceived both carry it. */
export type ChatMessage = MessageView;

/** A live notification: the same object GET /api/notifications lists. */
export type NotificationEvent = NotificationView;

/** What the browser sends. */
export type ClientEvents = {
  sendMessage: { conversationId: string; content: string; messageType?: string; clientId?: string };
  joinConversation: { conversationId: string };
  leaveConversation: { conversationId: string };
  markMessageRead: { messageId: string };
  markConversationRead: { conversationId: string };
  startTyping: { conversationId: string };
  stopTyping: { conversationId: string };
  initiateCall: { conversationId: string; bookingId?: string };
  acceptCall: { callId: string };
  rejectCall: { callId: string };
  endCall: { callId: string };
  /** This socket takes over an answered call of this user again (after a dropped connection or a reload). */
  resumeCall: { callId: string };
  sendOffer: { roomId: string; offer: RTCSessionDescriptionInit };
  sendAnswer: { roomId: string; answer: RTCSessionDescriptionInit };
  sendIceCandidate: { roomId: string; candidate: RTCIceCandidateInit };
  'start-group-session': { groupSessionId: string };
  'end-group-session': { groupSessionId: string };
  'join-group-session': { groupSessionId: string };
  'leave-group-session': { groupSessionId: string };
  'mute-participant': { groupSessionId: string; participantId: string };
  'unmute-participant': { groupSessionId: string; participantId: string };
  'remove-participant': { groupSessionId: string; participantId: string };
  'toggle-video': { groupSessionId: string; isVideoEnabled: boolean };
  'toggle-audio': { groupSessionId: string; isAudioEnabled: boolean };
  /** The seat's publisher offer; the api relays it to Janus and answers with group-call-answer. */
  'group-call-offer': { groupSessionId: string; sdp: string };
  /** The answer to a group-call-subscribe-offer. */
  'group-call-subscribe-answer': { groupSessionId: string; sdp: string };
  /** A candidate of the seat's publisher or subscriber connection; null: no more of them. */
  'ice-candidate': {
    groupSessionId: string;
    target: 'publisher' | 'subscriber';
    candidate: RTCIceCandidateInit | null;
    participantId?: string;
  };
  ping: Record<string, never>;
};

/** A member of a group call as the others hear of them (id is the user id). */
export type GroupCallParticipant = Person & { janusId: number; isMentor: boolean };

/** One media line of a seat's subscriber connection: whose audio or video it carries. */
export type GroupCallStream = { mid: string; participantId: string; janusId: number; kind: 'audio' | 'video' };

export type CallEndReason = 'ended' | 'missed' | 'rejected' | 'disconnected' | 'answered elsewhere' | (string & {});

/** What the server sends. */
export type ServerEvents = {
  ready: { userId: string };
  pong: Record<string, never>;
  messageReceived: ChatMessage;
  messageRead: { messageId: string; conversationId: string; readerId: string; readAt: string };
  conversationRead: { conversationId: string; readerId: string; count: number };
  userTyping: { conversationId: string; userId: string; isTyping: boolean };
  callInitiated: { callId: string; roomId: string; conversationId: string; bookingId?: string | null };
  incomingCall: {
    callId: string;
    roomId: string;
    conversationId: string;
    bookingId?: string | null;
    caller: Person;
  };
  callAccepted: { callId: string; roomId: string };
  callRejected: { callId: string; roomId: string };
  callEnded: { callId: string; roomId: string; reason?: CallEndReason };
  /** A party (userId) is back in the call: both sides make a new peer connection, that party offers. */
  callResumed: {
    callId: string;
    roomId: string;
    conversationId: string;
    bookingId?: string | null;
    answeredAt?: string | null;
    role: 'caller' | 'callee';
    userId: string;
  };
  offer: { roomId: string; offer: RTCSessionDescriptionInit; from: string };
  answer: { roomId: string; answer: RTCSessionDescriptionInit; from: string };
  iceCandidate: { roomId: string; candidate: RTCIceCandidateInit; from: string };
  notification: NotificationEvent;
  'group-session-started': { groupSessionId: string; startedAt: string };
  'group-session-ended': { groupSessionId: string };
  'participant-joined': { groupSessionId: string; participant: GroupCallParticipant | null };
  'participant-left': { groupSessionId: string; participantId: string; reason: 'left' | 'removed' };
  'participant-muted': { groupSessionId: string; participantId: string };
  'participant-unmuted': { groupSessionId: string; participantId: string };
  'toggle-video': { groupSessionId: string; participantId: string; isVideoEnabled: boolean };
  'toggle-audio': { groupSessionId: string; participantId: string; isAudioEnabled: boolean };
  'group-call-answer': { groupSessionId: string; sdp: string };
  'group-call-subscribe-offer': { groupSessionId: string; sdp: string; streams: GroupCallStream[] };
  error: { message: string; event?: string };
};

export type ClientEventName = keyof ClientEvents;
export type ServerEventName = keyof ServerEvents;

/** Parses one incoming frame; null for anything that is not `{event: string, data: object}`. */
export function parseFrame(text: unknown): { event: string; data: Record<string, unknown> } | null {
  if (typeof text !== 'string') return null;
  try {
    const frame: unknown = JSON.parse(text);
    if (!frame || typeof frame !== 'object') return null;
    const { event, data } = frame as { event?: unknown; data?: unknown };
    if (typeof event !== 'string') return null;
    const payload = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
    return { event, data: payload };
  } catch {
    return null;
  }
}

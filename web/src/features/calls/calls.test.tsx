import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeProvider } from '@/lib/realtime';
import { FakeSocket } from '@/testing/fake-socket';
import { clientWithUser, jsonResponse, mockFetch, testUser } from '@/testing/test-utils';
import { CALL_STORAGE_KEY, CallProvider, useCall } from '@/lib/calls/call-provider';
import { IncomingCallOverlay } from './incoming-call-overlay';
import { VideoCall } from './video-call';

class FakeTrack {
  enabled = true;
  stopped = false;
  constructor(readonly kind: string) {}
  stop() {
    this.stopped = true;
  }
}

class FakeStream {
  tracks = [new FakeTrack('video'), new FakeTrack('audio')];
  getTracks() {
    return this.tracks;
  }
}

const peers: FakePeer[] = [];

class FakePeer {
  config: RTCConfiguration;
  added: unknown[] = [];
  remote: RTCSessionDescriptionInit[] = [];
  candidates: RTCIceCandidateInit[] = [];
  closed = false;
  localDescription: { toJSON: () => RTCSessionDescriptionInit } | null = null;
  onicecandidate: ((event: { candidate: { toJSON: () => RTCIceCandidateInit } | null }) => void) | null = null;
  ontrack: ((event: unknown) => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;
  connectionState = 'new';
  constructor(config: RTCConfiguration) {
    this.config = config;
    peers.push(this);
  }
  addTrack(track: unknown) {
    this.added.push(track);
  }
  addTransceiver(kind: string) {
    this.added.push(kind);
  }
  async createOffer() {
    return { type: 'offer' as const, sdp: 'offer-sdp' };
  }
  async createAnswer() {
    return { type: 'answer' as const, sdp: 'answer-sdp' };
  }
  async setLocalDescription(description: RTCSessionDescriptionInit) {
    this.localDescription = { toJSON: () => description };
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit) {
    this.remote.push(description);
  }
  async addIceCandidate(candidate: RTCIceCandidateInit) {
    this.candidates.push(candidate);
  }
  close() {
    this.closed = true;
  }
}

let stream: FakeStream;
let getUserMedia: ReturnType<typeof vi.fn>;

function Harness() {
  const call = useCall();
  return (
    <>
      <button type="button" onClick={() => call.startCall('c1', 'b1')}>
        Call
      </button>
      <VideoCall peerName="Luna" />
      <IncomingCallOverlay />
    </>
  );
}

function renderApp() {
  return render(
    <QueryClientProvider client={clientWithUser(testUser)}>
      <RealtimeProvider>
        <MemoryRouter>
          <CallProvider>
            <Harness />
          </CallProvider>
        </MemoryRouter>
      </RealtimeProvider>
      <Toaster />
    </QueryClientProvider>,
  );
}

let app: ReturnType<typeof render>;

beforeEach(() => {
  sessionStorage.clear();
  peers.length = 0;
  stream = new FakeStream();
  getUserMedia = vi.fn(async () => stream);
  FakeSocket.install();
  vi.stubGlobal('RTCPeerConnection', FakePeer);
  Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia } });
  HTMLMediaElement.prototype.play = vi.fn(async () => {});
  mockFetch({ 'GET /api/rtc/config': () => jsonResponse(200, { iceServers: [{ urls: ['stun:stun.example:3478'] }] }) });
  app = renderApp();
  act(() => FakeSocket.last.open());
});

afterEach(() => vi.unstubAllGlobals());

describe('a call from this side', () => {
  it('initiates, offers once accepted, takes the answer, relays ICE and cleans up on callEnded', async () => {
    const socket = FakeSocket.last;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Call' }));
    expect(socket.framesOf('initiateCall')).toEqual([{ conversationId: 'c1', bookingId: 'b1' }]);

    act(() => socket.receive('callInitiated', { callId: 'k1', roomId: 'r1', conversationId: 'c1', bookingId: 'b1' }));
    expect(await screen.findByTestId('local-video')).toBeInTheDocument();
    expect(screen.getByTestId('remote-video')).toBeInTheDocument();
    expect(screen.getByText('Calling Luna…')).toBeInTheDocument();
    await waitFor(() => expect(peers).toHaveLength(1));
    expect(getUserMedia).toHaveBeenCalledWith(
      expect.objectContaining({ video: expect.objectContaining({ facingMode: 'user' }), audio: expect.any(Object) }),
    );
    expect(peers[0].config.iceServers).toEqual([{ urls: ['stun:stun.example:3478'] }]);

    act(() => socket.receive('iceCandidate', { roomId: 'r1', candidate: { candidate: 'early' }, from: 'u2' }));
    act(() => socket.receive('callAccepted', { callId: 'k1', roomId: 'r1' }));
    await waitFor(() =>
      expect(socket.framesOf('sendOffer')).toEqual([{ roomId: 'r1', offer: { type: 'offer', sdp: 'offer-sdp' } }]),
    );
    expect(await screen.findByTestId('call-timer')).toHaveTextContent('00:00');

    act(() => socket.receive('answer', { roomId: 'r1', answer: { type: 'answer', sdp: 'answer-sdp' }, from: 'u2' }));
    await waitFor(() => expect(peers[0].remote).toEqual([{ type: 'answer', sdp: 'answer-sdp' }]));
    await waitFor(() => expect(peers[0].candidates).toEqual([{ candidate: 'early' }]));

    act(() => peers[0].onicecandidate?.({ candidate: { toJSON: () => ({ candidate: 'mine' }) } }));
    expect(socket.framesOf('sendIceCandidate')).toEqual([{ roomId: 'r1', candidate: { candidate: 'mine' } }]);

    act(() => socket.receive('callEnded', { callId: 'k1', roomId: 'r1', reason: 'ended' }));
    expect(screen.queryByTestId('remote-video')).not.toBeInTheDocument();
    expect(peers[0].closed).toBe(true);
    expect(stream.tracks.every((track) => track.stopped)).toBe(true);
  });

  it('toggles the camera and the microphone, and hangs up with endCall', async () => {
    const socket = FakeSocket.last;
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Call' }));
    act(() => socket.receive('callInitiated', { callId: 'k1', roomId: 'r1', conversationId: 'c1', bookingId: 'b1' }));
    await waitFor(() => expect(peers).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Turn camera off' }));
    expect(stream.tracks.find((t) => t.kind === 'video')!.enabled).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Mute microphone' }));
    expect(stream.tracks.find((t) => t.kind === 'audio')!.enabled).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Hang up' }));
    expect(socket.framesOf('endCall')).toEqual([{ callId: 'k1' }]);
    expect(screen.queryByTestId('local-video')).not.toBeInTheDocument();
  });

  it("says 'Media Access Error' when the camera cannot be opened, and still receives", async () => {
    getUserMedia.mockRejectedValueOnce(new Error('NotAllowedError'));
    const socket = FakeSocket.last;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Call' }));
    act(() => socket.receive('callInitiated', { callId: 'k1', roomId: 'r1', conversationId: 'c1', bookingId: 'b1' }));
    expect((await screen.findAllByText('Media Access Error')).length).toBeGreaterThan(0);
    // The spec's words, not our own.
    expect(
      screen.getAllByText('Unable to access camera or microphone. Please check permissions.').length,
    ).toBeGreaterThan(0);
    await waitFor(() => expect(peers).toHaveLength(1));
    expect(peers[0].added).toEqual(['video', 'audio']);
  });

  it('the callee answers the offer', async () => {
    const socket = FakeSocket.last;
    act(() =>
      socket.receive('incomingCall', {
        callId: 'k2',
        roomId: 'r2',
        conversationId: 'c1',
        bookingId: null,
        caller: { id: 'u2', firstName: 'Luna', lastName: 'Star', profileImageUrl: null },
      }),
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Accept' }));
    act(() => socket.receive('offer', { roomId: 'r2', offer: { type: 'offer', sdp: 'o' }, from: 'u2' }));
    await waitFor(() =>
      expect(socket.framesOf('sendAnswer')).toEqual([{ roomId: 'r2', answer: { type: 'answer', sdp: 'answer-sdp' } }]),
    );
    expect(peers[0].remote).toEqual([{ type: 'offer', sdp: 'o' }]);
  });
});

describe('coming back to a call', () => {
  const incomingK2 = {
    callId: 'k2',
    roomId: 'r2',
    conversationId: 'c1',
    bookingId: null,
    caller: { id: 'u2', firstName: 'Luna', lastName: 'Star', profileImageUrl: null },
  };
  const resumed = (userId: string) => ({
    callId: 'k2',
    roomId: 'r2',
    conversationId: 'c1',
    bookingId: null,
    answeredAt: '2026-01-01T10:00:00Z',
    role: 'callee',
    userId,
  });

  it('keeps an answered call through a dropped connection, resumes it and offers on a new connection', async () => {
    const first = FakeSocket.last;
    act(() => first.receive('incomingCall', incomingK2));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(peers).toHaveLength(1));
    expect(JSON.parse(sessionStorage.getItem(CALL_STORAGE_KEY)!)).toEqual({ callId: 'k2', userId: testUser.id });

    act(() => first.drop());
    expect(screen.getByTestId('remote-video')).toBeInTheDocument();
    expect(peers[0].closed).toBe(false);
    await waitFor(() => expect(FakeSocket.instances).toHaveLength(2), { timeout: 3000 });
    const second = FakeSocket.last;
    act(() => second.open());
    expect(second.framesOf('resumeCall')).toEqual([{ callId: 'k2' }]);

    act(() => second.receive('callResumed', resumed(testUser.id)));
    await waitFor(() =>
      expect(second.framesOf('sendOffer')).toEqual([{ roomId: 'r2', offer: { type: 'offer', sdp: 'offer-sdp' } }]),
    );
    expect(peers).toHaveLength(2);
    expect(peers[0].closed).toBe(true);
    act(() => second.receive('answer', { roomId: 'r2', answer: { type: 'answer', sdp: 'a' }, from: 'u2' }));
    await waitFor(() => expect(peers[1].remote).toEqual([{ type: 'answer', sdp: 'a' }]));
  });

  it('the other side coming back: a new connection that answers their offer', async () => {
    const socket = FakeSocket.last;
    act(() => socket.receive('incomingCall', incomingK2));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(peers).toHaveLength(1));
    act(() => {
      socket.receive('callResumed', resumed('u2'));
      socket.receive('offer', { roomId: 'r2', offer: { type: 'offer', sdp: 'again' }, from: 'u2' });
    });
    await waitFor(() =>
      expect(socket.framesOf('sendAnswer')).toEqual([{ roomId: 'r2', answer: { type: 'answer', sdp: 'answer-sdp' } }]),
    );
    expect(socket.framesOf('sendOffer')).toEqual([]);
    expect(peers).toHaveLength(2);
    expect(peers[0].remote).toEqual([]);
    expect(peers[1].remote).toEqual([{ type: 'offer', sdp: 'again' }]);
  });

  it('a reloaded page resumes its call, and forgets it once the server says it ended', async () => {
    const socket = FakeSocket.last;
    act(() => socket.receive('incomingCall', incomingK2));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(sessionStorage.getItem(CALL_STORAGE_KEY)).toContain('k2'));
    app.unmount();

    app = renderApp();
    const reloaded = FakeSocket.last;
    act(() => reloaded.open());
    expect(reloaded.framesOf('resumeCall')).toEqual([{ callId: 'k2' }]);
    act(() => reloaded.receive('callResumed', resumed(testUser.id)));
    expect(await screen.findByTestId('remote-video')).toBeInTheDocument();
    await waitFor(() => expect(reloaded.framesOf('sendOffer')).toHaveLength(1));

    act(() => reloaded.receive('callEnded', { callId: 'k2', roomId: 'r2', reason: 'disconnected' }));
    expect(screen.queryByTestId('remote-video')).not.toBeInTheDocument();
    expect(sessionStorage.getItem(CALL_STORAGE_KEY)).toBeNull();
  });

  it("a reloaded tab does not resume another user's call", async () => {
    app.unmount();
    sessionStorage.setItem(CALL_STORAGE_KEY, JSON.stringify({ callId: 'k9', userId: 'someone-else' }));
    app = renderApp();
    const reloaded = FakeSocket.last;
    act(() => reloaded.open());
    expect(reloaded.framesOf('resumeCall')).toEqual([]);
    await waitFor(() => expect(sessionStorage.getItem(CALL_STORAGE_KEY)).toBeNull());
  });
});

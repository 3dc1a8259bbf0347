import { describe, expect, it, vi } from 'vitest';
import { PeerSession } from './peer';

function fakePeerConnection() {
  return {
    addTrack: vi.fn(),
    addTransceiver: vi.fn(),
    setRemoteDescription: vi.fn(async () => {}),
    setLocalDescription: vi.fn(async () => {}),
    createOffer: vi.fn(async () => ({ type: 'offer', sdp: 'o' })),
    createAnswer: vi.fn(async () => ({ type: 'answer', sdp: 'a' })),
    addIceCandidate: vi.fn(async (_candidate: RTCIceCandidateInit) => {}),
    close: vi.fn(),
    localDescription: null,
    connectionState: 'new',
    onicecandidate: null,
    ontrack: null,
    onconnectionstatechange: null,
  };
}

function session() {
  const pc = fakePeerConnection();
  const peer = new PeerSession({
    iceServers: [],
    localStream: null,
    onRemoteStream: vi.fn(),
    onIceCandidate: vi.fn(),
    createPeerConnection: () => pc as unknown as RTCPeerConnection,
  });
  return { pc, peer };
}

describe('PeerSession', () => {
  it('without local media it still asks to receive video and audio', () => {
    const { pc } = session();
    expect(pc.addTransceiver).toHaveBeenCalledWith('video', { direction: 'recvonly' });
    expect(pc.addTransceiver).toHaveBeenCalledWith('audio', { direction: 'recvonly' });
  });

  it('queues ICE candidates that arrive before the remote description', async () => {
    const { pc, peer } = session();
    await peer.addCandidate({ candidate: 'c1' });
    await peer.addCandidate({ candidate: 'c2' });
    expect(pc.addIceCandidate).not.toHaveBeenCalled();
    const answer = await peer.acceptOffer({ type: 'offer', sdp: 'x' });
    expect(answer).toEqual({ type: 'answer', sdp: 'a' });
    expect(pc.addIceCandidate.mock.calls.map(([c]) => c)).toEqual([{ candidate: 'c1' }, { candidate: 'c2' }]);
    await peer.addCandidate({ candidate: 'c3' });
    expect(pc.addIceCandidate).toHaveBeenCalledTimes(3);
  });

  it('the caller offers and then takes the answer', async () => {
    const { pc, peer } = session();
    expect(await peer.createOffer()).toEqual({ type: 'offer', sdp: 'o' });
    await peer.acceptAnswer({ type: 'answer', sdp: 'a' });
    expect(pc.setRemoteDescription).toHaveBeenCalledWith({ type: 'answer', sdp: 'a' });
  });

  it('close closes the connection once', () => {
    const { pc, peer } = session();
    peer.close();
    peer.close();
    expect(pc.close).toHaveBeenCalledTimes(1);
  });
});

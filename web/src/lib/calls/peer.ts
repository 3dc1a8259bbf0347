/**
 * One side of a one-to-one WebRTC call. Offers, answers and ICE candidates travel over the real-time
 * channel (the caller of this class sends them); candidates that arrive before the remote description
 * are queued and added once it is set.
 */
export type PeerOptions = {
  iceServers: RTCIceServer[];
  localStream: MediaStream | null;
  onRemoteStream: (stream: MediaStream) => void;
  onIceCandidate: (candidate: RTCIceCandidateInit) => void;
  onConnectionState?: (state: RTCPeerConnectionState) => void;
  createPeerConnection?: (config: RTCConfiguration) => RTCPeerConnection;
};

export class PeerSession {
  readonly pc: RTCPeerConnection;
  private readonly pending: RTCIceCandidateInit[] = [];
  private remoteSet = false;
  private remoteStream: MediaStream | null = null;
  private closed = false;

  constructor({
    iceServers,
    localStream,
    onRemoteStream,
    onIceCandidate,
    onConnectionState,
    createPeerConnection = (config) => new RTCPeerConnection(config),
  }: PeerOptions) {
    this.pc = createPeerConnection({ iceServers });
    if (localStream) {
      for (const track of localStream.getTracks()) this.pc.addTrack(track, localStream);
    } else {
      // Without a camera or microphone this side still receives the other's video and sound.
      this.pc.addTransceiver('video', { direction: 'recvonly' });
      this.pc.addTransceiver('audio', { direction: 'recvonly' });
    }
    this.pc.onicecandidate = (event) => {
      if (event.candidate) onIceCandidate(event.candidate.toJSON());
    };
    this.pc.ontrack = (event) => {
      const stream = event.streams[0] ?? this.remoteStream ?? new MediaStream();
      if (!event.streams[0]) stream.addTrack(event.track);
      this.remoteStream = stream;
      onRemoteStream(stream);
    };
    this.pc.onconnectionstatechange = () => onConnectionState?.(this.pc.connectionState);
  }

  /** The caller, once the callee accepted. */
  async createOffer(): Promise<RTCSessionDescriptionInit> {
    const offer = await this.pc.createOffer();
    await this.pc.setLocalDescription(offer);
    return this.pc.localDescription?.toJSON() ?? offer;
  }

  /** The callee, on the caller's offer. */
  async acceptOffer(offer: RTCSessionDescriptionInit): Promise<RTCSessionDescriptionInit> {
    await this.setRemote(offer);
    const answer = await this.pc.createAnswer();
    await this.pc.setLocalDescription(answer);
    return this.pc.localDescription?.toJSON() ?? answer;
  }

  /** The caller, on the callee's answer. */
  async acceptAnswer(answer: RTCSessionDescriptionInit): Promise<void> {
    await this.setRemote(answer);
  }

  async addCandidate(candidate: RTCIceCandidateInit): Promise<void> {
    if (this.closed) return;
    if (!this.remoteSet) {
      this.pending.push(candidate);
      return;
    }
    await this.pc.addIceCandidate(candidate).catch(() => {});
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.pc.onicecandidate = this.pc.ontrack = this.pc.onconnectionstatechange = null;
    this.pc.close();
  }

  private async setRemote(description: RTCSessionDescriptionInit): Promise<void> {
    await this.pc.setRemoteDescription(description);
    this.remoteSet = true;
    const queued = this.pending.splice(0);
    for (const candidate of queued) await this.pc.addIceCandidate(candidate).catch(() => {});
  }
}

/** Camera and microphone for a call: ideal 1280x720, front camera, echo cancellation, noise suppression, gain control. */
export const CALL_MEDIA_CONSTRAINTS: MediaStreamConstraints = {
  video: { width: { ideal: 1280 }, height: { ideal: 720 }, facingMode: 'user' },
  audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
};

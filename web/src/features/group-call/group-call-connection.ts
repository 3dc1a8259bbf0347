/**
 * This browser's seat in a group session's call. The api is the only client of Janus's API: this
 * sends its SDP and ICE candidates over /api/ws and gets Janus's back the same way, while media
 * flows between this browser and Janus over two plain RTCPeerConnections:
 * - the publisher (send only): camera and microphone (the mentor's mute reaches every audio stream
 *   Janus reports for it, wherever it stands), and the mentor's screen as a further video;
 * - the subscriber (receive only): every other member's audio and video, offered by Janus.
 * Each time the socket is ready (first connection, reconnection, another api process) the seat
 * joins again and publishes afresh; the camera stays on meanwhile.
 */
import type { RealtimeClient } from '@/lib/realtime/client';
import type { GroupCallStream } from '@/lib/realtime/events';
import { CALL_TEXT } from '@/lib/calls/texts';

export type RoomStatus = 'connecting' | 'connected' | 'failed' | 'closed';

export type RoomSnapshot = {
  status: RoomStatus;
  error: string | null;
  /** The camera or microphone could not be opened (the spec's 'Media Access Error'). */
  mediaError?: boolean;
  /** This browser's camera and microphone. */
  local: MediaStream | null;
  /** This browser's shared screen (the mentor only). */
  screen: MediaStream | null;
  /** Every other member's media, by their Janus id. */
  remote: ReadonlyMap<number, MediaStream>;
};

export type GroupCallOptions = {
  client: RealtimeClient;
  groupSessionId: string;
  iceServers: RTCIceServer[];
  onChange: (snapshot: RoomSnapshot) => void;
};

/** The client events whose errors mean this seat could not (re)join. */
const SEAT_EVENTS = new Set(['join-group-session', 'group-call-offer', 'group-call-subscribe-answer']);

function messageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  return JSON.stringify(error);
}

export class GroupCallConnection {
  private publisher: RTCPeerConnection | null = null;
  private subscriber: RTCPeerConnection | null = null;
  private screenTransceiver: RTCRtpTransceiver | null = null;
  /** What each of the subscriber's mids carries (from the last offer). */
  private streams = new Map<string, GroupCallStream>();
  /** Bumped on every (re)join: work of an older connection is dropped. */
  private generation = 0;
  /** Publisher offers and subscriber offers are each handled one at a time. */
  private publishing: Promise<void> = Promise.resolve();
  private subscribing: Promise<void> = Promise.resolve();
  private answerWaiter: { resolve: (sdp: string) => void; reject: (error: Error) => void } | null = null;
  private readonly unsubscribe: (() => void)[] = [];
  private left = false;
  private snapshot: RoomSnapshot = { status: 'connecting', error: null, local: null, screen: null, remote: new Map() };

  constructor(private readonly options: GroupCallOptions) {}

  private update(patch: Partial<RoomSnapshot>) {
    this.snapshot = { ...this.snapshot, ...patch };
    if (!this.left || patch.status === 'closed') this.options.onChange(this.snapshot);
  }

  private fail(error: unknown) {
    this.update({ status: 'failed', error: messageOf(error) });
  }

  private get id() {
    return this.options.groupSessionId;
  }

  async start(): Promise<void> {
    const { client } = this.options;
    this.unsubscribe.push(
      client.on('group-call-answer', (d) => {
        if (d.groupSessionId !== this.id) return;
        const waiter = this.answerWaiter;
        this.answerWaiter = null;
        waiter?.resolve(d.sdp);
      }),
      client.on('group-call-subscribe-offer', (d) => {
        if (d.groupSessionId === this.id) this.onSubscribeOffer(d.sdp, d.streams);
      }),
      client.on('error', (d) => {
        if (!d.event || !SEAT_EVENTS.has(d.event)) return;
        if (d.event === 'group-call-offer') this.stopWaiting(new Error(d.message));
        this.fail(d.message);
      }),
      client.onStatus((connected) => {
        if (connected) this.join();
        else this.dropPeers('connecting');
      }),
    );
    try {
      const local = await navigator.mediaDevices.getUserMedia({ audio: true, video: true });
      if (this.left) {
        local.getTracks().forEach((t) => t.stop());
        return;
      }
      this.update({ local });
    } catch {
      this.update({ status: 'failed', error: CALL_TEXT.mediaErrorText, mediaError: true });
      return;
    }
    if (client.connected) this.join();
  }

  /** Joins (again): the api seats this member under their own id, then this publishes. */
  private join() {
    if (this.left || !this.snapshot.local) return;
    this.dropPeers('connecting');
    const generation = this.generation;
    if (!this.options.client.send('join-group-session', { groupSessionId: this.id })) return;
    const pc = new RTCPeerConnection({ iceServers: this.options.iceServers });
    this.publisher = pc;
    this.trickle(pc, 'publisher');
    // Microphone, then camera (the mentor's mute reaches the audio wherever it stands: the api asks Janus).
    for (const track of [...this.snapshot.local.getAudioTracks(), ...this.snapshot.local.getVideoTracks()]) {
      pc.addTransceiver(track, { direction: 'sendonly', streams: [this.snapshot.local] });
    }
    const screen = this.snapshot.screen?.getVideoTracks()[0];
    if (screen) this.screenTransceiver = pc.addTransceiver(screen, { direction: 'sendonly' });
    this.negotiate(generation).then(
      () => {
        if (generation === this.generation) this.update({ status: 'connected', error: null });
      },
      (error) => {
        if (generation === this.generation) this.fail(error);
      },
    );
  }

  /** Sends the publisher's offer through the api and applies Janus's answer (one at a time). */
  private negotiate(generation: number): Promise<void> {
    const run = async () => {
      const pc = this.publisher;
      if (!pc || generation !== this.generation) return;
      const offer = await pc.createOffer();
      await pc.setLocalDescription(offer);
      const answer = new Promise<string>((resolve, reject) => {
        this.answerWaiter = { resolve, reject };
      });
      if (!this.options.client.send('group-call-offer', { groupSessionId: this.id, sdp: offer.sdp ?? '' })) {
        this.stopWaiting(new Error('The connection dropped'));
      }
      const sdp = await answer;
      if (generation !== this.generation || pc.signalingState === 'closed') return;
      await pc.setRemoteDescription({ type: 'answer', sdp });
    };
    const next = this.publishing.then(run, run);
    this.publishing = next.catch(() => {});
    return next;
  }

  private stopWaiting(error: Error) {
    const waiter = this.answerWaiter;
    this.answerWaiter = null;
    waiter?.reject(error);
  }

  private trickle(pc: RTCPeerConnection, target: 'publisher' | 'subscriber') {
    pc.onicecandidate = (event) => {
      if (pc !== this.publisher && pc !== this.subscriber) return;
      this.options.client.send('ice-candidate', {
        groupSessionId: this.id,
        target,
        candidate: event.candidate ? event.candidate.toJSON() : null,
      });
    };
  }

  private onSubscribeOffer(sdp: string, streams: GroupCallStream[]) {
    const generation = this.generation;
    const run = async () => {
      if (this.left || generation !== this.generation) return;
      let pc = this.subscriber;
      if (!pc) {
        pc = new RTCPeerConnection({ iceServers: this.options.iceServers });
        this.subscriber = pc;
        this.trickle(pc, 'subscriber');
        pc.ontrack = () => this.showRemote();
      }
      this.streams = new Map(streams.map((s) => [s.mid, s]));
      await pc.setRemoteDescription({ type: 'offer', sdp });
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      if (generation !== this.generation) return;
      this.options.client.send('group-call-subscribe-answer', { groupSessionId: this.id, sdp: answer.sdp ?? '' });
      this.showRemote();
    };
    this.subscribing = this.subscribing.then(run, run).catch((error) => {
      if (generation === this.generation) this.fail(error);
    });
  }

  /** Groups the subscriber's tracks by member, keeping a member's stream while its tracks stay. */
  private showRemote() {
    const pc = this.subscriber;
    const tracks = new Map<number, MediaStreamTrack[]>();
    for (const transceiver of pc?.getTransceivers() ?? []) {
      const stream = transceiver.mid ? this.streams.get(transceiver.mid) : undefined;
      if (!stream) continue;
      const list = tracks.get(stream.janusId) ?? [];
      list.push(transceiver.receiver.track);
      tracks.set(stream.janusId, list);
    }
    const remote = new Map<number, MediaStream>();
    for (const [janusId, list] of tracks) {
      const before = this.snapshot.remote.get(janusId);
      const same =
        before && before.getTracks().length === list.length && list.every((t) => before.getTrackById(t.id) === t);
      remote.set(janusId, same ? before : new MediaStream(list));
    }
    this.update({ remote });
  }

  /** Closes both connections (the socket dropped, or a rejoin starts). */
  private dropPeers(status: RoomStatus) {
    this.generation += 1;
    this.stopWaiting(new Error('The connection dropped'));
    this.publisher?.close();
    this.subscriber?.close();
    this.publisher = null;
    this.subscriber = null;
    this.screenTransceiver = null;
    this.streams = new Map();
    if (!this.left) this.update({ status, remote: new Map() });
  }

  setAudio(on: boolean) {
    this.snapshot.local?.getAudioTracks().forEach((t) => (t.enabled = on));
  }

  setVideo(on: boolean) {
    this.snapshot.local?.getVideoTracks().forEach((t) => (t.enabled = on));
  }

  /** Adds (or removes) the screen as a further video of the publisher. */
  async shareScreen(on: boolean): Promise<void> {
    if (on === Boolean(this.snapshot.screen)) return;
    const generation = this.generation;
    try {
      if (on) {
        const screen = await navigator.mediaDevices.getDisplayMedia({ video: true });
        this.update({ screen });
        const track = screen.getVideoTracks()[0];
        if (this.publisher && track) {
          this.screenTransceiver = this.publisher.addTransceiver(track, { direction: 'sendonly' });
          await this.negotiate(generation);
        }
      } else {
        this.snapshot.screen?.getTracks().forEach((t) => t.stop());
        this.update({ screen: null });
        const transceiver = this.screenTransceiver;
        this.screenTransceiver = null;
        if (transceiver && this.publisher) {
          await transceiver.sender.replaceTrack(null);
          transceiver.direction = 'inactive';
          await this.negotiate(generation);
        }
      }
    } catch (error) {
      this.fail(error);
    }
  }

  /** Leaves the call for good (the page goes). */
  leave() {
    if (this.left) return;
    this.options.client.send('leave-group-session', { groupSessionId: this.id });
    this.dropPeers('closed');
    this.left = true;
    this.unsubscribe.forEach((off) => off());
    for (const t of [...(this.snapshot.local?.getTracks() ?? []), ...(this.snapshot.screen?.getTracks() ?? [])])
      t.stop();
    this.update({ status: 'closed' });
  }
}

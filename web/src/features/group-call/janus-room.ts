/**
 * One seat in a group session's Janus VideoRoom: publish this browser's camera and microphone (and
 * the mentor's screen), and subscribe to every other publisher, one subscriber handle per feed.
 * The api decided who may be here: this only uses the signed tokens it handed out.
 */
import Janus from 'janus-gateway';
import adapter from 'webrtc-adapter';

const PLUGIN = 'janus.plugin.videoroom';

export type RoomStatus = 'connecting' | 'connected' | 'failed' | 'closed';

export type RoomSnapshot = {
  status: RoomStatus;
  error: string | null;
  /** This browser's camera and microphone. */
  local: MediaStream | null;
  /** This browser's shared screen (the mentor only). */
  screen: MediaStream | null;
  /** Every other publisher's media, by their Janus id. */
  remote: ReadonlyMap<number, MediaStream>;
  /** Janus said this seat was kicked from the room. */
  kicked: boolean;
};

export type RoomOptions = {
  server: string;
  sessionToken: string;
  roomToken: string;
  roomId: number;
  participantId: number;
  display: string;
  iceServers: RTCIceServer[];
  /** Publishing cap in bits per second (the mentor asks for more, for a screen beside the camera). */
  bitrate?: number;
  onChange: (snapshot: RoomSnapshot) => void;
};

type Handle = {
  send: (opts: { message: Record<string, unknown>; jsep?: unknown }) => void;
  createOffer: (opts: Record<string, unknown>) => void;
  createAnswer: (opts: Record<string, unknown>) => void;
  handleRemoteJsep: (opts: { jsep: unknown }) => void;
  muteAudio: () => void;
  unmuteAudio: () => void;
  muteVideo: () => void;
  unmuteVideo: () => void;
  hangup: () => void;
  detach: (opts?: Record<string, unknown>) => void;
};

type JanusSession = {
  attach: (opts: Record<string, unknown>) => void;
  destroy: (opts?: Record<string, unknown>) => void;
};

type Publisher = { id: number; display?: string };

let initialised: Promise<void> | null = null;

function initJanus(): Promise<void> {
  initialised ??= new Promise((resolve) => {
    Janus.init({ debug: false, dependencies: Janus.useDefaultDependencies({ adapter }), callback: () => resolve() });
  });
  return initialised;
}

export class JanusRoom {
  private janus: JanusSession | null = null;
  private publisher: Handle | null = null;
  private privateId: number | null = null;
  private readonly feeds = new Map<number, Handle>();
  private sharingScreen = false;
  private left = false;
  private snapshot: RoomSnapshot = {
    status: 'connecting',
    error: null,
    local: null,
    screen: null,
    remote: new Map(),
    kicked: false,
  };

  constructor(private readonly options: RoomOptions) {}

  private update(patch: Partial<RoomSnapshot>) {
    this.snapshot = { ...this.snapshot, ...patch };
    if (!this.left || patch.status === 'closed') this.options.onChange(this.snapshot);
  }

  private fail(error: unknown) {
    const message = typeof error === 'string' ? error : error instanceof Error ? error.message : JSON.stringify(error);
    this.update({ status: 'failed', error: message });
  }

  async start(): Promise<void> {
    await initJanus();
    this.janus = new Janus({
      server: this.options.server,
      token: this.options.sessionToken,
      iceServers: this.options.iceServers,
      success: () => this.attachPublisher(),
      error: (e: unknown) => this.fail(e),
      destroyed: () => this.update({ status: 'closed' }),
    }) as unknown as JanusSession;
  }

  private attachPublisher() {
    this.janus?.attach({
      plugin: PLUGIN,
      success: (handle: Handle) => {
        this.publisher = handle;
        handle.send({
          message: {
            request: 'join',
            ptype: 'publisher',
            room: this.options.roomId,
            id: this.options.participantId,
            display: this.options.display,
            token: this.options.roomToken,
          },
        });
      },
      error: (e: unknown) => this.fail(e),
      onmessage: (msg: Record<string, unknown>, jsep?: unknown) => this.onPublisherMessage(msg, jsep),
      onlocaltrack: (track: MediaStreamTrack, on: boolean) => this.onLocalTrack(track, on),
    });
  }

  private onPublisherMessage(msg: Record<string, unknown>, jsep?: unknown) {
    const event = msg.videoroom;
    if (event === 'joined') {
      this.privateId = (msg.private_id as number) ?? null;
      this.update({ status: 'connected' });
      this.publishCamera();
      this.subscribeAll(msg.publishers as Publisher[] | undefined);
    } else if (event === 'event') {
      this.subscribeAll(msg.publishers as Publisher[] | undefined);
      const gone = (msg.leaving ?? msg.unpublished ?? msg.kicked) as number | string | undefined;
      if (gone === 'ok' && msg.reason === 'kicked') this.update({ kicked: true });
      else if (typeof gone === 'number') this.dropFeed(gone);
      if (msg.error) this.fail(msg.error);
    } else if (event === 'destroyed') {
      this.update({ status: 'closed' });
    }
    if (jsep) this.publisher?.handleRemoteJsep({ jsep });
  }

  private publishCamera() {
    this.publisher?.createOffer({
      tracks: [
        { type: 'audio', capture: true, recv: false },
        { type: 'video', capture: true, recv: false },
      ],
      success: (jsep: unknown) => {
        const message: Record<string, unknown> = { request: 'configure', audio: true, video: true };
        if (this.options.bitrate) message.bitrate = this.options.bitrate;
        this.publisher?.send({ message, jsep });
      },
      error: (e: unknown) => this.fail(e),
    });
  }

  private onLocalTrack(track: MediaStreamTrack, on: boolean) {
    const screen =
      this.sharingScreen && track.kind === 'video' && track.label !== this.snapshot.local?.getVideoTracks()[0]?.label;
    const key = screen ? 'screen' : 'local';
    const tracks = (this.snapshot[key]?.getTracks() ?? []).filter((t) => t.id !== track.id);
    if (on) tracks.push(track);
    this.update({ [key]: tracks.length ? new MediaStream(tracks) : null });
  }

  private subscribeAll(publishers: Publisher[] | undefined) {
    for (const p of publishers ?? []) {
      if (p.id === this.options.participantId) continue;
      // A publisher that changed (a screen added) is subscribed afresh to get every stream.
      this.dropFeed(p.id);
      this.subscribe(p.id);
    }
  }

  private subscribe(feed: number) {
    this.janus?.attach({
      plugin: PLUGIN,
      success: (handle: Handle) => {
        this.feeds.set(feed, handle);
        handle.send({
          message: {
            request: 'join',
            ptype: 'subscriber',
            room: this.options.roomId,
            streams: [{ feed }],
            private_id: this.privateId,
            token: this.options.roomToken,
          },
        });
      },
      error: (e: unknown) => this.fail(e),
      onmessage: (_msg: Record<string, unknown>, jsep?: unknown) => {
        const handle = this.feeds.get(feed);
        if (!jsep || !handle) return;
        handle.createAnswer({
          jsep,
          tracks: [{ type: 'data' }],
          success: (answer: unknown) =>
            handle.send({ message: { request: 'start', room: this.options.roomId }, jsep: answer }),
          error: (e: unknown) => this.fail(e),
        });
      },
      onremotetrack: (track: MediaStreamTrack, _mid: string, on: boolean) => {
        const remote = new Map(this.snapshot.remote);
        const tracks = (remote.get(feed)?.getTracks() ?? []).filter((t) => t.id !== track.id);
        if (on) tracks.push(track);
        if (tracks.length) remote.set(feed, new MediaStream(tracks));
        else remote.delete(feed);
        this.update({ remote });
      },
    });
  }

  private dropFeed(feed: number) {
    const handle = this.feeds.get(feed);
    if (handle) {
      this.feeds.delete(feed);
      handle.detach();
    }
    if (this.snapshot.remote.has(feed)) {
      const remote = new Map(this.snapshot.remote);
      remote.delete(feed);
      this.update({ remote });
    }
  }

  setAudio(on: boolean) {
    if (on) this.publisher?.unmuteAudio();
    else this.publisher?.muteAudio();
  }

  setVideo(on: boolean) {
    if (on) this.publisher?.unmuteVideo();
    else this.publisher?.muteVideo();
  }

  /** Adds (or removes) the screen as a second video track. */
  shareScreen(on: boolean) {
    if (on === this.sharingScreen) return;
    this.sharingScreen = on;
    this.publisher?.createOffer({
      tracks: [on ? { type: 'screen', add: true, capture: true, recv: false } : { type: 'screen', remove: true }],
      success: (jsep: unknown) => this.publisher?.send({ message: { request: 'configure' }, jsep }),
      error: (e: unknown) => {
        this.sharingScreen = !on;
        this.fail(e);
      },
    });
    if (!on) this.update({ screen: null });
  }

  /** Leaves the room and closes the Janus session. */
  leave() {
    if (this.left) return;
    this.left = true;
    try {
      this.publisher?.send({ message: { request: 'leave' } });
      for (const handle of this.feeds.values()) handle.detach();
      this.publisher?.hangup();
      this.janus?.destroy({ notifyDestroyed: false });
    } catch {
      // Already gone: nothing to close.
    }
    for (const t of [...(this.snapshot.local?.getTracks() ?? []), ...(this.snapshot.screen?.getTracks() ?? [])])
      t.stop();
    this.update({ status: 'closed' });
  }
}

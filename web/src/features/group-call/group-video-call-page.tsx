import { useQuery } from '@tanstack/react-query';
import { CircleAlert, LogOut, MonitorUp, PhoneOff, Play, UserX, Video, VideoOff, Volume2, VolumeX } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { getGroupSession } from '@/api/endpoints/booking/booking';
import type { CallMemberView, GroupCallView } from '@/api/model';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { FullPageSpinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-fetch';
import { formatCallDuration } from '@/lib/calls/call-timer';
import { useRealtime, useRealtimeEvent } from '@/lib/realtime/provider';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';
import { groupCallQuery } from './api';
import { GroupCallConnection, type RoomSnapshot } from './group-call-connection';
import { MicButton } from './mic-button';
import { useMutedByMentor } from './mute-state';
import { isRemovedError, RemovedNotice } from './removed-notice';

export const GROUP_CALL_TEXT = {
  sessionError: 'Session Error',
  noSessionId: 'No session ID provided',
  loadFailed: 'Failed to load group session',
  backToSessions: 'Back to Sessions',
  started: 'Group Session Started',
  ended: 'Group Session Ended',
  removedParticipant: 'Participant Removed',
  youWereRemoved: 'You were removed from this session',
  waiting: 'Waiting for the mentor to start the session',
} as const;

const SECOND_MS = 1_000;
const BACK_TO = '/group-sessions';

/** /group-video-call/{sessionId}: the group session's call through the SFU. */
export function GroupVideoCallPage() {
  const { sessionId = '' } = useParams();
  useDocumentTitle('Group Video Call');
  const call = useQuery({ ...groupCallQuery(sessionId), enabled: Boolean(sessionId) });
  if (!sessionId) return <SessionError message={GROUP_CALL_TEXT.noSessionId} />;
  if (call.isLoading) return <FullPageSpinner label="Joining the session" />;
  if (call.isError && isRemovedError(errorMessage(call.error, ''))) return <RemovedNotice />;
  if (call.isError || !call.data)
    return <SessionError message={errorMessage(call.error, GROUP_CALL_TEXT.loadFailed)} />;
  return <CallRoom call={call.data} />;
}

function SessionError({ message }: { message: string }) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
      <StateCard
        as="h1"
        tone="error"
        icon={CircleAlert}
        title={GROUP_CALL_TEXT.sessionError}
        actions={
          <Button asChild>
            <Link to={BACK_TO}>{GROUP_CALL_TEXT.backToSessions}</Link>
          </Button>
        }
      >
        {message}
      </StateCard>
    </div>
  );
}

const NO_ROOM: RoomSnapshot = {
  status: 'connecting',
  error: null,
  local: null,
  screen: null,
  remote: new Map(),
};

function CallRoom({ call }: { call: GroupCallView }) {
  const navigate = useNavigate();
  const { client, connected: listening } = useRealtime();
  const isMentor = call.role === 'mentor';
  const id = call.groupSessionId;
  const [room, setRoom] = useState<RoomSnapshot>(NO_ROOM);
  const roomRef = useRef<GroupCallConnection | null>(null);
  const [active, setActive] = useState(call.status === 'active');
  const [startedAt, setStartedAt] = useState<number>(() => Date.parse(call.scheduledAt));
  const [members, setMembers] = useState<CallMemberView[]>(call.members);
  // Who the mentor keeps muted, from the call (a reload keeps the mute) and then the events.
  const [muted, setMuted] = useState<ReadonlySet<string>>(
    () => new Set(call.members.filter((m) => m.isMutedByMentor).map((m) => m.id)),
  );
  const mutedOnArrival = call.members.some((m) => m.janusId === call.participantId && m.isMutedByMentor);
  const [cameraOff, setCameraOff] = useState<ReadonlySet<string>>(new Set());
  const [micOn, setMicOn] = useState(!mutedOnArrival);
  const [camOn, setCamOn] = useState(true);
  const [sharing, setSharing] = useState(false);
  const me = members.find((m) => m.janusId === call.participantId);
  // Removed by the mentor: this page says so, with no way back into the call.
  const [removed, setRemoved] = useState(false);
  // Muted by the mentor: the microphone goes off and stays off until they unmute.
  const mutedByMentor = useMutedByMentor(
    id,
    isMentor ? undefined : me?.id,
    () => {
      roomRef.current?.setAudio(false);
      setMicOn(false);
    },
    mutedOnArrival,
  );

  // Take the seat (again each time the socket is ready); leave it when the page goes.
  useEffect(() => {
    if (!client) return;
    const connection = new GroupCallConnection({
      client,
      groupSessionId: id,
      iceServers: call.iceServers.map((s) => ({ urls: s.urls, username: s.username, credential: s.credential })),
      onChange: setRoom,
    });
    roomRef.current = connection;
    void connection.start();
    return () => {
      connection.leave();
      roomRef.current = null;
    };
    // The call view is fetched once per visit (staleTime Infinity): this runs once per client.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, id]);

  const leaveTo = (path: string) => {
    roomRef.current?.leave();
    navigate(path);
  };

  const activeRef = useRef(active);
  const started = (at: number) => {
    if (activeRef.current) return;
    activeRef.current = true;
    setActive(true);
    setStartedAt(at);
    toast.success(GROUP_CALL_TEXT.started);
  };
  const ended = () => {
    toast.info(GROUP_CALL_TEXT.ended);
    leaveTo(BACK_TO);
  };
  useRealtimeEvent('group-session-started', (d) => {
    if (d.groupSessionId !== id) return;
    started(Date.parse(d.startedAt) || Date.now());
  });
  useRealtimeEvent('group-session-ended', (d) => {
    if (d.groupSessionId !== id) return;
    ended();
  });
  // A start or end announced before this page's socket was ready (or while it reconnected) never
  // reaches it: each time the socket is ready, the session's state is read once.
  useEffect(() => {
    if (!listening) return;
    const controller = new AbortController();
    getGroupSession(id, { signal: controller.signal })
      .then((session) => {
        if (session.status === 'active') started(Date.parse(call.scheduledAt));
        else if (session.status === 'completed' || session.status === 'cancelled') ended();
      })
      .catch(() => {
        // Aborted or offline: the events, or the next connection, bring the state.
      });
    return () => controller.abort();
    // Runs per connection; `started` and `ended` read refs and setters only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [listening, id]);
  useRealtimeEvent('participant-joined', (d) => {
    const p = d.participant;
    if (d.groupSessionId !== id || !p) return;
    setMembers((list) =>
      list.some((m) => m.id === p.id)
        ? list
        : [
            ...list,
            {
              id: p.id,
              firstName: p.firstName ?? '',
              lastName: p.lastName ?? '',
              profileImageUrl: p.profileImageUrl ?? null,
              janusId: p.janusId,
              isMentor: p.isMentor,
              // A newcomer's mute shows in `muted` once the mentor mutes them.
              isMutedByMentor: false,
            },
          ],
    );
  });
  useRealtimeEvent('participant-left', (d) => {
    if (d.groupSessionId !== id || d.reason !== 'removed') return;
    if (me && d.participantId === me.id) {
      toast.error(GROUP_CALL_TEXT.youWereRemoved);
      roomRef.current?.leave();
      setRemoved(true);
      return;
    }
    setMembers((list) => list.filter((m) => m.id !== d.participantId));
    if (isMentor) toast.success(GROUP_CALL_TEXT.removedParticipant);
  });
  useRealtimeEvent('participant-muted', (d) => {
    if (d.groupSessionId !== id) return;
    setMuted((s) => new Set(s).add(d.participantId));
  });
  useRealtimeEvent('participant-unmuted', (d) => {
    if (d.groupSessionId !== id) return;
    setMuted((s) => {
      const next = new Set(s);
      next.delete(d.participantId);
      return next;
    });
  });
  useRealtimeEvent('toggle-video', (d) => {
    if (d.groupSessionId !== id) return;
    setCameraOff((s) => {
      const next = new Set(s);
      if (d.isVideoEnabled) next.delete(d.participantId);
      else next.add(d.participantId);
      return next;
    });
  });

  const toggleMic = () => {
    if (mutedByMentor) return;
    roomRef.current?.setAudio(!micOn);
    client?.send('toggle-audio', { groupSessionId: id, isAudioEnabled: !micOn });
    setMicOn(!micOn);
  };
  const toggleCam = () => {
    roomRef.current?.setVideo(!camOn);
    client?.send('toggle-video', { groupSessionId: id, isVideoEnabled: !camOn });
    setCamOn(!camOn);
  };
  const toggleScreen = () => {
    void roomRef.current?.shareScreen(!sharing);
    setSharing(!sharing);
  };

  const byJanusId = new Map(members.map((m) => [m.janusId, m]));
  const remote = [...room.remote.entries()];
  const count = 1 + remote.length;

  if (removed) return <RemovedNotice />;

  return (
    <div className="min-h-[calc(100vh-4rem)] bg-slate-950 text-white">
      <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:px-8">
        <header className="flex flex-wrap items-center justify-between gap-3">
          <div>
            <h1 className="font-display text-2xl font-semibold">{call.title}</h1>
            <p className="text-sm text-slate-300">with {call.mentorName}</p>
          </div>
          <div className="flex items-center gap-2 text-sm">
            {active && (
              <span
                className="rounded-full bg-rose-600 px-2.5 py-1 text-xs font-semibold uppercase tracking-wide"
                aria-label="Live"
              >
                Live
              </span>
            )}
            {active && <Elapsed since={startedAt} />}
            <span data-testid="participant-count" className="rounded-full bg-white/10 px-2.5 py-1 text-xs">
              {count} {count === 1 ? 'participant' : 'participants'}
            </span>
          </div>
        </header>

        {!active && (
          <p className="mt-4 rounded-lg bg-white/5 px-4 py-3 text-sm text-slate-200">{GROUP_CALL_TEXT.waiting}</p>
        )}
        {room.status === 'failed' && (
          <p role="alert" className="mt-4 rounded-lg bg-rose-900/60 px-4 py-3 text-sm">
            Could not connect to the call: {room.error}
          </p>
        )}

        <ul aria-label="Participants" className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <li>
            <Tile
              label={isMentor ? 'You (Mentor)' : 'You'}
              stream={room.local}
              muted
              testId="local-video"
              dimmed={!camOn}
            />
          </li>
          {room.screen && (
            <li>
              <Tile label="Your screen" stream={room.screen} muted testId="local-screen" />
            </li>
          )}
          {remote.map(([janusId, stream]) => {
            const member = byJanusId.get(janusId);
            const name = member ? `${member.firstName} ${member.lastName}`.trim() : 'Participant';
            const label = member?.isMentor ? `${name} (Mentor)` : name;
            const isMuted = member ? muted.has(member.id) : false;
            return (
              <li key={janusId}>
                <Tile
                  label={label}
                  stream={stream}
                  muted={false}
                  testId={`remote-video-${member?.id ?? janusId}`}
                  dimmed={member ? cameraOff.has(member.id) : false}
                  badge={isMuted ? 'Muted' : undefined}
                >
                  {isMentor && member && !member.isMentor && (
                    <div className="flex gap-1">
                      {isMuted ? (
                        <Button
                          size="sm"
                          variant="outline"
                          aria-label={`Unmute ${name}`}
                          onClick={() =>
                            client?.send('unmute-participant', { groupSessionId: id, participantId: member.id })
                          }
                        >
                          <Volume2 aria-hidden="true" className="h-4 w-4" />
                        </Button>
                      ) : (
                        <Button
                          size="sm"
                          variant="outline"
                          aria-label={`Mute ${name}`}
                          onClick={() =>
                            client?.send('mute-participant', { groupSessionId: id, participantId: member.id })
                          }
                        >
                          <VolumeX aria-hidden="true" className="h-4 w-4" />
                        </Button>
                      )}
                      <Button
                        size="sm"
                        variant="outline"
                        aria-label={`Remove ${name}`}
                        onClick={() =>
                          client?.send('remove-participant', { groupSessionId: id, participantId: member.id })
                        }
                      >
                        <UserX aria-hidden="true" className="h-4 w-4" />
                      </Button>
                    </div>
                  )}
                </Tile>
              </li>
            );
          })}
        </ul>

        <div
          role="toolbar"
          aria-label="Call controls"
          className="mt-6 flex flex-wrap items-center justify-center gap-3"
        >
          <MicButton micOn={micOn} mutedByMentor={mutedByMentor} onToggle={toggleMic} />
          <Button
            variant="outline"
            onClick={toggleCam}
            aria-pressed={!camOn}
            aria-label={camOn ? 'Turn camera off' : 'Turn camera on'}
          >
            {camOn ? (
              <Video aria-hidden="true" className="h-4 w-4" />
            ) : (
              <VideoOff aria-hidden="true" className="h-4 w-4" />
            )}
          </Button>
          {isMentor && (
            <Button variant="outline" onClick={toggleScreen} aria-pressed={sharing}>
              <MonitorUp aria-hidden="true" className="h-4 w-4" />
              {sharing ? 'Stop Sharing' : 'Share Screen'}
            </Button>
          )}
          {isMentor && !active && (
            <Button variant="gradient" onClick={() => client?.send('start-group-session', { groupSessionId: id })}>
              <Play aria-hidden="true" className="h-4 w-4" />
              Start Session
            </Button>
          )}
          {isMentor && active && (
            <Button variant="destructive" onClick={() => client?.send('end-group-session', { groupSessionId: id })}>
              <PhoneOff aria-hidden="true" className="h-4 w-4" />
              End Session
            </Button>
          )}
          {!isMentor && (
            <Button variant="destructive" onClick={() => leaveTo(BACK_TO)}>
              <LogOut aria-hidden="true" className="h-4 w-4" />
              Leave Session
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}

function Elapsed({ since }: { since: number }) {
  const now = useNow(SECOND_MS);
  return (
    <span data-testid="elapsed-time" className="rounded-full bg-white/10 px-2.5 py-1 font-mono text-xs">
      {formatCallDuration((now.getTime() - since) / SECOND_MS)}
    </span>
  );
}

type TileProps = {
  label: string;
  stream: MediaStream | null;
  muted: boolean;
  testId: string;
  dimmed?: boolean;
  badge?: string;
  children?: React.ReactNode;
};

function Tile({ label, stream, muted, testId, dimmed, badge, children }: TileProps) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (video.srcObject !== stream) video.srcObject = stream;
    if (stream) (video.play?.() as Promise<void> | undefined)?.catch(() => {});
  }, [stream]);
  return (
    <figure aria-label={label} className="relative overflow-hidden rounded-xl bg-slate-800">
      <video
        ref={ref}
        data-testid={testId}
        autoPlay
        playsInline
        muted={muted}
        className={cn('aspect-video w-full object-cover', dimmed && 'opacity-30')}
      />
      <figcaption className="absolute bottom-2 left-2 flex items-center gap-2 rounded bg-black/60 px-2 py-0.5 text-xs">
        {label}
        {badge && <span className="rounded bg-amber-500 px-1 text-[10px] font-semibold text-black">{badge}</span>}
      </figcaption>
      {children && <div className="absolute right-2 top-2">{children}</div>}
    </figure>
  );
}

export default GroupVideoCallPage;

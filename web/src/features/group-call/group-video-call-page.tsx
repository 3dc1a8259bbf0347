import { useQuery } from '@tanstack/react-query';
import { CircleAlert, LogOut, MonitorUp, UserX, Video, VideoOff, Volume2, VolumeX } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { CallMemberView, GroupCallView } from '@/api/model';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { FullPageSpinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-fetch';
import { formatCallDuration } from '@/lib/calls/call-timer';
import { formatTime } from '@/lib/format';
import { useGroupSession } from '@/lib/group-sessions-api';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';
import { groupCallQuery } from './api';
import { MicButton } from './mic-button';
import { EndSessionDialog, RemoveParticipantDialog } from './moderation-dialogs';
import { isRemovedError, RemovedNotice } from './removed-notice';
import { SessionButton } from './session-button';
import { GROUP_CALL_TEXT } from './texts';
import { BACK_TO, useGroupCall } from './use-group-call';
import { CALL_TEXT } from '@/lib/calls/texts';

const SECOND_MS = 1_000;

/** /group-video-call/{sessionId}: the group session's call through the SFU. */
export function GroupVideoCallPage() {
  const { sessionId = '' } = useParams();
  useDocumentTitle('Group Video Call');
  const call = useQuery({ ...groupCallQuery(sessionId), enabled: Boolean(sessionId) });
  if (!sessionId) return <SessionError message={GROUP_CALL_TEXT.noSessionId} />;
  if (call.isLoading) return <FullPageSpinner label="Joining the session" />;
  if (call.isError && isRemovedError(errorMessage(call.error, ''))) return <RemovedNotice sessionId={sessionId} />;
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

function CallRoom({ call }: { call: GroupCallView }) {
  const {
    room,
    isMentor,
    active,
    startedAt,
    members,
    muted,
    cameraOff,
    micOn,
    camOn,
    sharing,
    removed,
    mutedByMentor,
    toggleMic,
    toggleCam,
    toggleScreen,
    muteMember,
    unmuteMember,
    removeMember,
    startSession,
    endSession,
    leave,
  } = useGroupCall(call);

  const byJanusId = new Map(members.map((m) => [m.janusId, m]));
  const remote = [...room.remote.entries()];
  const count = 1 + remote.length;
  // The mentor's confirmations: whom to remove (and why), and ending the session.
  const [removing, setRemoving] = useState<CallMemberView | null>(null);
  const [ending, setEnding] = useState(false);
  const session = useGroupSession(isMentor ? call.groupSessionId : '');
  const here = remote
    .map(([janusId]) => byJanusId.get(janusId))
    .filter((m): m is CallMemberView => Boolean(m))
    .map(memberName);

  if (removed) return <RemovedNotice sessionId={call.groupSessionId} />;

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

        {!active && <WaitingRoom scheduledAt={call.scheduledAt} isMentor={isMentor} here={here} />}
        {room.status === 'failed' &&
          (room.mediaError ? (
            <div role="alert" className="mt-4 rounded-lg bg-rose-900/60 px-4 py-3 text-sm">
              <p className="font-semibold">{CALL_TEXT.mediaError}</p>
              <p>{CALL_TEXT.mediaErrorText}</p>
            </div>
          ) : (
            <p role="alert" className="mt-4 rounded-lg bg-rose-900/60 px-4 py-3 text-sm">
              Could not connect to the call: {room.error}
            </p>
          ))}

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
                          onClick={() => unmuteMember(member.id)}
                        >
                          <Volume2 aria-hidden="true" className="h-4 w-4" />
                        </Button>
                      ) : (
                        <Button
                          size="sm"
                          variant="outline"
                          aria-label={`Mute ${name}`}
                          onClick={() => muteMember(member.id)}
                        >
                          <VolumeX aria-hidden="true" className="h-4 w-4" />
                        </Button>
                      )}
                      <Button
                        size="sm"
                        variant="outline"
                        aria-label={`Remove ${name}`}
                        onClick={() => setRemoving(member)}
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
          {isMentor && <SessionButton active={active} onStart={startSession} onEnd={() => setEnding(true)} />}
          {!isMentor && (
            <Button variant="destructive" onClick={leave}>
              <LogOut aria-hidden="true" className="h-4 w-4" />
              Leave Session
            </Button>
          )}
        </div>
      </div>
      {isMentor && (
        <>
          <RemoveParticipantDialog
            name={removing ? memberName(removing) : null}
            price={session.data?.service.price}
            onConfirm={(reason) => removing && removeMember(removing.id, reason)}
            onClose={() => setRemoving(null)}
          />
          <EndSessionDialog open={ending} onConfirm={endSession} onClose={() => setEnding(false)} />
        </>
      )}
    </div>
  );
}

function memberName(m: CallMemberView): string {
  const name = `${m.firstName} ${m.lastName}`.trim() || 'Participant';
  return m.isMentor ? `${name} (Mentor)` : name;
}

/**
 * Before the mentor starts (the call opens 15 minutes early): when the session starts, and who is
 * in the room already.
 */
function WaitingRoom({ scheduledAt, isMentor, here }: { scheduledAt: string; isMentor: boolean; here: string[] }) {
  const now = useNow(SECOND_MS);
  const minutes = Math.ceil((Date.parse(scheduledAt) - now.getTime()) / 60_000);
  const when = minutes > 1 ? `in ${minutes} minutes` : minutes === 1 ? 'in 1 minute' : 'start time reached';
  return (
    <section aria-label="Waiting room" className="mt-4 rounded-lg bg-white/5 px-4 py-3 text-sm text-slate-200">
      <p>{isMentor ? GROUP_CALL_TEXT.waitingMentor : GROUP_CALL_TEXT.waiting}</p>
      <p data-testid="starts-at" className="mt-1 font-medium text-white">
        Starts at {formatTime(scheduledAt)} ({when})
      </p>
      <p className="mt-1">
        Here now: <span data-testid="here-now">{['You', ...here].join(', ')}</span>
      </p>
    </section>
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

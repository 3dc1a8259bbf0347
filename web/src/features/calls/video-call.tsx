import { Mic, MicOff, PhoneOff, Video, VideoOff } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { CALL_TEXT } from '@/lib/calls/texts';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';
import { useCall } from '@/lib/calls/call-provider';
import { formatCallDuration } from '@/lib/calls/call-timer';

const SECOND_MS = 1_000;

function StreamVideo({
  stream,
  muted,
  testId,
  className,
}: {
  stream: MediaStream | null;
  muted: boolean;
  testId: string;
  className?: string;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    if (video.srcObject !== stream) video.srcObject = stream;
    if (stream) {
      const playing = video.play?.() as Promise<void> | undefined;
      playing?.catch(() => {});
    }
  }, [stream]);
  return <video ref={ref} data-testid={testId} autoPlay playsInline muted={muted} className={className} />;
}

function CallTimer({ since }: { since: number }) {
  const now = useNow(SECOND_MS);
  return (
    <span data-testid="call-timer" className="rounded-full bg-black/50 px-2.5 py-1 font-mono text-xs text-white">
      {formatCallDuration((now.getTime() - since) / SECOND_MS)}
    </span>
  );
}

/** The active call of a conversation: the other side's video, this side's preview, toggles, timer and hang up. */
export function VideoCall({ peerName }: { peerName: string }) {
  const { activeCall, media, hangUp, toggleCamera, toggleMic } = useCall();
  if (!activeCall) return null;
  const answered = activeCall.answeredAt !== null;
  return (
    <section aria-label="Video call" className="relative overflow-hidden rounded-xl bg-slate-900">
      <StreamVideo
        stream={media.remoteStream}
        muted={false}
        testId="remote-video"
        className="aspect-video max-h-[55vh] w-full bg-slate-900 object-contain"
      />
      {!media.remoteStream && (
        <p className="absolute inset-0 flex items-center justify-center text-sm text-slate-300">
          {answered ? `Connecting to ${peerName}…` : `Calling ${peerName}…`}
        </p>
      )}
      <StreamVideo
        stream={media.localStream}
        muted
        testId="local-video"
        className={cn(
          'absolute bottom-16 right-3 aspect-video w-32 rounded-lg border-2 border-white/70 bg-slate-800 object-cover sm:w-44',
          !media.cameraOn && 'opacity-40',
        )}
      />
      <div className="absolute left-3 top-3">
        {activeCall.answeredAt !== null && <CallTimer since={activeCall.answeredAt} />}
      </div>
      {media.mediaError && (
        <div role="alert" className="absolute inset-x-3 top-12 rounded-lg bg-rose-600/90 px-3 py-2 text-sm text-white">
          <p className="font-semibold">{CALL_TEXT.mediaError}</p>
          <p>{media.mediaError}</p>
        </div>
      )}
      <div className="flex items-center justify-center gap-3 bg-slate-950/80 p-3">
        <Button
          variant="ghost"
          size="icon"
          className="rounded-full bg-white/10 text-white hover:bg-white/20 hover:text-white"
          aria-label={media.cameraOn ? 'Turn camera off' : 'Turn camera on'}
          aria-pressed={!media.cameraOn}
          onClick={toggleCamera}
        >
          {media.cameraOn ? (
            <Video aria-hidden="true" className="h-5 w-5" />
          ) : (
            <VideoOff aria-hidden="true" className="h-5 w-5" />
          )}
        </Button>
        <Button
          variant="ghost"
          size="icon"
          className="rounded-full bg-white/10 text-white hover:bg-white/20 hover:text-white"
          aria-label={media.micOn ? 'Mute microphone' : 'Unmute microphone'}
          aria-pressed={!media.micOn}
          onClick={toggleMic}
        >
          {media.micOn ? (
            <Mic aria-hidden="true" className="h-5 w-5" />
          ) : (
            <MicOff aria-hidden="true" className="h-5 w-5" />
          )}
        </Button>
        <Button variant="destructive" className="rounded-full" onClick={hangUp}>
          <PhoneOff aria-hidden="true" className="h-5 w-5" />
          Hang up
        </Button>
      </div>
    </section>
  );
}

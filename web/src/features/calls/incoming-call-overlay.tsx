import { Phone, PhoneOff } from 'lucide-react';
import { useEffect } from 'react';
import { PersonAvatar, personName } from '@/components/person-avatar';
import { Button } from '@/components/ui/button';
import { useCall } from '@/lib/calls/call-provider';
import type { IncomingCall } from '@/lib/calls/call-state';
import { CALL_TEXT, INCOMING_CALL_SOUND } from '@/lib/calls/texts';

/** Plays the ring; a browser that refuses to play (no user gesture yet, say) is simply silent. */
function useRing(src: string) {
  useEffect(() => {
    let audio: HTMLAudioElement | null = null;
    try {
      audio = new Audio(src);
      audio.loop = true;
      const playing = audio.play() as Promise<void> | undefined;
      playing?.catch(() => {});
    } catch {
      // no audio support: ignore
    }
    return () => {
      try {
        audio?.pause();
      } catch {
        // ignore
      }
    };
  }, [src]);
}

/** Over any screen while a call rings for this user; app/ mounts it inside the call provider. */
export function IncomingCallOverlay() {
  const { incomingCall, acceptCall, declineCall } = useCall();
  return incomingCall && <Ringing call={incomingCall} onAccept={acceptCall} onDecline={declineCall} />;
}

/** The caller's avatar (or initials) and full name, 'Incoming video call', Decline and Accept. */
function Ringing({ call, onAccept, onDecline }: { call: IncomingCall; onAccept: () => void; onDecline: () => void }) {
  useRing(INCOMING_CALL_SOUND);
  const name = personName(call.caller);
  return (
    <div
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="incoming-call-name"
      aria-describedby="incoming-call-text"
      data-testid="incoming-call"
      className="fixed inset-0 z-[100] flex items-center justify-center bg-slate-950/80 p-4 backdrop-blur-sm"
    >
      <div className="flex w-full max-w-sm flex-col items-center gap-5 rounded-2xl bg-white p-8 text-center shadow-2xl">
        <PersonAvatar person={call.caller} className="h-24 w-24 animate-pulse text-2xl" />
        <div>
          <h2 id="incoming-call-name" className="font-display text-xl font-semibold text-slate-900">
            {name}
          </h2>
          <p id="incoming-call-text" className="mt-1 text-sm text-slate-600">
            {CALL_TEXT.incoming}
          </p>
        </div>
        <div className="flex w-full gap-3">
          <Button variant="destructive" className="flex-1" onClick={onDecline}>
            <PhoneOff aria-hidden="true" className="h-4 w-4" />
            {CALL_TEXT.decline}
          </Button>
          <Button className="flex-1 bg-emerald-600 hover:bg-emerald-700" onClick={onAccept} autoFocus>
            <Phone aria-hidden="true" className="h-4 w-4" />
            {CALL_TEXT.accept}
          </Button>
        </div>
      </div>
    </div>
  );
}

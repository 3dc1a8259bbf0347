/**
 * The mentor's mute as the muted participant sees it: their own microphone shows 'Muted by the
 * mentor' and stays off until the mentor unmutes them (participant-unmuted). The spec has no toast
 * wording for a mute, so these texts are ours.
 */
import { useState } from 'react';
import { toast } from 'sonner';
import { useRealtimeEvent } from '@/lib/realtime/provider';

export const MUTE_TEXT = {
  /** The microphone button's label while the mentor keeps the participant muted. */
  mutedByMentor: 'Muted by the mentor',
  /** The toasts the muted participant sees. */
  youWereMuted: 'The mentor muted you',
  youWereUnmuted: 'The mentor unmuted you: you can turn your microphone on',
} as const;

/**
 * Whether the mentor has muted `me` (a user id) in group session `groupSessionId`, from the
 * participant-muted and participant-unmuted events, starting from `mutedOnArrival` (the call's
 * member list: a mute outlives a reload). `onMuted` runs when the mentor mutes them (the page turns
 * the microphone off).
 */
export function useMutedByMentor(
  groupSessionId: string,
  me: string | undefined,
  onMuted?: () => void,
  mutedOnArrival = false,
): boolean {
  const [muted, setMuted] = useState(mutedOnArrival);
  useRealtimeEvent('participant-muted', (d) => {
    if (!me || d.groupSessionId !== groupSessionId || d.participantId !== me) return;
    setMuted(true);
    onMuted?.();
    toast.info(MUTE_TEXT.youWereMuted);
  });
  useRealtimeEvent('participant-unmuted', (d) => {
    if (!me || d.groupSessionId !== groupSessionId || d.participantId !== me) return;
    setMuted(false);
    toast.info(MUTE_TEXT.youWereUnmuted);
  });
  return muted;
}

/** The microphone button's accessible name and whether it can be pressed. */
export function micButtonState({ micOn, mutedByMentor }: { micOn: boolean; mutedByMentor: boolean }): {
  label: string;
  disabled: boolean;
  showsOn: boolean;
} {
  if (mutedByMentor) return { label: MUTE_TEXT.mutedByMentor, disabled: true, showsOn: false };
  return { label: micOn ? 'Turn microphone off' : 'Turn microphone on', disabled: false, showsOn: micOn };
}

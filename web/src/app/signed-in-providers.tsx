/**
 * What only a signed-in visitor's browser needs around the pages: the real-time channel, the
 * message cache and the group sessions' state kept live by it, and one-to-one calls (the provider,
 * with the calls feature's screen and incoming-call overlay). Its own chunk, loaded once a user is known,
 * so a signed-out visitor's first page never downloads it.
 */
import type { ReactNode } from 'react';
import { IncomingCallOverlay } from '@/features/calls/incoming-call-overlay';
import { VideoCall } from '@/features/calls/video-call';
import { MessagesRealtimeSync } from '@/features/messages/realtime-sync';
import { CallProvider } from '@/lib/calls/call-provider';
import { GroupSessionsRealtimeSync } from '@/lib/group-sessions-live';
import { RealtimeProvider } from '@/lib/realtime';

/** A call in progress as the messages thread shows it. */
const callScreen = (peerName: string) => <VideoCall peerName={peerName} />;

export default function SignedInProviders({ children }: { children: ReactNode }) {
  return (
    <RealtimeProvider>
      <MessagesRealtimeSync />
      <GroupSessionsRealtimeSync />
      <CallProvider screen={callScreen}>
        {children}
        <IncomingCallOverlay />
      </CallProvider>
    </RealtimeProvider>
  );
}

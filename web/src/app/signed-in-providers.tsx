/**
 * What only a signed-in visitor's browser needs around the pages: the real-time channel, the
 * message cache kept live by it, and one-to-one calls. Its own chunk, loaded once a user is known,
 * so a signed-out visitor's first page never downloads it.
 */
import type { ReactNode } from 'react';
import { MessagesRealtimeSync } from '@/features/messages/realtime-sync';
import { CallProvider } from '@/lib/calls/call-provider';
import { RealtimeProvider } from '@/lib/realtime';

export default function SignedInProviders({ children }: { children: ReactNode }) {
  return (
    <RealtimeProvider>
      <MessagesRealtimeSync />
      <CallProvider>{children}</CallProvider>
    </RealtimeProvider>
  );
}

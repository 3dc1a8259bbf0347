import { PhoneOff, Play } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useRealtime } from '@/lib/realtime';

/**
 * The mentor's Start Session / End Session button. Both go over the socket, so the button waits
 * for it: a press before the socket is ready would go nowhere.
 */
export function SessionButton({ active, onStart, onEnd }: { active: boolean; onStart: () => void; onEnd: () => void }) {
  const { connected } = useRealtime();
  return active ? (
    <Button variant="destructive" onClick={onEnd} disabled={!connected}>
      <PhoneOff aria-hidden="true" className="h-4 w-4" />
      End Session
    </Button>
  ) : (
    <Button variant="gradient" onClick={onStart} disabled={!connected}>
      <Play aria-hidden="true" className="h-4 w-4" />
      Start Session
    </Button>
  );
}

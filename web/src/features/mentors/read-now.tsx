import { MessageCircle, Video } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { requestInstantSession } from '@/api/endpoints/wallet/wallet';
import { Button } from '@/components/ui/button';
import { errorMessage, errorStatus } from '@/lib/api-fetch';
import type { Mentor } from '@/lib/catalogue';
import { formatUsd } from '@/lib/money';
import { useRealtime, useRealtimeEvent } from '@/lib/realtime';

const PRESENCE_LABELS: Record<string, string> = {
  available: 'Available now',
  busy: 'In a reading',
  offline: 'Offline',
};

/** A mentor's live presence badge: the page watches this mentor over the socket. */
export function usePresence(mentor: Mentor): string {
  // What the socket said last, for this mentor; the view's own presence until then.
  const [live, setLive] = useState<{ mentorId: string; status: string } | null>(null);
  const { client, connected } = useRealtime();
  useEffect(() => {
    if (connected) client?.send('watchPresence', { mentorIds: [mentor.id] });
  }, [client, connected, mentor.id]);
  useRealtimeEvent('presenceChanged', (d) => {
    if (d.mentorId === mentor.id) setLive({ mentorId: d.mentorId, status: d.status });
  });
  return live?.mentorId === mentor.id ? live.status : mentor.presence;
}

/** 'Chat now' / 'Call now' for a mentor online with a per-minute rate; a reading opens its page. */
export function ReadNow({ mentor, signedIn }: { mentor: Mentor; signedIn: boolean }) {
  const presence = usePresence(mentor);
  const navigate = useNavigate();
  const [problem, setProblem] = useState<{ text: string; topUp: boolean } | null>(null);
  const [starting, setStarting] = useState(false);
  if (!mentor.perMinuteRate) return null;
  const start = async (mode: 'chat' | 'video') => {
    setStarting(true);
    setProblem(null);
    try {
      const reading = await requestInstantSession({ mentorId: mentor.id, mode });
      void navigate(`/reading/${reading.id}`);
    } catch (error) {
      setProblem({ text: errorMessage(error, 'The reading could not start.'), topUp: errorStatus(error) === 402 });
    } finally {
      setStarting(false);
    }
  };
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 p-3" aria-label="Readings now">
      <p className="flex items-center justify-between text-sm">
        <span className={presence === 'available' ? 'font-medium text-emerald-700' : 'text-slate-600'}>
          {PRESENCE_LABELS[presence] ?? presence}
        </span>
        <span className="text-slate-700">{formatUsd(mentor.perMinuteRate)}/min</span>
      </p>
      {signedIn && presence === 'available' && (
        <div className="flex gap-2">
          {mentor.instantModes.includes('chat') && (
            <Button className="flex-1" disabled={starting} onClick={() => void start('chat')}>
              <MessageCircle aria-hidden="true" className="h-4 w-4" />
              Chat now
            </Button>
          )}
          {mentor.instantModes.includes('video') && (
            <Button className="flex-1" variant="outline" disabled={starting} onClick={() => void start('video')}>
              <Video aria-hidden="true" className="h-4 w-4" />
              Call now
            </Button>
          )}
        </div>
      )}
      {problem && (
        <p role="alert" className="text-sm text-rose-700">
          {problem.text} {problem.topUp && <Link to="/wallet">Top up your wallet</Link>}
        </p>
      )}
    </div>
  );
}

import { useQuery } from '@tanstack/react-query';
import { UserX } from 'lucide-react';
import { Link } from 'react-router';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { groupSessionQueries } from '@/lib/group-sessions-api';

export const REMOVED_TEXT = {
  title: 'Removed from session',
  body: 'You were removed from this session by the mentor.',
  /** What the api answers (403) when a removed participant asks for the call again. */
  apiMessage: 'You were removed from this session',
  browse: 'Browse Group Sessions',
  dashboard: 'My Dashboard',
} as const;

/** Whether an error of GET /api/group-sessions/{id}/call means the mentor removed the caller. */
export function isRemovedError(message: string): boolean {
  return message === REMOVED_TEXT.apiMessage;
}

/**
 * Where a removed participant lands: the session's call page says they were removed by the
 * mentor, with no way back into this session's call, and what happens to their seat's money (the
 * sentence of their notification and e-mail: refunded in full, or kept for conduct).
 */
export function RemovedNotice({ sessionId }: { sessionId: string }) {
  // Read afresh: the removal has just been recorded.
  const session = useQuery({ ...groupSessionQueries.one(sessionId), staleTime: 0, enabled: Boolean(sessionId) });
  const money = session.data?.userRemoval?.message;
  return (
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
      <StateCard
        as="h1"
        tone="error"
        icon={UserX}
        title={REMOVED_TEXT.title}
        actions={
          <>
            <Button asChild variant="outline">
              <Link to="/group-sessions">{REMOVED_TEXT.browse}</Link>
            </Button>
            <Button asChild>
              <Link to="/dashboard">{REMOVED_TEXT.dashboard}</Link>
            </Button>
          </>
        }
      >
        <p>{REMOVED_TEXT.body}</p>
        {money && <p className="mt-2">{money}</p>}
      </StateCard>
    </div>
  );
}

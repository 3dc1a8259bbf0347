import { UserX } from 'lucide-react';
import { Link } from 'react-router';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';

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
 * mentor, with no way back into this session's call.
 */
export function RemovedNotice() {
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
        {REMOVED_TEXT.body}
      </StateCard>
    </div>
  );
}

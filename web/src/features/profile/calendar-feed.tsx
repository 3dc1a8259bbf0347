import { useQuery } from '@tanstack/react-query';
import { CalendarDays, Copy, Eye, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-fetch';
import { profileQueries, useRotateCalendarFeed } from './api';

export const FEED_LOAD_FAILED = 'Your calendar link could not be loaded.';
export const FEED_RESET_FAILED = 'Failed to reset the calendar link';

/** 'Calendar Feed': the private .ics address of the user's sessions, a copy button and 'Reset link'. */
export function CalendarFeedCard() {
  // Fetched when asked for: the link is a secret, not shown to whoever looks over a shoulder.
  const [shown, setShown] = useState(false);
  const feed = useQuery({ ...profileQueries.calendarFeed(), enabled: shown });
  const rotate = useRotateCalendarFeed();
  const reset = () =>
    rotate.mutate(undefined, {
      onSuccess: () => toast.success('Calendar link reset: the old link no longer works'),
      onError: (error) => toast.error(FEED_RESET_FAILED, { description: errorMessage(error, 'Please try again.') }),
    });
  const url = feed.data?.url ?? '';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast.success('Calendar link copied');
    } catch {
      toast.error('Copy failed: select the link and copy it');
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <CalendarDays aria-hidden="true" className="h-5 w-5 text-indigo-600" />
          Calendar Feed
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-3">
        <p className="text-sm text-slate-600">
          Subscribe to this link in your calendar app (Google Calendar, Apple Calendar, Outlook) to see your sessions
          there. Keep it private: anyone with the link can see your sessions.
        </p>
        {!shown ? (
          <Button variant="outline" onClick={() => setShown(true)}>
            <Eye aria-hidden="true" className="h-4 w-4" />
            Show calendar link
          </Button>
        ) : feed.isError ? (
          <Alert variant="error">{errorMessage(feed.error, FEED_LOAD_FAILED)}</Alert>
        ) : (
          <div className="flex flex-wrap gap-2">
            <Input
              readOnly
              aria-label="Calendar feed link"
              value={url}
              className="min-w-0 flex-1 font-mono text-xs"
              onFocus={(e) => e.currentTarget.select()}
            />
            <Button variant="outline" onClick={() => void copy()} disabled={!url}>
              <Copy aria-hidden="true" className="h-4 w-4" />
              Copy
            </Button>
            <Button variant="outline" onClick={reset} disabled={!url || rotate.isPending}>
              <RotateCcw aria-hidden="true" className="h-4 w-4" />
              {rotate.isPending ? 'Resetting...' : 'Reset link'}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, Clock } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { endInstantSession } from '@/api/endpoints/wallet/wallet';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FullPageSpinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-fetch';
import { useUser } from '@/lib/auth';
import { formatUsd } from '@/lib/money';
import { useRealtimeEvent } from '@/lib/realtime';
import { useNow } from '@/lib/use-now';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useReading, useWallet, walletKeys } from './api';
import { clock, meter } from './meter';
import { ReadingComplaintSection } from './reading-complaint';
import { READING_PARAM } from './reading-meter';
import { TopUpCard } from './wallet-page';

const readingKey = walletKeys.reading;

/** /reading/:id: the waiting screen (60-second countdown), then the meter, then the end's figures. */
export function ReadingPage() {
  useDocumentTitle('Reading');
  const { id = '' } = useParams();
  const client = useQueryClient();
  const reading = useReading(id);
  const wallet = useWallet();
  const { user } = useUser();
  const now = useNow(1000);
  const [low, setLow] = useState(false);
  const [ending, setEnding] = useState(false);
  useRealtimeEvent('instantSessionChanged', (d) => {
    if (d.id === id) void client.invalidateQueries({ queryKey: readingKey(id) });
    void client.invalidateQueries({ queryKey: walletKeys.all() });
  });
  useRealtimeEvent('balanceLow', (d) => {
    if (d.instantSessionId === id) setLow(true);
  });

  if (reading.isLoading) return <FullPageSpinner />;
  if (reading.isError || !reading.data) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16">
        <StateCard as="h1" tone="error" icon={CircleAlert} title="Unable to load this reading">
          {errorMessage(reading.error, 'Please try again in a moment.')}
        </StateCard>
      </div>
    );
  }
  const r = reading.data;
  const nowMs = now.getTime();
  const end = async () => {
    setEnding(true);
    try {
      await endInstantSession(id);
    } finally {
      setEnding(false);
      void client.invalidateQueries({ queryKey: readingKey(id) });
      void client.invalidateQueries({ queryKey: walletKeys.all() });
    }
  };

  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-10 sm:px-6">
      <h1 className="font-display text-3xl font-semibold tracking-tight text-slate-900">
        {r.mode === 'video' ? 'Call reading' : 'Chat reading'}
      </h1>
      {r.status === 'requested' && (
        <Card className="p-6" role="status">
          <p className="flex items-center gap-2 text-slate-700">
            <Clock aria-hidden="true" className="h-4 w-4" />
            Waiting for the mentor to answer…{' '}
            <span aria-label="Time left">{Math.max(0, Math.ceil((Date.parse(r.expiresAt) - nowMs) / 1000))} s</span>
          </p>
          <p className="mt-2 text-sm text-slate-600">
            {formatUsd(r.perMinuteRate)} a minute{r.freeMinutes > 0 ? `, the first ${r.freeMinutes} minutes free` : ''}.
          </p>
        </Card>
      )}
      {(r.status === 'expired' || r.status === 'declined') && (
        <StateCard as="h2" icon={CircleAlert} title={r.status === 'expired' ? 'No answer' : 'The mentor declined'}>
          Nothing was charged. <Link to="/mentors?availableNow=true">Find another mentor</Link>
        </StateCard>
      )}
      {r.status === 'active' && (
        <>
          {low && (
            <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-900">
              Your balance is running low: the reading ends when it runs out. Top up to continue.
            </div>
          )}
          <Card className="grid grid-cols-2 gap-4 p-6 sm:grid-cols-4" aria-label="Meter">
            <Figure label="Elapsed" value={clock(meter(r, nowMs).elapsedSeconds)} />
            <Figure label="Cost so far" value={formatUsd(meter(r, nowMs).cost)} />
            <Figure label="Balance" value={wallet.data ? formatUsd(wallet.data.balance) : '…'} />
            <Figure label="Free minutes left" value={String(meter(r, nowMs).freeLeft)} />
          </Card>
          <div className="flex gap-3">
            {r.conversationId && (
              <Button asChild variant="outline">
                {r.mode === 'video' ? (
                  <Link to={`/messages?conversation=${r.conversationId}&${READING_PARAM}=${r.id}&startCall=true`}>
                    Start the call
                  </Link>
                ) : (
                  <Link to={`/messages?conversation=${r.conversationId}&${READING_PARAM}=${r.id}`}>Open the chat</Link>
                )}
              </Button>
            )}
            <Button onClick={() => void end()} disabled={ending}>
              End reading
            </Button>
          </div>
          {low && <TopUpCard />}
        </>
      )}
      {r.status === 'ended' && (
        <>
          <Card className="grid grid-cols-2 gap-4 p-6 sm:grid-cols-4" aria-label="Reading summary">
            <Figure label="Minutes" value={String(r.minutesBilled)} />
            <Figure label="Free minutes" value={String(r.freeMinutes)} />
            <Figure label="Charged" value={formatUsd(r.amountCharged)} />
            <Figure label="Ended" value={r.endReason === 'balance' ? 'Balance ran out' : 'Ended'} />
          </Card>
          {user?.id === r.seekerId && <ReadingComplaintSection reading={r} now={now} />}
        </>
      )}
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <p className="text-xs uppercase tracking-wide text-slate-500">{label}</p>
      <p className="text-lg font-semibold text-slate-900" aria-label={label}>
        {value}
      </p>
    </div>
  );
}

export default ReadingPage;

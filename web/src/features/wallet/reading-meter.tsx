import { useQueryClient } from '@tanstack/react-query';
import { Gauge } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { InstantSessionView } from '@/api/model';
import { useUser } from '@/lib/auth';
import { formatUsd } from '@/lib/money';
import { useRealtimeEvent } from '@/lib/realtime';
import { useNow } from '@/lib/use-now';
import { useReading, useWallet, walletKeys } from './api';
import { TopUpCard } from './wallet-page';
import { clock, meter } from './meter';

/** Where a reading's chat and call happen: /messages?conversation=…&reading=… (the reading page's links). */
export const READING_PARAM = 'reading';

/**
 * The meter of a reading in progress above the chat or call it happens in: elapsed time, cost so far,
 * the seeker's balance and free minutes left, and the low-balance banner with an in-place top-up.
 * The messages route shows it when the address names an active reading.
 */
export function ActiveReadingMeter() {
  const [params] = useSearchParams();
  const id = params.get(READING_PARAM);
  return id ? <ReadingMeterBar readingId={id} /> : null;
}

export function ReadingMeterBar({ readingId }: { readingId: string }) {
  const client = useQueryClient();
  const reading = useReading(readingId);
  const { user } = useUser();
  const [low, setLow] = useState(false);
  useRealtimeEvent('instantSessionChanged', (d) => {
    if (d.id === readingId) void client.invalidateQueries({ queryKey: walletKeys.reading(readingId) });
    void client.invalidateQueries({ queryKey: walletKeys.all() });
  });
  useRealtimeEvent('balanceLow', (d) => {
    if (d.instantSessionId === readingId) setLow(true);
  });
  const r = reading.data;
  if (!r || r.status !== 'active') return null;
  return <ActiveMeter reading={r} seeker={user?.id === r.seekerId} low={low} />;
}

function ActiveMeter({ reading, seeker, low }: { reading: InstantSessionView; seeker: boolean; low: boolean }) {
  const now = useNow(1000);
  const wallet = useWallet();
  const m = meter(reading, now.getTime());
  return (
    <aside
      aria-label="Reading meter"
      className="sticky top-16 z-30 mx-auto w-full max-w-7xl space-y-3 border-b border-indigo-200 bg-white/95 px-4 py-3 backdrop-blur sm:px-6 lg:px-8"
    >
      <p className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        <Gauge aria-hidden="true" className="h-4 w-4 text-indigo-600" />
        Reading in progress · <Link to={`/reading/${reading.id}`}>details</Link>
      </p>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        <Figure label="Elapsed" value={clock(m.elapsedSeconds)} />
        <Figure label="Cost so far" value={formatUsd(m.cost)} />
        {seeker && <Figure label="Balance" value={wallet.data ? formatUsd(wallet.data.balance) : '…'} />}
        <Figure label="Free minutes left" value={String(m.freeLeft)} />
      </dl>
      {seeker && low && (
        <>
          <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">
            Your balance is running low: the reading ends when it runs out. Top up to continue.
          </p>
          <TopUpCard />
        </>
      )}
    </aside>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-xs uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="font-semibold text-slate-900">{value}</dd>
    </div>
  );
}

import type { ClusterStateView } from '@/api/model';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-fetch';
import { cn } from '@/lib/utils';
import { useClusterState } from './api';
import { formatSeconds } from './format';

// The real-time bus and the read replica as the answering api process sees them (issue 37 §5):
// the outbox's backlog is in the database, so every process shows the same.

export const CLUSTER_TEXT = {
  heading: 'Real-time bus and replica',
  postgres: 'PostgreSQL NOTIFY',
  natsConnected: 'NATS, connected',
  natsAway: 'NATS, not connected: events wait in the outbox',
  noReplica: 'None: every read goes to the primary',
  replica: { ok: 'Answering', lagging: 'Lagging: skipped', down: 'Down: skipped' },
} as const;

function busLabel(bus: ClusterStateView['realtimeBus']) {
  if (bus.kind === 'postgres') return CLUSTER_TEXT.postgres;
  return bus.natsConnected ? CLUSTER_TEXT.natsConnected : CLUSTER_TEXT.natsAway;
}

export function ClusterPanel() {
  const cluster = useClusterState();
  if (cluster.isLoading)
    return <Spinner label="Loading the bus and the replica" className="mt-4 h-6 w-6 text-indigo-600" />;
  if (cluster.isError || !cluster.data) {
    return (
      <p className="mt-4 text-rose-700">{errorMessage(cluster.error, 'Could not load the bus and the replica')}</p>
    );
  }
  const { realtimeBus: bus, replica } = cluster.data;
  const rows: [string, string, boolean][] = [['Real-time bus', busLabel(bus), bus.natsConnected === false]];
  if (bus.kind === 'nats') {
    rows.push(
      ['Events not relayed', String(bus.unsentEvents), false],
      ['Oldest not relayed', formatSeconds(bus.oldestUnsentSeconds), false],
      ['Events in the last minute', String(bus.eventsLastMinute), false],
    );
  }
  rows.push([
    'Read replica',
    replica ? CLUSTER_TEXT.replica[replica.state] : CLUSTER_TEXT.noReplica,
    !!replica && replica.state !== 'ok',
  ]);
  if (replica?.lagSeconds != null) rows.push(['Replica behind by', formatSeconds(replica.lagSeconds), false]);
  return (
    <dl
      aria-label={CLUSTER_TEXT.heading}
      className="mt-4 grid gap-x-8 gap-y-2 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2"
    >
      {rows.map(([term, value, alarm]) => (
        <div key={term} className="flex justify-between gap-4">
          <dt className="text-slate-600">{term}</dt>
          <dd className={cn('tabular-nums', alarm && 'font-semibold text-rose-700')}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

import { ArrowLeft, RotateCcw, ShieldAlert, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { JobQueueView, JobView } from '@/api/model';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Table, Td } from '@/components/ui/table';
import { Dialog } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { FullPageSpinner, Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-fetch';
import { useRoles } from '@/lib/auth';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import {
  JOB_STATES,
  STATE_LABELS,
  canDiscard,
  canRetry,
  useJobAction,
  useJobQueues,
  useJobSchedules,
  useJobs,
  type JobState,
} from './api';
import { formatDateTimeOrDash } from '@/lib/format';
import { CLUSTER_TEXT, ClusterPanel } from './cluster-panel';
import { formatSeconds } from './format';

export const TITLE = 'Job Console';
export const ACCESS_DENIED_TEXT = "You don't have permission to access the job console.";
export const PAGE_SIZE = 25;
export const CONFIRM = {
  retry: { title: 'Retry task', text: 'The task runs again at once, its attempts reset.', button: 'Retry' },
  discard: {
    title: 'Discard task',
    text: 'The task is removed from work and kept as discarded. It will not run again.',
    button: 'Discard',
  },
} as const;

type Action = keyof typeof CONFIRM;

export default function JobConsolePage() {
  useDocumentTitle(TITLE);
  const { user, isAdmin } = useRoles();
  if (!user) return <FullPageSpinner />;
  if (!isAdmin) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
        <StateCard as="h1" tone="error" icon={ShieldAlert} title="Access Denied">
          {ACCESS_DENIED_TEXT}
        </StateCard>
      </div>
    );
  }
  return <Console />;
}

const when = (iso?: string | null) => formatDateTimeOrDash(iso);

function Console() {
  const [queue, setQueue] = useState('');
  const [state, setState] = useState<JobState | ''>('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ job: JobView; action: Action } | null>(null);
  const queues = useJobQueues();
  const schedules = useJobSchedules();
  const jobs = useJobs({ queue: queue || undefined, state: state || undefined, page, pageSize: PAGE_SIZE });
  const total = jobs.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  const filterQueue = (q: string) => {
    setQueue(q);
    setPage(1);
  };

  return (
    <div className="bg-slate-50/60">
      <section className="border-b border-slate-200/70 bg-gradient-to-br from-indigo-50 via-white to-violet-50">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-10 sm:flex-row sm:items-end sm:justify-between sm:px-6 lg:px-8">
          <div>
            <p className="text-sm font-medium text-indigo-700">Admin</p>
            <h1 className="mt-1 font-display text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
              {TITLE}
            </h1>
            <p className="mt-2 text-slate-600">Queues, tasks and schedules of the worker.</p>
          </div>
          <Button asChild variant="outline">
            <Link to="/admin">
              <ArrowLeft aria-hidden="true" className="h-4 w-4" />
              Admin
            </Link>
          </Button>
        </div>
      </section>

      <div className="mx-auto max-w-7xl space-y-8 px-4 py-8 sm:px-6 lg:px-8">
        <section aria-labelledby="queues-heading">
          <h2 id="queues-heading" className="font-display text-xl font-semibold text-slate-900">
            Queues
          </h2>
          {queues.isLoading ? (
            <Spinner label="Loading queues" className="mt-4 h-6 w-6 text-indigo-600" />
          ) : queues.isError ? (
            <p className="mt-4 text-rose-700">{errorMessage(queues.error, 'Could not load the queues')}</p>
          ) : (
            <QueueTable queues={queues.data ?? []} onPick={filterQueue} />
          )}
        </section>

        <section aria-labelledby="cluster-heading">
          <h2 id="cluster-heading" className="font-display text-xl font-semibold text-slate-900">
            {CLUSTER_TEXT.heading}
          </h2>
          <ClusterPanel />
        </section>

        <section aria-labelledby="tasks-heading">
          <h2 id="tasks-heading" className="font-display text-xl font-semibold text-slate-900">
            Tasks
          </h2>
          <div className="mt-4 flex flex-wrap gap-4">
            <div className="w-56">
              <Label htmlFor="job-queue">Queue</Label>
              <Select id="job-queue" value={queue} onChange={(e) => filterQueue(e.target.value)}>
                <option value="">All queues</option>
                {(queues.data ?? []).map((q) => (
                  <option key={q.queue} value={q.queue}>
                    {q.queue}
                  </option>
                ))}
              </Select>
            </div>
            <div className="w-56">
              <Label htmlFor="job-state">State</Label>
              <Select
                id="job-state"
                value={state}
                onChange={(e) => {
                  setState(e.target.value as JobState | '');
                  setPage(1);
                }}
              >
                <option value="">All states</option>
                {JOB_STATES.map((s) => (
                  <option key={s} value={s}>
                    {STATE_LABELS[s]}
                  </option>
                ))}
              </Select>
            </div>
          </div>
          {jobs.isLoading ? (
            <Spinner label="Loading tasks" className="mt-4 h-6 w-6 text-indigo-600" />
          ) : jobs.isError ? (
            <p className="mt-4 text-rose-700">{errorMessage(jobs.error, 'Could not load the tasks')}</p>
          ) : (jobs.data?.items ?? []).length === 0 ? (
            <p className="mt-4 text-slate-600">No tasks match.</p>
          ) : (
            <ul className="mt-4 space-y-3" aria-label="Tasks">
              {(jobs.data?.items ?? []).map((job) => (
                <TaskCard
                  key={job.id}
                  job={job}
                  open={open === job.id}
                  onToggle={() => setOpen(open === job.id ? null : job.id)}
                  onAction={(action) => setConfirming({ job, action })}
                />
              ))}
            </ul>
          )}
          <div className="mt-4 flex items-center gap-3 text-sm text-slate-600">
            <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <span>
              Page {page} of {pages} ({total} tasks)
            </span>
            <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </div>
        </section>

        <section aria-labelledby="schedules-heading">
          <h2 id="schedules-heading" className="font-display text-xl font-semibold text-slate-900">
            Schedules
          </h2>
          <Table label="Schedules" className="mt-4" columns={['Schedule', 'Expression', 'Last run', 'Next run']}>
            {(schedules.data ?? []).map((s) => (
              <tr key={s.name}>
                <Td className="font-medium">{s.name}</Td>
                <Td className="font-mono">{s.expression}</Td>
                <Td>{when(s.lastRunAt)}</Td>
                <Td>{when(s.nextRunAt)}</Td>
              </tr>
            ))}
          </Table>
        </section>
      </div>

      <ConfirmDialog confirming={confirming} onClose={() => setConfirming(null)} />
    </div>
  );
}

const FIGURES: [keyof JobQueueView, string][] = [
  ['pending', 'Pending'],
  ['scheduled', 'Scheduled'],
  ['running', 'Running'],
  ['failed', 'Failed'],
  ['setAside', 'Set aside'],
  ['discarded', 'Discarded'],
  ['succeededLastHour', 'Done (1 h)'],
  ['failedLastHour', 'Failed (1 h)'],
  ['workers', 'Workers'],
];

function QueueTable({ queues, onPick }: { queues: JobQueueView[]; onPick: (queue: string) => void }) {
  return (
    <Table
      label="Queues"
      className="mt-4"
      columns={[
        'Queue',
        ...FIGURES.map(([, label]) => ({ label, className: 'text-right' })),
        { label: 'Oldest due', className: 'text-right' },
      ]}
    >
      {queues.map((q) => (
        <tr key={q.queue} data-queue={q.queue}>
          <th scope="row" className="px-4 py-3 font-medium">
            <button type="button" className="text-indigo-700 hover:underline" onClick={() => onPick(q.queue)}>
              {q.queue}
            </button>
          </th>
          {FIGURES.map(([key, label]) => (
            <Td
              key={label}
              data-figure={key}
              className={cn(
                'text-right tabular-nums',
                (key === 'failed' || key === 'setAside') && Number(q[key]) > 0 && 'font-semibold text-rose-700',
              )}
            >
              {q[key]}
            </Td>
          ))}
          <Td className="text-right tabular-nums">{formatSeconds(q.oldestDueSeconds)}</Td>
        </tr>
      ))}
    </Table>
  );
}

function TaskCard({
  job,
  open,
  onToggle,
  onAction,
}: {
  job: JobView;
  open: boolean;
  onToggle: () => void;
  onAction: (action: Action) => void;
}) {
  return (
    <li>
      <Card className="p-4" data-job-id={job.id} data-state={job.state}>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="min-w-0">
            <p className="font-medium text-slate-900">
              {job.queue} <span className="font-mono text-xs text-slate-500">{job.id}</span>
            </p>
            <p className="text-sm text-slate-600">
              <span className="font-semibold" data-testid="job-state">
                {STATE_LABELS[job.state]}
              </span>{' '}
              · attempts {job.attempts}/{job.maxAttempts} · due {when(job.runAt)}
              {job.doneAt ? ` · finished ${when(job.doneAt)}` : ''}
            </p>
            {job.lastError && (
              <p className="mt-1 text-sm text-rose-700" data-testid="job-error">
                {job.lastError}
              </p>
            )}
          </div>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" onClick={onToggle} aria-expanded={open}>
              {open ? 'Hide payload' : 'Show payload'}
            </Button>
            {canRetry(job.state) && (
              <Button size="sm" onClick={() => onAction('retry')}>
                <RotateCcw aria-hidden="true" className="h-4 w-4" />
                Retry
              </Button>
            )}
            {canDiscard(job.state) && (
              <Button variant="outline" size="sm" onClick={() => onAction('discard')}>
                <Trash2 aria-hidden="true" className="h-4 w-4" />
                Discard
              </Button>
            )}
          </div>
        </div>
        {open && (
          <pre className="mt-3 overflow-x-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100" aria-label="Payload">
            {JSON.stringify(job.payload, null, 2)}
          </pre>
        )}
      </Card>
    </li>
  );
}

function ConfirmDialog({
  confirming,
  onClose,
}: {
  confirming: { job: JobView; action: Action } | null;
  onClose: () => void;
}) {
  const act = useJobAction();
  const texts = confirming ? CONFIRM[confirming.action] : CONFIRM.retry;
  const confirm = () => {
    if (!confirming) return;
    act.mutate(
      { id: confirming.job.id, action: confirming.action },
      {
        onSuccess: (job) => {
          toast.success(`${texts.button}: ${job.queue} task is ${STATE_LABELS[job.state]}`);
          onClose();
        },
        onError: (error) =>
          toast.error('Error', { description: errorMessage(error, `Could not ${confirming.action}`) }),
      },
    );
  };
  return (
    <Dialog
      open={confirming !== null}
      onOpenChange={(o) => !o && onClose()}
      title={texts.title}
      description={texts.text}
    >
      {confirming && (
        <p className="text-sm text-slate-700">
          {confirming.job.queue} task <span className="font-mono">{confirming.job.id}</span>
        </p>
      )}
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={confirm} disabled={act.isPending}>
          {texts.button}
        </Button>
      </div>
    </Dialog>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Flag } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { dismissReport, resolveReport } from '@/api/endpoints/admin/admin';
import type { ListReportsParams, ReportAction, ReportPersonView, ReportTargetView, ReportView } from '@/api/model';
import { REPORT_REASONS } from '@/components/report-button';
import { StatusFilteredList } from '@/components/status-filtered-list';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-fetch';
import { adminKeys, adminQueries } from './api';
import { formatDateTime } from '@/lib/format';

export const REPORTS_EMPTY = 'No reports here';

type Status = NonNullable<ListReportsParams['status']>;

const TARGETS: Record<string, string> = {
  mentor: 'Mentor',
  user: 'Member',
  message: 'Message',
  review: 'Review',
  group_session: 'Group session',
};

/** The actions that fit what was reported (the api refuses the others). */
function actionsFor(r: ReportView): { action: ReportAction; label: string }[] {
  const fitting: { action: ReportAction; label: string }[] = [{ action: 'none', label: 'Resolve (no action)' }];
  if (r.targetType === 'review') fitting.push({ action: 'hide_review', label: 'Hide review' });
  if (r.targetType === 'message') fitting.push({ action: 'hide_message', label: 'Hide message' });
  // Name whom it deactivates: the author of a review or message, the owner of a profile or session.
  const who = r.target?.author?.name;
  fitting.push({ action: 'deactivate_user', label: who ? `Deactivate ${who}` : 'Deactivate user' });
  return fitting;
}

const reasonLabel = (reason: string) => REPORT_REASONS.find((r) => r.value === reason)?.label ?? reason;

/** Reports of abuse: open ones wait for an admin to resolve (with an action) or dismiss them. */
export function ReportsTab() {
  const [status, setStatus] = useState<Status>('open');
  const reports = useQuery(adminQueries.reports({ status }));
  return (
    <StatusFilteredList
      status={status}
      statuses={[
        { value: 'open', label: 'Open' },
        { value: 'resolved', label: 'Resolved' },
        { value: 'dismissed', label: 'Dismissed' },
      ]}
      onStatusChange={setStatus}
      query={reports}
      icon={Flag}
      errorTitle="Unable to load reports"
      emptyTitle={REPORTS_EMPTY}
      renderItem={(r) => <ReportCard report={r} />}
    />
  );
}

/** A member's name linking to their profile, with their e-mail; '(deactivated)' once they are. */
function PersonLink({ person }: { person: ReportPersonView }) {
  return (
    <>
      <Link to={`/profile/${person.id}`} className="font-medium text-indigo-700 hover:underline">
        {person.name || person.email}
      </Link>{' '}
      <span className="text-slate-500">({person.email})</span>
      {!person.isActive && <span className="ml-1 text-rose-700">(deactivated)</span>}
    </>
  );
}

/** What was reported: a review with its stars, a message in its conversation, a profile or a session. */
function ReportedThing({ kind, target }: { kind: string; target: ReportTargetView }) {
  const thing = TARGETS[kind]?.toLowerCase() ?? 'item';
  return (
    <section aria-label="What was reported" className="mt-3 rounded-md border border-slate-200 bg-slate-50 p-3">
      <p className="text-sm font-medium text-slate-900">
        {target.summary}
        {target.hidden && (
          <span className="ml-2 rounded bg-slate-200 px-1.5 py-0.5 text-xs text-slate-700">Hidden from everyone</span>
        )}
      </p>
      <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm text-slate-700">
        {target.author && (
          <>
            <dt className="text-slate-500">{kind === 'message' || kind === 'review' ? 'Written by' : 'Whose'}</dt>
            <dd>
              <PersonLink person={target.author} />
            </dd>
          </>
        )}
        {target.about && (
          <>
            <dt className="text-slate-500">{kind === 'message' ? 'To' : 'About'}</dt>
            <dd>
              <PersonLink person={target.about} />
            </dd>
          </>
        )}
        {target.scheduledAt && (
          <>
            <dt className="text-slate-500">Starts</dt>
            <dd>{formatDateTime(target.scheduledAt)}</dd>
          </>
        )}
        {target.rating != null && (
          <>
            <dt className="text-slate-500">Rating</dt>
            <dd aria-label={`Rating: ${target.rating} of 5`}>
              {'★'.repeat(target.rating)}
              {'☆'.repeat(Math.max(0, 5 - target.rating))} ({target.rating} of 5)
            </dd>
          </>
        )}
      </dl>
      {kind === 'message' && target.conversation.length > 0 ? (
        <ol aria-label="Conversation" className="mt-2 space-y-1 text-sm">
          {target.conversation.map((line) => (
            <li
              key={line.id}
              className={line.reported ? 'rounded bg-rose-50 px-2 py-1 ring-1 ring-rose-200' : 'px-2 py-1'}
              aria-current={line.reported ? 'true' : undefined}
            >
              <span className="font-medium text-slate-900">{line.senderName}</span>{' '}
              <span className="text-xs text-slate-500">{formatDateTime(line.sentAt)}</span>
              {line.reported && <span className="ml-1 text-xs font-medium text-rose-700">Reported</span>}
              {line.hidden && <span className="ml-1 text-xs text-slate-500">(hidden)</span>}
              <p className="whitespace-pre-wrap text-slate-800">{line.content}</p>
            </li>
          ))}
        </ol>
      ) : (
        target.text && (
          <blockquote className="mt-2 whitespace-pre-wrap border-l-2 border-slate-300 pl-3 text-sm text-slate-800">
            {target.text}
          </blockquote>
        )
      )}
      {target.link && (
        <Link to={target.link} className="mt-2 inline-block text-sm font-medium text-indigo-700 hover:underline">
          Open the {thing}
        </Link>
      )}
    </section>
  );
}

function ReportCard({ report: r }: { report: ReportView }) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const done = {
    onSuccess: () => toast.success('Report handled'),
    onError: (error: unknown) => toast.error('Error', { description: errorMessage(error, 'Please try again.') }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.reports() }),
  };
  const resolve = useMutation({
    mutationFn: (action: ReportAction) => resolveReport(r.id, { action, note: note.trim() || undefined }),
    ...done,
  });
  const dismiss = useMutation({ mutationFn: () => dismissReport(r.id, { note: note.trim() || undefined }), ...done });
  const busy = resolve.isPending || dismiss.isPending;
  const thing = TARGETS[r.targetType]?.toLowerCase() ?? 'item';
  const earlier = r.earlierReports ?? [];
  return (
    <Card className="p-5" role="article" aria-label={`Report of a ${TARGETS[r.targetType]?.toLowerCase() ?? 'thing'}`}>
      <p className="text-xs font-medium uppercase tracking-wide text-rose-700">
        {TARGETS[r.targetType] ?? r.targetType} · {reasonLabel(r.reason)}
      </p>
      <p className="mt-1 text-sm text-slate-600">
        Reported by {r.reporter ? <PersonLink person={r.reporter} /> : 'a member'} · {formatDateTime(r.createdAt)}
      </p>
      {r.details && (
        <p className="mt-2 whitespace-pre-wrap text-sm text-slate-800">
          <span className="text-slate-500">Reporter&apos;s words: </span>
          {r.details}
        </p>
      )}
      {r.target ? (
        <ReportedThing kind={r.targetType} target={r.target} />
      ) : (
        <p className="mt-3 text-sm text-slate-500">The reported {thing} no longer exists.</p>
      )}
      {earlier.length > 0 && (
        <section aria-label="Earlier reports" className="mt-3 text-sm text-slate-700">
          <p className="font-medium">
            Earlier reports on this {thing} ({earlier.length})
          </p>
          <ul className="mt-1 list-disc pl-5">
            {earlier.map((e) => (
              <li key={e.id}>
                {formatDateTime(e.createdAt)} · {reasonLabel(e.reason)} · {e.outcome}
              </li>
            ))}
          </ul>
        </section>
      )}
      {r.status === 'open' ? (
        <div className="mt-4 space-y-3">
          <label className="block text-sm text-slate-700">
            Note (optional)
            <input
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-1.5"
              maxLength={1000}
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
          </label>
          <div className="flex flex-wrap gap-2">
            {actionsFor(r).map((a) => (
              <Button
                key={a.action}
                size="sm"
                variant="outline"
                disabled={busy}
                onClick={() => resolve.mutate(a.action)}
              >
                {a.label}
              </Button>
            ))}
            <Button size="sm" variant="ghost" disabled={busy} onClick={() => dismiss.mutate()}>
              Dismiss
            </Button>
          </div>
        </div>
      ) : (
        <p className="mt-3 text-sm text-slate-600">
          Outcome: {r.outcome}
          {r.handledAt ? ` · ${formatDateTime(r.handledAt)}` : ''}
          {r.note ? ` · ${r.note}` : ''}
        </p>
      )}
    </Card>
  );
}

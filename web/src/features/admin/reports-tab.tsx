import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Flag } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { dismissReport, resolveReport } from '@/api/endpoints/admin/admin';
import type { ListReportsParams, ReportAction, ReportView } from '@/api/model';
import { REPORT_REASONS } from '@/components/report-button';
import { StatusFilteredList } from '@/components/status-filtered-list';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-fetch';
import { adminKeys, adminQueries } from './api';

export const REPORTS_EMPTY = 'No reports here';

type Status = NonNullable<ListReportsParams['status']>;

const TARGETS: Record<string, string> = {
  mentor: 'Mentor',
  user: 'Member',
  message: 'Message',
  review: 'Review',
  group_session: 'Group session',
};

/** Where an admin sees the reported thing, when it has a page. */
function targetLink(r: ReportView): string | null {
  switch (r.targetType) {
    case 'mentor':
      return `/mentor/${r.targetId}`;
    case 'user':
      return `/profile/${r.targetId}`;
    default:
      return null;
  }
}

/** The actions that fit what was reported (the api refuses the others). */
function actionsFor(r: ReportView): { action: ReportAction; label: string }[] {
  const fitting: { action: ReportAction; label: string }[] = [{ action: 'none', label: 'Resolve (no action)' }];
  if (r.targetType === 'review') fitting.push({ action: 'hide_review', label: 'Hide review' });
  if (r.targetType === 'message') fitting.push({ action: 'hide_message', label: 'Hide message' });
  fitting.push({ action: 'deactivate_user', label: 'Deactivate user' });
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
  const link = targetLink(r);
  return (
    <Card className="p-5" role="article" aria-label={`Report of a ${TARGETS[r.targetType]?.toLowerCase() ?? 'thing'}`}>
      <p className="text-xs font-medium uppercase tracking-wide text-rose-700">
        {TARGETS[r.targetType] ?? r.targetType} · {reasonLabel(r.reason)}
      </p>
      <p className="mt-1 text-sm text-slate-600">
        {link ? <a href={link}>{r.targetId}</a> : r.targetId} · {new Date(r.createdAt).toLocaleString('en-US')}
      </p>
      {r.details && <p className="mt-3 whitespace-pre-wrap text-sm text-slate-800">{r.details}</p>}
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
          {r.status === 'resolved' ? `Resolved: ${r.action}` : 'Dismissed'}
          {r.note ? ` · ${r.note}` : ''}
        </p>
      )}
    </Card>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { resolveComplaint, resolveReadingComplaint } from '@/api/endpoints/admin/admin';
import type {
  ComplaintDetailView,
  ComplaintOutcome,
  ListComplaintsParams,
  ReadingComplaintDetailView,
  ResolveRequest,
} from '@/api/model';
import { StatusFilteredList } from '@/components/status-filtered-list';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-fetch';
import { formatDate, formatTime } from '@/lib/format';
import { formatUsd } from '@/lib/money';
import { adminKeys, adminQueries } from './api';

export const COMPLAINTS_EMPTY = 'No complaints here';

type Status = NonNullable<ListComplaintsParams['status']>;

const REASONS: Record<string, string> = {
  mentor_no_show: 'Mentor did not show up',
  technical_problem: 'Technical problem',
  not_as_described: 'Not as described',
  other: 'Something else',
};

export const OUTCOME_LABELS: Record<ComplaintOutcome, string> = {
  full_refund: 'Full refund',
  partial_refund: 'Partial refund',
  no_refund: 'No refund',
};

const time = (t: string) => `${formatDate(t)} ${formatTime(t)}`;

/** The complaint queue: oldest open first, with the evidence, the mentor's answer and the three outcomes;
 * then the readings' complaints (issue 36) in the same state, decided the same way. */
export function ComplaintsTab() {
  const [status, setStatus] = useState<Status>('open');
  const complaints = useQuery(adminQueries.complaints({ status }));
  const readings = useQuery(adminQueries.readingComplaints({ status }));
  return (
    <div className="space-y-6">
      <StatusFilteredList
        status={status}
        statuses={[
          { value: 'open', label: 'Open' },
          { value: 'resolved', label: 'Resolved' },
          { value: 'rejected', label: 'Rejected' },
          { value: 'all', label: 'All' },
        ]}
        onStatusChange={setStatus}
        query={{ ...complaints, data: complaints.data?.items }}
        icon={AlertTriangle}
        errorTitle="Unable to load complaints"
        emptyTitle={COMPLAINTS_EMPTY}
        renderItem={(c) => <ComplaintCard complaint={c} />}
      />
      {readings.data && readings.data.items.length > 0 && (
        <section aria-label="Readings' complaints" className="space-y-3">
          <h3 className="text-sm font-semibold text-slate-800">Instant readings</h3>
          {readings.data.items.map((c) => (
            <ReadingComplaintCard key={c.id} complaint={c} />
          ))}
        </section>
      )}
    </div>
  );
}

function ReadingComplaintCard({ complaint: c }: { complaint: ReadingComplaintDetailView }) {
  return (
    <Card className="p-5" role="article" aria-label={`Complaint about the reading of ${time(c.createdAt)}`}>
      <p className="text-xs font-medium uppercase tracking-wide text-amber-700">
        {REASONS[c.reason] ?? c.reason} · {c.status}
      </p>
      <p className="mt-1 text-sm text-slate-800">
        Instant reading{c.startedAt ? ` on ${time(c.startedAt)}` : ''} · seeker {c.seeker.firstName} {c.seeker.lastName}{' '}
        ({c.seeker.email}) · mentor {c.mentorDisplayName} ({c.mentorEmail})
      </p>
      <p className="mt-1 text-sm text-slate-600">
        Charged {formatUsd(c.amountCharged)} to the wallet · refunded {formatUsd(c.amountRefunded)} · reported{' '}
        {time(c.createdAt)}
      </p>
      {c.details && <p className="mt-3 whitespace-pre-wrap text-sm text-slate-800">{c.details}</p>}
      <p className="mt-3 text-sm text-slate-700">
        {c.response ? `Mentor's answer: ${c.response.message}` : 'The mentor has not answered.'}
      </p>
      {c.resolution ? (
        <p className="mt-3 text-sm text-slate-700">
          Decided: {OUTCOME_LABELS[c.resolution.outcome]}
          {c.resolution.outcome !== 'no_refund' && ` (${formatUsd(c.resolution.amount)})`} · {c.resolution.note}
        </p>
      ) : (
        c.status === 'open' && <DecisionForm resolve={(body) => resolveReadingComplaint(c.id, body)} readings />
      )}
    </Card>
  );
}

function ComplaintCard({ complaint: c }: { complaint: ComplaintDetailView }) {
  return (
    <Card className="p-5" role="article" aria-label={`Complaint about ${c.booking.title}`}>
      <p className="text-xs font-medium uppercase tracking-wide text-amber-700">
        {REASONS[c.reason] ?? c.reason} · {c.status}
      </p>
      <p className="mt-1 text-sm text-slate-800">
        {c.booking.title} on {time(c.booking.scheduledAt)} · seeker {c.seeker.firstName} {c.seeker.lastName} (
        {c.seeker.email}) · mentor {c.mentor.displayName} ({c.mentor.noShowCount} no-shows settled)
      </p>
      <p className="mt-1 text-sm text-slate-600">
        Paid {formatUsd(c.amountPaid)} · refunded {formatUsd(c.amountRefunded)} · left {formatUsd(c.amountLeft)} ·
        reported {time(c.createdAt)}
      </p>
      {c.details && <p className="mt-3 whitespace-pre-wrap text-sm text-slate-800">{c.details}</p>}
      <div className="mt-3 text-sm text-slate-700">
        <p className="font-medium">Call evidence</p>
        {c.calls.length === 0 && c.groupCallJoins.length === 0 ? (
          <p>No calls between them around the session.</p>
        ) : (
          <ul className="list-disc pl-5">
            {c.calls.map((call) => (
              <li key={call.id}>
                {call.placedBy === 'seeker' ? 'Seeker called' : 'Mentor called'} at {time(call.createdAt)}:{' '}
                {call.answeredAt ? `answered at ${time(call.answeredAt)}` : call.status}
              </li>
            ))}
            {c.groupCallJoins.map((j) => (
              <li key={`${j.userId}-${j.joinedAt}`}>
                {j.isMentor ? 'Mentor' : 'A participant'} in the call from {time(j.joinedAt)}
                {j.leftAt ? ` to ${time(j.leftAt)}` : ''}
              </li>
            ))}
          </ul>
        )}
      </div>
      <p className="mt-3 text-sm text-slate-700">
        {c.response ? `Mentor's answer: ${c.response.message}` : 'The mentor has not answered.'}
      </p>
      {c.resolution ? (
        <p className="mt-3 text-sm text-slate-700">
          Decided: {OUTCOME_LABELS[c.resolution.outcome]}
          {c.resolution.outcome !== 'no_refund' && ` (${formatUsd(c.resolution.amount)})`} · {c.resolution.note}
        </p>
      ) : (
        <DecisionForm resolve={(body) => resolveComplaint(c.id, body)} />
      )}
    </Card>
  );
}

function DecisionForm({
  resolve,
  readings = false,
}: {
  resolve: (body: ResolveRequest) => Promise<unknown>;
  readings?: boolean;
}) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const [amount, setAmount] = useState('');
  const decide = useMutation({
    mutationFn: (outcome: ComplaintOutcome) =>
      resolve({
        outcome,
        note: note.trim(),
        ...(outcome === 'partial_refund' ? { amount } : {}),
      }),
    onSuccess: (_d, outcome) => toast.success('Complaint decided', { description: OUTCOME_LABELS[outcome] }),
    onError: (error: unknown) => toast.error('Error', { description: errorMessage(error, 'Please try again.') }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: readings ? adminKeys.readingComplaints() : adminKeys.complaints() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.bookings() }),
      ]),
  });
  const noNote = !note.trim();
  return (
    <div className="mt-4 space-y-3">
      <label className="block text-sm text-slate-700">
        Note (required)
        <textarea
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-1.5"
          maxLength={1000}
          rows={2}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
      </label>
      <label className="block w-48 text-sm text-slate-700">
        Partial amount ($)
        <input
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-1.5"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
      </label>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="outline"
          disabled={decide.isPending || noNote}
          onClick={() => decide.mutate('full_refund')}
        >
          {OUTCOME_LABELS.full_refund}
        </Button>
        <Button
          size="sm"
          variant="outline"
          disabled={decide.isPending || noNote || !amount.trim()}
          onClick={() => decide.mutate('partial_refund')}
        >
          {OUTCOME_LABELS.partial_refund}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          disabled={decide.isPending || noNote}
          onClick={() => decide.mutate('no_refund')}
        >
          {OUTCOME_LABELS.no_refund}
        </Button>
      </div>
    </div>
  );
}

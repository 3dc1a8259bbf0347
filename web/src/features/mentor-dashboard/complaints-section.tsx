import { AlertTriangle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-fetch';
import { formatDate, formatTime } from '@/lib/format';
import { formatUsd } from '@/lib/money';
import { useNow } from '@/lib/use-now';
import {
  useAnswerComplaint,
  useAnswerReadingComplaint,
  useMentorComplaints,
  useMentorReadingComplaints,
  type MentorComplaint,
  type MentorReadingComplaint,
} from './complaints-api';

export const COMPLAINTS_TITLE = 'Reported problems';
export const MAX_ANSWER = 2000;

const REASONS: Record<string, string> = {
  mentor_no_show: 'Mentor did not show up',
  technical_problem: 'Technical problem',
  not_as_described: 'Not as described',
  other: 'Something else',
};

const OUTCOMES: Record<string, string> = {
  full_refund: 'Full refund',
  partial_refund: 'Partial refund',
  no_refund: 'No refund',
};

/** Above the mentor's bookings: complaints about their sessions, each answerable once within 48 hours. */
export function ComplaintsSection() {
  const complaints = useMentorComplaints();
  const readings = useMentorReadingComplaints();
  const items = complaints.data?.items ?? [];
  const readingItems = readings.data ?? [];
  if (items.length === 0 && readingItems.length === 0) return null;
  return (
    <section aria-label={COMPLAINTS_TITLE} className="mb-6 space-y-3">
      <h2 className="flex items-center gap-2 font-display text-lg font-semibold text-slate-900">
        <AlertTriangle aria-hidden="true" className="h-5 w-5 text-amber-600" />
        {COMPLAINTS_TITLE}
      </h2>
      {items.map((c) => (
        <ComplaintCard key={c.id} complaint={c} />
      ))}
      {readingItems.map((c) => (
        <ReadingComplaintCard key={c.id} complaint={c} />
      ))}
    </section>
  );
}

function ComplaintCard({ complaint: c }: { complaint: MentorComplaint }) {
  const now = useNow();
  const answerable = !c.response && new Date(c.responseDueAt).getTime() > now.getTime();
  return (
    <Card className="p-4" role="article" aria-label={`Complaint about ${c.booking.title}`}>
      <p className="text-sm font-medium text-slate-900">
        {c.booking.title} · {formatDate(c.booking.scheduledAt)} at {formatTime(c.booking.scheduledAt)}
      </p>
      <p className="mt-1 text-sm text-slate-700">
        {c.seeker.firstName} {c.seeker.lastName}: {REASONS[c.reason] ?? c.reason}
      </p>
      {c.details && <p className="mt-2 whitespace-pre-wrap text-sm text-slate-800">{c.details}</p>}
      {c.response && <p className="mt-2 text-sm text-slate-700">Your answer: {c.response.message}</p>}
      {c.resolution ? (
        <p className="mt-2 text-sm text-slate-700">
          Decided: {OUTCOMES[c.resolution.outcome] ?? c.resolution.outcome}
          {c.resolution.outcome !== 'no_refund' && ` (${formatUsd(c.resolution.amount)})`} · {c.resolution.note}
        </p>
      ) : (
        <p className="mt-2 text-sm text-amber-700">Waiting for an administrator's decision</p>
      )}
      {answerable && <AnswerForm id={c.id} dueAt={c.responseDueAt} />}
    </Card>
  );
}

/** A complaint about one of the mentor's instant readings (issue 36), answerable the same way. */
function ReadingComplaintCard({ complaint: c }: { complaint: MentorReadingComplaint }) {
  const now = useNow();
  const answerable = !c.response && new Date(c.responseDueAt).getTime() > now.getTime();
  const at = c.startedAt ?? c.createdAt;
  return (
    <Card className="p-4" role="article" aria-label={`Complaint about the reading of ${formatDate(at)}`}>
      <p className="text-sm font-medium text-slate-900">
        Instant reading · {formatDate(at)} at {formatTime(at)}
      </p>
      <p className="mt-1 text-sm text-slate-700">
        {c.seekerFirstName} {c.seekerLastName}: {REASONS[c.reason] ?? c.reason}
      </p>
      {c.details && <p className="mt-2 whitespace-pre-wrap text-sm text-slate-800">{c.details}</p>}
      {c.response && <p className="mt-2 text-sm text-slate-700">Your answer: {c.response.message}</p>}
      {c.resolution ? (
        <p className="mt-2 text-sm text-slate-700">
          Decided: {OUTCOMES[c.resolution.outcome] ?? c.resolution.outcome}
          {c.resolution.outcome !== 'no_refund' && ` (${formatUsd(c.resolution.amount)})`} · {c.resolution.note}
        </p>
      ) : c.status === 'open' ? (
        <p className="mt-2 text-sm text-amber-700">Waiting for an administrator's decision</p>
      ) : (
        <p className="mt-2 text-sm text-slate-700">Decided: {c.status}</p>
      )}
      {answerable && <AnswerForm id={c.id} dueAt={c.responseDueAt} readings />}
    </Card>
  );
}

function AnswerForm({ id, dueAt, readings = false }: { id: string; dueAt: string; readings?: boolean }) {
  const [message, setMessage] = useState('');
  const bookingAnswer = useAnswerComplaint();
  const readingAnswer = useAnswerReadingComplaint();
  const answer = readings ? readingAnswer : bookingAnswer;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    answer.mutate({ id, message: message.trim() }, { onSuccess: () => toast.success('Answer sent') });
  };
  return (
    <form onSubmit={submit} className="mt-3 space-y-2">
      <Field
        label="Your answer"
        hint={`You can answer once, until ${formatDate(dueAt)} at ${formatTime(dueAt)}.`}
        labelAside={
          <span className="text-xs text-slate-500">
            {message.length}/{MAX_ANSWER}
          </span>
        }
      >
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            maxLength={MAX_ANSWER}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
        )}
      </Field>
      {answer.isError && <Alert variant="error">{errorMessage(answer.error, 'Failed to send your answer')}</Alert>}
      <Button type="submit" size="sm" disabled={answer.isPending || !message.trim()}>
        Send answer
      </Button>
    </form>
  );
}

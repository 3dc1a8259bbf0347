import { useState, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import type { ComplaintReason, ComplaintResolutionView, ComplaintResponseView, ComplaintStatus } from '@/api/model';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-fetch';
import { formatUsd } from '@/lib/money';

// The seeker's side of a complaint, shared by bookings (dashboard) and instant readings (reading page):
// the same reasons, form, texts and state card (docs/payments.md, docs/instant-readings.md).

/** A complaint is open from the start until this long after the end (docs/payments.md). */
export const COMPLAINT_WINDOW_MS = 24 * 3_600_000;
export const MAX_DETAILS = 2000;
export const REPORT_LABEL = 'Report a problem';

export const COMPLAINT_REASONS: { value: ComplaintReason; label: string }[] = [
  { value: 'mentor_no_show', label: 'The mentor did not show up' },
  { value: 'technical_problem', label: 'A technical problem' },
  { value: 'not_as_described', label: 'Not as described' },
  { value: 'other', label: 'Something else' },
];

export const COMPLAINT_STATUS_TEXT: Record<string, string> = {
  open: 'Problem reported: waiting for a decision',
  resolved: 'Problem reported: resolved',
  rejected: 'Problem reported: no refund',
};

const OUTCOME_TEXT: Record<string, string> = {
  full_refund: 'Full refund',
  partial_refund: 'Partial refund',
  no_refund: 'No refund',
};

export type ComplaintDraft = { reason: ComplaintReason; details?: string };

/** What a filed complaint shows its seeker: its status, the decision with its note, the mentor's answer. */
export type ComplaintStateInput = {
  status: ComplaintStatus;
  resolution?: ComplaintResolutionView | null;
  response?: ComplaintResponseView | null;
};

export function ComplaintState({ complaint }: { complaint: ComplaintStateInput }) {
  const r = complaint.resolution;
  return (
    <div className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-slate-800" role="status">
      <p className="font-medium">{COMPLAINT_STATUS_TEXT[complaint.status] ?? complaint.status}</p>
      {r && (
        <p className="mt-1">
          {OUTCOME_TEXT[r.outcome] ?? r.outcome}
          {r.outcome !== 'no_refund' && `: ${formatUsd(r.amount)}`}
          {r.note && ` · ${r.note}`}
        </p>
      )}
      {complaint.response && <p className="mt-1 text-slate-700">The mentor answered: {complaint.response.message}</p>}
    </div>
  );
}

/**
 * The report's form: a reason, details (required but for a no-show), and the send button. `send` files it
 * and calls `onFiled` with the new complaint's status; `noShowHint` explains a no-show's rule where one applies.
 */
export function ComplaintForm({
  send,
  isPending,
  error,
  onDone,
  noShowHint,
}: {
  send: (draft: ComplaintDraft, onFiled: (status: ComplaintStatus) => void) => void;
  isPending: boolean;
  error: unknown;
  onDone: () => void;
  noShowHint?: ReactNode;
}) {
  const [reason, setReason] = useState<ComplaintReason>('technical_problem');
  const [details, setDetails] = useState('');
  const needsDetails = reason !== 'mentor_no_show';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send({ reason, details: details.trim() || undefined }, (status) => {
      toast.success('Problem reported', {
        description:
          status === 'resolved'
            ? 'The call records show the mentor did not join: you are refunded in full.'
            : 'The mentor can answer within 48 hours; then an administrator decides.',
      });
      onDone();
    });
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      <Field label="What went wrong?">
        {(control) => (
          <Select {...control} value={reason} onChange={(e) => setReason(e.target.value as ComplaintReason)}>
            {COMPLAINT_REASONS.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </Select>
        )}
      </Field>
      {reason === 'mentor_no_show' && noShowHint && <p className="text-sm text-slate-600">{noShowHint}</p>}
      <Field
        label={needsDetails ? 'Details' : 'Details (optional)'}
        labelAside={
          <span className="text-xs text-slate-500">
            {details.length}/{MAX_DETAILS}
          </span>
        }
      >
        {(control) => (
          <Textarea
            {...control}
            value={details}
            maxLength={MAX_DETAILS}
            required={needsDetails}
            rows={4}
            onChange={(e) => setDetails(e.target.value)}
          />
        )}
      </Field>
      {Boolean(error) && <Alert variant="error">{errorMessage(error, 'Failed to report the problem')}</Alert>}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone}>
          Close
        </Button>
        <Button type="submit" disabled={isPending || (needsDetails && !details.trim())}>
          {isPending && <Spinner className="h-4 w-4" />}
          Send report
        </Button>
      </div>
    </form>
  );
}

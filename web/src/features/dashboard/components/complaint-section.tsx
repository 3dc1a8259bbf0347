import { AlertTriangle, Receipt } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { ComplaintReason, ComplaintView, RefundEntryView } from '@/api/model';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-fetch';
import { formatDate } from '@/lib/format';
import { formatUsd } from '@/lib/money';
import { useFileComplaint, type DashboardBooking } from '../api';

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

const STATUS_TEXT: Record<string, string> = {
  open: 'Problem reported: waiting for a decision',
  resolved: 'Problem reported: resolved',
  rejected: 'Problem reported: no refund',
};

const OUTCOME_TEXT: Record<string, string> = {
  full_refund: 'Full refund',
  partial_refund: 'Partial refund',
  no_refund: 'No refund',
};

const REFUND_REASON_TEXT: Record<string, string> = {
  cancellation: 'Cancellation',
  reversal: 'Charge reversed',
  complaint: 'Complaint',
  no_show: 'Mentor no-show',
  goodwill: 'Goodwill refund',
  removed_by_mentor: 'Removed by the mentor',
};

const REFUND_STATE_TEXT: Record<string, string> = {
  pending: 'on its way',
  succeeded: 'refunded',
  failed: 'failed: please contact support',
  not_needed: 'nothing to refund',
};

/** Whether the seeker may report a problem with this booking now. */
export function canReport(booking: DashboardBooking, now: Date): boolean {
  if (booking.complaint) return false;
  if (!['pending', 'confirmed', 'completed'].includes(booking.status)) return false;
  const start = new Date(booking.scheduledAt).getTime();
  const end = start + booking.duration * 60_000;
  return now.getTime() >= start && now.getTime() <= end + COMPLAINT_WINDOW_MS;
}

/** Under a session: the refunds it had (beyond a cancellation's), the complaint's state, and the button. */
export function ComplaintSection({ booking, now }: { booking: DashboardBooking; now: Date }) {
  const [open, setOpen] = useState(false);
  const extraRefunds = booking.refunds.filter((r) => r.reason !== 'cancellation');
  return (
    <>
      {booking.complaint && <ComplaintState complaint={booking.complaint} />}
      {extraRefunds.length > 0 && <RefundList refunds={extraRefunds} />}
      {canReport(booking, now) && (
        <div className="mt-4">
          <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
            <AlertTriangle aria-hidden="true" className="h-4 w-4" />
            {REPORT_LABEL}
          </Button>
        </div>
      )}
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title={REPORT_LABEL}
        description={`${booking.service.title} with ${booking.mentor.displayName} on ${formatDate(booking.scheduledAt)}.`}
      >
        {open && <ComplaintForm booking={booking} onDone={() => setOpen(false)} />}
      </Dialog>
    </>
  );
}

function ComplaintState({ complaint }: { complaint: ComplaintView }) {
  const r = complaint.resolution;
  return (
    <div className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-slate-800" role="status">
      <p className="font-medium">{STATUS_TEXT[complaint.status] ?? complaint.status}</p>
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

function RefundList({ refunds }: { refunds: RefundEntryView[] }) {
  return (
    <ul className="mt-3 space-y-1 text-sm text-slate-700" aria-label="Refunds">
      {refunds.map((r) => (
        <li key={`${r.createdAt}-${r.amount}`} className="flex items-center gap-2">
          <Receipt aria-hidden="true" className="h-4 w-4 text-slate-500" />
          {REFUND_REASON_TEXT[r.reason] ?? r.reason}: {formatUsd(r.amount)}, {REFUND_STATE_TEXT[r.status] ?? r.status}
        </li>
      ))}
    </ul>
  );
}

function ComplaintForm({ booking, onDone }: { booking: DashboardBooking; onDone: () => void }) {
  const [reason, setReason] = useState<ComplaintReason>('technical_problem');
  const [details, setDetails] = useState('');
  const file = useFileComplaint();
  const needsDetails = reason !== 'mentor_no_show';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    file.mutate(
      { booking, reason, details: details.trim() || undefined },
      {
        onSuccess: (c) => {
          toast.success('Problem reported', {
            description:
              c.status === 'resolved'
                ? 'The call records show the mentor did not join: you are refunded in full.'
                : 'The mentor can answer within 48 hours; then an administrator decides.',
          });
          onDone();
        },
      },
    );
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
      {reason === 'mentor_no_show' && (
        <p className="text-sm text-slate-600">
          Call your mentor from the session first. Reported 15 minutes or more after the start, a no-show is refunded in
          full at once when our call records show that you called and your mentor neither called nor answered.
        </p>
      )}
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
      {file.isError && <Alert variant="error">{errorMessage(file.error, 'Failed to report the problem')}</Alert>}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone}>
          Close
        </Button>
        <Button type="submit" disabled={file.isPending || (needsDetails && !details.trim())}>
          {file.isPending && <Spinner className="h-4 w-4" />}
          Send report
        </Button>
      </div>
    </form>
  );
}

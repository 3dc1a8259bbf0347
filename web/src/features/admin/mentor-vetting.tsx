import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { approveMentor, rejectMentor } from '@/api/endpoints/admin/admin';
import { ApprovalStatus, type AdminMentorView } from '@/api/model';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-fetch';
import { cn } from '@/lib/utils';
import { adminKeys } from './api';

// Vetting in the admin console's Mentors tab: each profile's approval status, a filter by it, and
// Approve / Reject (with the reason the mentor reads) for those not decided on yet.

/** How each status reads. */
const APPROVAL_LABELS: Record<ApprovalStatus, string> = {
  pending: 'Awaiting review',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** The statuses, in the API's order (the filter's), with how they read. */
export const APPROVAL_STATUSES = Object.values(ApprovalStatus).map((value) => ({
  value,
  label: APPROVAL_LABELS[value],
}));

/** The longest rejection reason the api takes. */
export const MAX_REJECTION_REASON_CHARS = 1000;

export const VETTING_TEXT = {
  approved: 'Mentor approved',
  rejected: 'Mentor rejected',
  approveFailed: 'Failed to approve mentor',
  rejectFailed: 'Failed to reject mentor',
  reasonRequired: 'Please give the mentor a reason',
  reasonTooLong: `The reason must be at most ${MAX_REJECTION_REASON_CHARS} characters`,
} as const;

const BADGE_TONES: Record<ApprovalStatus, string> = {
  pending: 'bg-amber-50 text-amber-700',
  approved: 'bg-emerald-50 text-emerald-700',
  rejected: 'bg-rose-50 text-rose-700',
};

export function approvalLabel(status: ApprovalStatus): string {
  return APPROVAL_LABELS[status];
}

export function ApprovalBadge({ status }: { status: ApprovalStatus }) {
  return (
    <span
      className={cn(
        'inline-flex whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-medium',
        BADGE_TONES[status] ?? 'bg-slate-100 text-slate-600',
      )}
    >
      {approvalLabel(status)}
    </span>
  );
}

function useVettingDecision<T>(decide: (args: T) => Promise<AdminMentorView>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: decide,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.mentors() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.stats() }),
      ]),
  });
}

/** Approve and Reject for one mentor; Reject asks for the reason first. */
export function VettingActions({ mentor }: { mentor: AdminMentorView }) {
  const approve = useVettingDecision((id: string) => approveMentor(id));
  const reject = useVettingDecision(({ id, reason }: { id: string; reason: string }) => rejectMentor(id, { reason }));
  const [rejecting, setRejecting] = useState(false);
  const busy = approve.isPending || reject.isPending;

  const onApprove = () =>
    approve.mutate(mentor.id, {
      onSuccess: (m) => toast.success(VETTING_TEXT.approved, { description: m.displayName }),
      onError: (error) =>
        toast.error(VETTING_TEXT.approveFailed, { description: errorMessage(error, 'Please try again.') }),
    });

  return (
    <div className="flex flex-wrap gap-2">
      {mentor.approvalStatus !== 'approved' && (
        <Button size="sm" disabled={busy} aria-label={`Approve ${mentor.displayName}`} onClick={onApprove}>
          Approve
        </Button>
      )}
      {mentor.approvalStatus !== 'rejected' && (
        <Button
          size="sm"
          variant="outline"
          className="border-rose-200 text-rose-700 hover:border-rose-300 hover:bg-rose-50"
          disabled={busy}
          aria-label={`Reject ${mentor.displayName}`}
          onClick={() => setRejecting(true)}
        >
          Reject
        </Button>
      )}
      <RejectDialog
        mentor={mentor}
        open={rejecting}
        onOpenChange={setRejecting}
        pending={reject.isPending}
        onReject={(reason) =>
          reject.mutate(
            { id: mentor.id, reason },
            {
              onSuccess: (m) => {
                setRejecting(false);
                toast.success(VETTING_TEXT.rejected, { description: m.displayName });
              },
              onError: (error) =>
                toast.error(VETTING_TEXT.rejectFailed, { description: errorMessage(error, 'Please try again.') }),
            },
          )
        }
      />
    </div>
  );
}

function RejectDialog({
  mentor,
  open,
  onOpenChange,
  pending,
  onReject,
}: {
  mentor: AdminMentorView;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  onReject: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = reason.trim();
    if (!trimmed) return setError(VETTING_TEXT.reasonRequired);
    if ([...trimmed].length > MAX_REJECTION_REASON_CHARS) return setError(VETTING_TEXT.reasonTooLong);
    setError(null);
    onReject(trimmed);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Reject ${mentor.displayName}`}
      description="The mentor reads this reason by notification and e-mail, and may edit the profile and resubmit it."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <label className="block text-sm font-medium text-slate-700" htmlFor={`reject-reason-${mentor.id}`}>
          Reason
        </label>
        <Textarea
          id={`reject-reason-${mentor.id}`}
          value={reason}
          maxLength={MAX_REJECTION_REASON_CHARS}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `reject-reason-error-${mentor.id}` : undefined}
          onChange={(e) => setReason(e.target.value)}
        />
        {error && (
          <p id={`reject-reason-error-${mentor.id}`} role="alert" className="text-sm text-rose-700">
            {error}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending} className="bg-rose-600 hover:bg-rose-700">
            Reject Mentor
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

import { useMutation } from '@tanstack/react-query';
import { Flag } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { createReport } from '@/api/endpoints/support/support';
import type { ReportReason, ReportRequest, ReportTargetType } from '@/api/model';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorMessage, errorStatus } from '@/lib/api-fetch';
import { cn } from '@/lib/utils';

export type ReportTarget = ReportTargetType;

export const REPORT_REASONS: readonly { value: ReportReason; label: string }[] = [
  { value: 'harassment', label: 'Harassment' },
  { value: 'scam_or_fraud', label: 'Scam or fraud' },
  { value: 'inappropriate_content', label: 'Inappropriate content' },
  { value: 'no_show', label: 'No-show' },
  { value: 'other', label: 'Something else' },
];

const asReason = (v: string): ReportReason | '' => REPORT_REASONS.find((r) => r.value === v)?.value ?? '';

export const REPORT_SENT = 'Report sent';
export const REPORT_SENT_TEXT = 'Thank you. An administrator will look at it.';
export const ALREADY_REPORTED_TEXT = 'You have already reported this.';
export const DETAILS_REQUIRED = 'Please describe the problem';
export const MAX_REPORT_DETAILS = 2000;

const NOUNS: Record<ReportTarget, string> = {
  mentor: 'mentor',
  user: 'member',
  message: 'message',
  review: 'review',
  group_session: 'group session',
};

type Props = {
  targetType: ReportTarget;
  targetId: string;
  /** A quiet icon-only button (chat messages, reviews) instead of a labelled one. */
  compact?: boolean;
  className?: string;
};

/** 'Report' with a dialog asking why: anyone signed in can report what they see (POST /api/reports). */
export function ReportButton({ targetType, targetId, compact = false, className }: Props) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { reason: useId(), details: useId() };
  const noun = NOUNS[targetType];
  const send = useMutation({ mutationFn: (report: ReportRequest) => createReport(report) });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!reason) return setProblem('Please choose a reason');
    if (reason === 'other' && !details.trim()) return setProblem(DETAILS_REQUIRED);
    setProblem(null);
    send.mutate(
      { targetType, targetId, reason, details: details.trim() || undefined },
      {
        onSuccess: () => {
          setOpen(false);
          setReason('');
          setDetails('');
          toast.success(REPORT_SENT, { description: REPORT_SENT_TEXT });
        },
        onError: (error) => {
          if (errorStatus(error) === 409) {
            setOpen(false);
            toast.info(ALREADY_REPORTED_TEXT);
          } else {
            setProblem(errorMessage(error, 'Failed to send the report'));
          }
        },
      },
    );
  };

  return (
    <>
      <Button
        type="button"
        variant="ghost"
        size="sm"
        className={cn('text-slate-500 hover:text-rose-700', className)}
        aria-label={compact ? `Report this ${noun}` : undefined}
        onClick={() => setOpen(true)}
      >
        <Flag aria-hidden="true" className="h-4 w-4" />
        {!compact && 'Report'}
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title={`Report this ${noun}`}>
        <form noValidate onSubmit={submit} className="space-y-4">
          <div className="space-y-1">
            <label htmlFor={ids.reason} className="text-sm font-medium text-slate-700">
              Reason
            </label>
            <select
              id={ids.reason}
              className="w-full rounded-md border border-slate-300 bg-white px-3 py-2"
              value={reason}
              onChange={(e) => setReason(asReason(e.target.value))}
            >
              <option value="">Choose a reason</option>
              {REPORT_REASONS.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1">
            <label htmlFor={ids.details} className="text-sm font-medium text-slate-700">
              Details {reason === 'other' ? '' : '(optional)'}
            </label>
            <textarea
              id={ids.details}
              className="min-h-24 w-full rounded-md border border-slate-300 px-3 py-2"
              maxLength={MAX_REPORT_DETAILS}
              value={details}
              onChange={(e) => setDetails(e.target.value)}
            />
          </div>
          {problem && (
            <p role="alert" className="text-sm text-rose-600">
              {problem}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={send.isPending}>
              {send.isPending ? 'Sending...' : 'Send report'}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

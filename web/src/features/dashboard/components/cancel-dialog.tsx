import { RefreshCw } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { REFUND_POLICY } from '@/config/constants';
import { DASHBOARD_TEXT } from '@/features/dashboard/texts';
import { refundPercentAt } from '@/lib/booking-rules';
import { errorMessage } from '@/lib/api-fetch';
import { formatDate, formatTime } from '@/lib/format';
import { formatUsd } from '@/lib/money';
import { cn } from '@/lib/utils';
import { useCancelBooking, useRefundPreview, type DashboardBooking } from '../api';

const { fullRefundHours, partialRefundHours, partialRefundPercent } = REFUND_POLICY;

/** The three tiers, as the dialog lists them: each says what the seeker gets back. */
export const REFUND_TIERS = [
  {
    percent: 100,
    text: `${fullRefundHours} hours or more before the session: 100% refund, you get back everything you paid`,
  },
  {
    percent: partialRefundPercent,
    text: `${partialRefundHours} to ${fullRefundHours} hours before: ${partialRefundPercent}% refund, you get back ${partialRefundPercent}% of what you paid`,
  },
  { percent: 0, text: `Less than ${partialRefundHours} hours before: no refund, you get nothing back` },
] as const;

type CancelDialogProps = {
  /** The booking to cancel; null closes the dialog. */
  booking: DashboardBooking | null;
  onClose: () => void;
};

/**
 * The refund policy and the exact refund for cancelling now
 * (GET /api/user/bookings/{id}/refund-preview), a required acknowledgement and an optional
 * reason; PUT /api/user/bookings/{id}/cancel.
 */
export function CancelDialog({ booking, onClose }: CancelDialogProps) {
  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Cancel Session"
      description={
        booking
          ? `${booking.service.title} with ${booking.mentor.displayName} on ${formatDate(booking.scheduledAt)} at ${formatTime(booking.scheduledAt)}.`
          : undefined
      }
    >
      {booking && <CancelForm key={booking.id} booking={booking} onDone={onClose} />}
    </Dialog>
  );
}

function CancelForm({ booking, onDone }: { booking: DashboardBooking; onDone: () => void }) {
  const [acknowledged, setAcknowledged] = useState(false);
  const [missingAck, setMissingAck] = useState(false);
  const [reason, setReason] = useState('');
  const preview = useRefundPreview(booking.id, true);
  const cancel = useCancelBooking();
  const ackId = useId();
  const busy = cancel.isPending;
  const tier = refundPercentAt(booking.scheduledAt);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!acknowledged) {
      setMissingAck(true);
      return;
    }
    cancel.mutate(
      { booking, acknowledgePolicy: true, reason: reason.trim() || undefined },
      {
        onSuccess: (result) => {
          toast.success('Session Cancelled', {
            description: `Refund: ${formatUsd(result.refundPolicy.refundAmount)} (${result.refundPolicy.refundPercentage}%).`,
          });
          onDone();
        },
        onError: (error) => {
          toast.error(DASHBOARD_TEXT.cancelFailedTitle, {
            description: errorMessage(error, DASHBOARD_TEXT.cancelFailed),
          });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <section aria-labelledby={`${ackId}-policy`} className="rounded-xl border border-slate-200 p-4">
        <h3 id={`${ackId}-policy`} className="text-sm font-semibold text-slate-900">
          Cancellation Policy
        </h3>
        <ul className="mt-2 space-y-1.5 text-sm">
          {REFUND_TIERS.map((t) => (
            <li
              key={t.percent}
              aria-current={t.percent === tier ? 'true' : undefined}
              className={cn(
                'rounded-md px-2 py-1',
                t.percent === tier ? 'bg-indigo-50 font-medium text-indigo-900' : 'text-slate-600',
              )}
            >
              {t.text}
            </li>
          ))}
        </ul>
      </section>

      <div aria-live="polite">
        {preview.isLoading ? (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner className="h-4 w-4 text-indigo-600" label="Calculating your refund" />
            Calculating your refund...
          </p>
        ) : preview.isError ? (
          <Alert variant="error">
            <p>{errorMessage(preview.error, 'Your refund could not be calculated.')}</p>
            <Button variant="outline" size="sm" onClick={() => void preview.refetch()} disabled={preview.isFetching}>
              <RefreshCw aria-hidden="true" className="h-4 w-4" />
              Try again
            </Button>
          </Alert>
        ) : preview.data ? (
          <div
            role="status"
            className="rounded-xl bg-emerald-50 px-4 py-3 text-sm text-emerald-900 ring-1 ring-emerald-200"
          >
            <p className="font-semibold">
              Refund if you cancel now: {formatUsd(preview.data.refundAmount)} ({preview.data.refundPercentage}%)
            </p>
            <p className="mt-0.5 text-emerald-800">Of the {formatUsd(booking.totalAmount)} you paid.</p>
          </div>
        ) : null}
      </div>

      <div className="space-y-1.5">
        <label htmlFor={ackId} className="flex items-start gap-3 text-sm text-slate-700">
          <input
            id={ackId}
            type="checkbox"
            className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 text-indigo-600 focus-visible:outline-indigo-500"
            checked={acknowledged}
            disabled={busy}
            aria-invalid={missingAck ? true : undefined}
            onChange={(e) => {
              setAcknowledged(e.target.checked);
              if (e.target.checked) setMissingAck(false);
            }}
          />
          I understand the cancellation policy and the refund shown above
        </label>
        {missingAck && <Alert variant="error">{DASHBOARD_TEXT.acknowledgePolicy}</Alert>}
      </div>

      <Field label="Reason for cancelling (optional)">
        {(control) => (
          <Textarea
            {...control}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            disabled={busy}
            rows={2}
            placeholder="Let your mentor know why you are cancelling"
          />
        )}
      </Field>

      <div className="flex flex-wrap justify-end gap-3 border-t border-slate-100 pt-4">
        <Button variant="outline" onClick={onDone} disabled={busy}>
          Keep Booking
        </Button>
        <Button type="submit" variant="destructive" disabled={busy || !preview.data}>
          {busy ? 'Cancelling...' : 'Confirm Cancellation'}
        </Button>
      </div>
    </form>
  );
}

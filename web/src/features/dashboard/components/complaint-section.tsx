import { AlertTriangle, Receipt } from 'lucide-react';
import { useState } from 'react';
import type { RefundEntryView } from '@/api/model';
import {
  COMPLAINT_WINDOW_MS,
  ComplaintForm as ReportForm,
  ComplaintState,
  REPORT_LABEL,
} from '@/components/complaint-report';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { formatDate } from '@/lib/format';
import { formatUsd } from '@/lib/money';
import { useFileComplaint, type DashboardBooking } from '../api';

export { COMPLAINT_REASONS, COMPLAINT_WINDOW_MS, MAX_DETAILS, REPORT_LABEL } from '@/components/complaint-report';

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
  const file = useFileComplaint();
  return (
    <ReportForm
      send={(draft, onFiled) => file.mutate({ booking, ...draft }, { onSuccess: (c) => onFiled(c.status) })}
      isPending={file.isPending}
      error={file.error}
      onDone={onDone}
      noShowHint={
        <>
          Call your mentor from the session first. Reported 15 minutes or more after the start, a no-show is refunded in
          full at once when our call records show that you called and your mentor neither called nor answered.
        </>
      }
    />
  );
}

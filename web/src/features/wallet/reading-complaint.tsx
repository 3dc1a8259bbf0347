import { AlertTriangle } from 'lucide-react';
import { useState } from 'react';
import type { InstantSessionView } from '@/api/model';
import { COMPLAINT_WINDOW_MS, ComplaintForm, ComplaintState, REPORT_LABEL } from '@/components/complaint-report';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { formatDate } from '@/lib/format';
import { useFiledReadingComplaint, useFileReadingComplaint } from './api';

/**
 * Whether the seeker may report a problem with this reading now: it was accepted (started) and ended, up to
 * 24 hours after its end (docs/instant-readings.md, the booking complaints' window), not reported yet.
 */
export function canReportReading(reading: InstantSessionView, now: Date, filed: boolean): boolean {
  if (filed || reading.status !== 'ended' || !reading.startedAt || !reading.endedAt) return false;
  return now.getTime() <= Date.parse(reading.endedAt) + COMPLAINT_WINDOW_MS;
}

/** Under an ended reading, for its seeker: 'Report a problem' as for a booking, then the complaint's state. */
export function ReadingComplaintSection({ reading, now }: { reading: InstantSessionView; now: Date }) {
  const [open, setOpen] = useState(false);
  // The reading carries its complaint once filed; the one filed in this visit shows before it is read again.
  const filedHere = useFiledReadingComplaint(reading.id).data;
  const filed = reading.complaint ?? filedHere;
  const file = useFileReadingComplaint(reading.id);
  const title = reading.mode === 'video' ? 'Call reading' : 'Chat reading';
  return (
    <section aria-label="Problem with this reading">
      {filed && <ComplaintState complaint={filed} />}
      {canReportReading(reading, now, !!filed) && (
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
        description={`${title} on ${formatDate(reading.startedAt ?? reading.createdAt)}.`}
      >
        {open && (
          <ComplaintForm
            send={(draft, onFiled) => file.mutate(draft, { onSuccess: (c) => onFiled(c.status) })}
            isPending={file.isPending}
            error={file.error}
            onDone={() => setOpen(false)}
          />
        )}
      </Dialog>
    </section>
  );
}

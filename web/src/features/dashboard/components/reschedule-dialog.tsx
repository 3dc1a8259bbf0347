import { CalendarClock } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { isoDate, SlotPicker, slotLabel } from '@/components/slot-picker';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/textarea';
import { RESCHEDULE_CUTOFF_HOURS } from '@/config/constants';
import { DASHBOARD_TEXT } from '@/features/dashboard/texts';
import { errorMessage, errorStatus } from '@/lib/api-fetch';
import { isRescheduleClosed } from '@/lib/booking-rules';
import { formatDate, formatTime } from '@/lib/format';
import { browserTimeZone } from '@/lib/time-zones';
import { wallTimeToIso } from '@/lib/wall-time';
import { useRescheduleBooking, type DashboardBooking } from '../api';

type RescheduleDialogProps = {
  /** The booking to move; null closes the dialog. */
  booking: DashboardBooking | null;
  onClose: () => void;
};

/**
 * Move a booking to another of the mentor's free times (the slot picker, with the
 * booking's mentor and duration) with an optional reason; PUT /api/user/bookings/{id}/reschedule.
 */
export const RESCHEDULE_CLOSED = `Bookings can be rescheduled up to ${RESCHEDULE_CUTOFF_HOURS} hours before the start. Please message your mentor, or cancel instead.`;

export function RescheduleDialog({ booking, onClose }: RescheduleDialogProps) {
  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title="Reschedule Session"
      description={
        booking
          ? `${booking.service.title} with ${booking.mentor.displayName}, now ${formatDate(booking.scheduledAt)} at ${formatTime(booking.scheduledAt)}.`
          : undefined
      }
      className="max-w-3xl"
    >
      {booking && <RescheduleForm key={booking.id} booking={booking} onDone={onClose} />}
    </Dialog>
  );
}

function RescheduleForm({ booking, onDone }: { booking: DashboardBooking; onDone: () => void }) {
  const [date, setDate] = useState<Date>();
  const [time, setTime] = useState<string>();
  const [reason, setReason] = useState('');
  const [missingTime, setMissingTime] = useState(false);
  const reschedule = useRescheduleBooking();
  const timeZone = browserTimeZone();
  // The api refuses a move inside the last 2 hours: say so rather than offer times.
  const closed = isRescheduleClosed(booking);
  const busy = reschedule.isPending;

  if (closed) {
    return (
      <div className="space-y-5">
        <Alert variant="info">{RESCHEDULE_CLOSED}</Alert>
        <div className="flex justify-end border-t border-slate-100 pt-4">
          <Button variant="outline" onClick={onDone}>
            Close
          </Button>
        </div>
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!date || !time) {
      setMissingTime(true);
      return;
    }
    setMissingTime(false);
    const scheduledAt = wallTimeToIso(isoDate(date), time, timeZone);
    reschedule.mutate(
      { booking, scheduledAt, reason: reason.trim() || undefined },
      {
        onSuccess: (result) => {
          toast.success('Session Rescheduled', {
            description: `Your session is now on ${formatDate(result.booking.scheduledAt)} at ${formatTime(result.booking.scheduledAt)}.`,
          });
          onDone();
        },
        onError: (error) => {
          toast.error(DASHBOARD_TEXT.rescheduleFailedTitle, {
            description: errorMessage(error, DASHBOARD_TEXT.rescheduleFailed),
          });
          // Someone else took the time meanwhile: the refreshed list no longer offers it.
          if (errorStatus(error) === 409) setTime(undefined);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <SlotPicker
        mentorId={booking.mentor.id}
        duration={booking.duration}
        date={date}
        time={time}
        onDateChange={(d) => {
          setDate(d);
          if (d) setMissingTime(false);
        }}
        onTimeChange={(t) => {
          setTime(t);
          if (t) setMissingTime(false);
        }}
        timeZone={timeZone}
        disabled={busy}
        excludeBooking={booking.id}
      />
      <Field
        label="Reason for rescheduling (optional)"
        hint={`Bookings can be moved up to ${RESCHEDULE_CUTOFF_HOURS} hours before they start.`}
      >
        {(control) => (
          <Textarea
            {...control}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            disabled={busy}
            rows={2}
            placeholder="Let your mentor know why you need a new time"
          />
        )}
      </Field>
      {missingTime && <Alert variant="error">{DASHBOARD_TEXT.selectNewTime}</Alert>}
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 pt-4">
        {date && time ? (
          <p className="flex items-center gap-2 text-sm text-slate-700">
            <CalendarClock aria-hidden="true" className="h-4 w-4 text-indigo-600" />
            New time: {formatDate(date)} at {slotLabel(time)}
          </p>
        ) : (
          <span />
        )}
        <div className="flex gap-3">
          <Button variant="outline" onClick={onDone} disabled={busy}>
            Keep Current Time
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Rescheduling...' : 'Confirm Reschedule'}
          </Button>
        </div>
      </div>
    </form>
  );
}

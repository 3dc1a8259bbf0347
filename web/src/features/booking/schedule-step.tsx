import { CalendarCheck, CalendarClock } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { isoDate, SlotPicker, slotLabel } from '@/components/slot-picker';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/textarea';
import { BOOKING_TEXT } from './texts';
import { errorMessage, errorStatus } from '@/lib/api-fetch';
import { formatDate, formatTime } from '@/lib/format';
import {
  completePaymentPath,
  heldTimeText,
  HOLD_TEXT,
  pickReplacesHold,
  releaseHold,
  type Hold as LiveHold,
} from '@/lib/holds';
import { browserTimeZone } from '@/lib/time-zones';
import { wallTimeToIso } from '@/lib/wall-time';
import { useCreateReservation, type BookableService } from './api';
import type { Hold } from './hold';

type ScheduleStepProps = {
  service: BookableService;
  free: boolean;
  /** The seeker's unpaid hold with this mentor, if any: the new pick replaces it. */
  existingHold?: LiveHold;
  /** The hold the address asked to resume is gone (paid, released or expired). */
  resumeFailed: boolean;
  onResume: (hold: LiveHold) => void;
  onHeld: (hold: Hold) => void;
  onFreeBooked: () => void;
};

/** Pick a slot and add notes; a free service is booked at once, a paid one held for payment. */
export function ScheduleStep({
  service,
  free,
  existingHold,
  resumeFailed,
  onResume,
  onHeld,
  onFreeBooked,
}: ScheduleStepProps) {
  const queryClient = useQueryClient();
  const [date, setDate] = useState<Date>();
  const [time, setTime] = useState<string>();
  const [notes, setNotes] = useState('');
  const [missingChoice, setMissingChoice] = useState(false);
  const [booked, setBooked] = useState(false);
  const reserve = useCreateReservation();
  const timeZone = browserTimeZone();

  const submit = () => {
    if (!date || !time) {
      setMissingChoice(true);
      return;
    }
    setMissingChoice(false);
    const scheduledAt = wallTimeToIso(isoDate(date), time, timeZone);
    reserve.mutate(
      {
        serviceId: service.id,
        mentorId: service.mentorId,
        scheduledAt,
        notes: notes.trim(),
        totalAmount: service.price,
        ...(existingHold && pickReplacesHold(existingHold, { scheduledAt, duration: service.duration, free })
          ? { replacesReservationId: existingHold.id }
          : {}),
      },
      {
        onSuccess: (result) => {
          if (result.freeBooking) {
            setBooked(true);
            onFreeBooked();
          } else if (result.reservation && result.expiresAt) {
            onHeld({ reservationId: result.reservation.id, expiresAt: result.expiresAt, scheduledAt });
          } else {
            toast.error(BOOKING_TEXT.reservationErrorTitle, { description: BOOKING_TEXT.reservationFailed });
          }
        },
        onError: (error) => {
          toast.error(BOOKING_TEXT.reservationErrorTitle, {
            description: errorMessage(error, BOOKING_TEXT.reservationFailed),
          });
          // Someone else took the time meanwhile: the refreshed list no longer offers it.
          if (errorStatus(error) === 409) setTime(undefined);
        },
      },
    );
  };

  const busy = reserve.isPending || booked;
  return (
    <div className="space-y-6">
      <div>
        <h2 className="font-display text-xl font-semibold text-slate-900">Choose a time</h2>
        <p className="mt-1 text-sm text-slate-600">Pick a day, then one of the times your mentor is free.</p>
      </div>
      {resumeFailed && <Alert variant="error">{HOLD_TEXT.expired}</Alert>}
      {existingHold && !free && (
        <Alert variant="info">
          <p className="font-medium">
            You are holding {heldTimeText(existingHold.scheduledAt)} ({existingHold.service.title}) with this mentor
            until {formatTime(existingHold.expiresAt)}.
          </p>
          <p>Pick a time below to replace it, complete its payment, or release it.</p>
          <div className="mt-2 flex flex-wrap gap-2">
            {existingHold.service.id === service.id ? (
              <Button size="sm" onClick={() => onResume(existingHold)}>
                Complete payment
              </Button>
            ) : (
              <Button asChild size="sm">
                <Link to={completePaymentPath(existingHold)}>Complete payment</Link>
              </Button>
            )}
            <Button size="sm" variant="outline" onClick={() => void releaseHold(queryClient, existingHold)}>
              Release
            </Button>
          </div>
        </Alert>
      )}
      <SlotPicker
        mentorId={service.mentorId}
        duration={service.duration}
        date={date}
        time={time}
        onDateChange={(d) => {
          setDate(d);
          if (d) setMissingChoice(false);
        }}
        onTimeChange={(t) => {
          setTime(t);
          if (t) setMissingChoice(false);
        }}
        timeZone={timeZone}
        disabled={busy}
      />
      <Field label="Notes for your mentor" hint="Optional: what you would like to focus on in the session.">
        {(control) => (
          <Textarea
            {...control}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            disabled={busy}
            rows={3}
            placeholder="Share a question or intention for your session"
          />
        )}
      </Field>
      {missingChoice && <Alert variant="error">{BOOKING_TEXT.selectDateAndTime}</Alert>}
      <div className="flex flex-wrap items-center justify-between gap-3">
        {date && time ? (
          <p className="flex items-center gap-2 text-sm text-slate-700">
            <CalendarClock aria-hidden="true" className="h-4 w-4 text-indigo-600" />
            {formatDate(date)} at {slotLabel(time)}
          </p>
        ) : (
          <span />
        )}
        <Button variant="gradient" size="lg" onClick={submit} disabled={busy}>
          <CalendarCheck aria-hidden="true" className="h-4 w-4" />
          {reserve.isPending ? 'Booking...' : free ? 'Book Free Session' : 'Continue to Payment'}
        </Button>
      </div>
    </div>
  );
}

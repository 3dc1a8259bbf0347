import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-fetch';
import type { Mentor } from '@/lib/catalogue';
import { useUpdateMentorProfile } from './api';

/** Each buffer is 0 to 120 minutes; the daily cap 1 to 50, 0 (empty) for none (docs/calendars.md). */
export const MAX_BUFFER_MINUTES = 120;
export const MAX_BOOKINGS_PER_DAY = 50;
export const BUFFERS_SAVE_FAILED = 'Failed to save buffers and daily limit';

/** 'Buffers and Daily Limit': time kept free around each session, and the most sessions a day. */
export function BuffersAndLimit({ mentor }: { mentor: Mentor }) {
  const [before, setBefore] = useState(String(mentor.bufferBeforeMinutes ?? 0));
  const [after, setAfter] = useState(String(mentor.bufferAfterMinutes ?? 0));
  const [cap, setCap] = useState(mentor.maxBookingsPerDay ? String(mentor.maxBookingsPerDay) : '');
  const update = useUpdateMentorProfile();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      {
        bufferBeforeMinutes: Number(before || 0),
        bufferAfterMinutes: Number(after || 0),
        maxBookingsPerDay: Number(cap || 0),
      },
      { onSuccess: () => toast.success('Buffers and daily limit saved') },
    );
  };

  return (
    <Card className="mt-8 p-5">
      <section aria-labelledby="buffers-heading">
        <h3 id="buffers-heading" className="font-display text-xl font-semibold text-slate-900">
          Buffers and Daily Limit
        </h3>
        <p className="text-sm text-slate-600">
          Time kept free around each session booked here, and the most sessions on one day of yours (a group session
          counts once).
        </p>
        <form noValidate onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-3">
          {update.isError && (
            <Alert variant="error" className="sm:col-span-3">
              {errorMessage(update.error, BUFFERS_SAVE_FAILED)}
            </Alert>
          )}
          <NumberField
            label="Buffer Before (minutes)"
            hint={`0 to ${MAX_BUFFER_MINUTES}`}
            max={MAX_BUFFER_MINUTES}
            value={before}
            onChange={setBefore}
            disabled={update.isPending}
          />
          <NumberField
            label="Buffer After (minutes)"
            hint={`0 to ${MAX_BUFFER_MINUTES}`}
            max={MAX_BUFFER_MINUTES}
            value={after}
            onChange={setAfter}
            disabled={update.isPending}
          />
          <NumberField
            label="Maximum Bookings per Day"
            hint={`1 to ${MAX_BOOKINGS_PER_DAY}; empty for no limit`}
            max={MAX_BOOKINGS_PER_DAY}
            value={cap}
            onChange={setCap}
            disabled={update.isPending}
          />
          <div className="sm:col-span-3 flex justify-end">
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? 'Saving...' : 'Save Buffers and Limit'}
            </Button>
          </div>
        </form>
      </section>
    </Card>
  );
}

type NumberFieldProps = {
  label: string;
  hint: string;
  max: number;
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
};

/** A labelled whole-number input from 0 to `max`. */
function NumberField({ label, hint, max, value, onChange, disabled }: NumberFieldProps) {
  return (
    <Field label={label} hint={hint}>
      {(control) => (
        <Input
          {...control}
          type="number"
          min={0}
          max={max}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          disabled={disabled}
        />
      )}
    </Field>
  );
}

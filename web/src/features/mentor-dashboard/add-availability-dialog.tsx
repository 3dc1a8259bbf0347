import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { MENTOR_DASHBOARD_TEXT as TEXT } from './texts';
import { errorMessage } from '@/lib/api-fetch';
import { timeZoneLabel } from '@/lib/time-zones';
import { useAddAvailability } from './api';
import {
  DAY_NAMES,
  END_TIME_OPTIONS,
  isEndAfterStart,
  START_TIME_OPTIONS,
  windowLabel,
} from '@/lib/weekly-availability';

type Form = { dayOfWeek: string; startTime: string; endTime: string };
type Errors = Partial<Record<keyof Form, string>>;

const EMPTY: Form = { dayOfWeek: '', startTime: '', endTime: '' };
const REQUIRED: Record<keyof Form, string> = {
  dayOfWeek: 'Please select a day',
  startTime: 'Please select a start time',
  endTime: 'Please select an end time',
};

function validate(form: Form): Errors {
  const errors: Errors = {};
  for (const key of Object.keys(REQUIRED) as (keyof Form)[]) if (!form[key]) errors[key] = REQUIRED[key];
  return errors;
}

type Props = { open: boolean; onOpenChange: (open: boolean) => void; mentorId: string; timeZone: string };

/** The 'Add Availability' dialog (mounted afresh each time it opens). */
export function AddAvailabilityDialog({ open, onOpenChange, mentorId, timeZone }: Props) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add Availability"
      description={`A weekly window when seekers can book you, in your time zone (${timeZoneLabel(timeZone)}).`}
    >
      {open && <AddAvailabilityForm mentorId={mentorId} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function AddAvailabilityForm({ mentorId, onDone }: { mentorId: string; onDone: () => void }) {
  const [form, setForm] = useState<Form>(EMPTY);
  const [errors, setErrors] = useState<Errors>({});
  const [checked, setChecked] = useState(false);
  const [order, setOrder] = useState(false);
  const add = useAddAvailability(mentorId);

  const change = (patch: Partial<Form>) => {
    const next = { ...form, ...patch };
    setForm(next);
    if (checked) setErrors(validate(next));
    setOrder(false);
    add.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    const found = validate(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (!isEndAfterStart(form.startTime, form.endTime)) {
      setOrder(true);
      return;
    }
    const body = { dayOfWeek: Number(form.dayOfWeek), startTime: form.startTime, endTime: form.endTime };
    add.mutate(body, {
      onSuccess: (slot) => {
        toast.success('Availability added', { description: `${DAY_NAMES[slot.dayOfWeek]}, ${windowLabel(slot)}` });
        onDone();
      },
    });
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      {order && <Alert variant="error">{TEXT.endAfterStart}</Alert>}
      {add.isError && <Alert variant="error">{errorMessage(add.error, TEXT.availabilitySaveFailed)}</Alert>}
      <Field label="Day of Week" error={errors.dayOfWeek}>
        {(control) => (
          <Select
            {...control}
            required
            value={form.dayOfWeek}
            disabled={add.isPending}
            onChange={(e) => change({ dayOfWeek: e.target.value })}
          >
            <option value="" disabled>
              Select a day
            </option>
            {DAY_NAMES.map((day, i) => (
              <option key={day} value={String(i)}>
                {day}
              </option>
            ))}
          </Select>
        )}
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Start Time" error={errors.startTime}>
          {(control) => (
            <Select
              {...control}
              required
              value={form.startTime}
              disabled={add.isPending}
              onChange={(e) => change({ startTime: e.target.value })}
            >
              <option value="" disabled>
                Select start time
              </option>
              {START_TIME_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="End Time" error={errors.endTime}>
          {(control) => (
            <Select
              {...control}
              required
              value={form.endTime}
              disabled={add.isPending}
              onChange={(e) => change({ endTime: e.target.value })}
            >
              <option value="" disabled>
                Select end time
              </option>
              {END_TIME_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </div>
      <div className="flex justify-end gap-3 border-t border-slate-100 pt-4">
        <Button variant="outline" onClick={onDone} disabled={add.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? 'Saving...' : 'Save Availability'}
        </Button>
      </div>
    </form>
  );
}

import { CalendarOff, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { TimeSelect } from '@/components/availability/time-select';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api-fetch';
import { timeZoneLabel } from '@/lib/time-zones';
import { useNow } from '@/lib/use-now';
import {
  addDays,
  calendarDateLabel,
  isEndAfterStart,
  OVERRIDE_WINDOW_DAYS,
  overrideLabel,
  todayIn,
} from '@/lib/weekly-availability';
import { useAddDateOverride, useDateOverrides, useDeleteDateOverride } from './api';

export const OVERRIDES_KEEP_BOOKINGS =
  'An override never cancels bookings you already have on that date: cancel those from the Bookings tab if you need to.';

/** Days off and extra hours on given dates, with the form that adds them. */
export function DateOverrides({ mentorId, timeZone }: { mentorId: string; timeZone: string }) {
  const overrides = useDateOverrides();
  const remove = useDeleteDateOverride(mentorId);
  const list = overrides.data ?? [];

  return (
    <section aria-labelledby="overrides-heading" className="mt-10">
      <h2 id="overrides-heading" className="font-display text-2xl font-semibold text-slate-900">
        Date Overrides
      </h2>
      <p className="text-sm text-slate-600">
        A day off or extra hours on one date, in your time zone ({timeZoneLabel(timeZone)}). {OVERRIDES_KEEP_BOOKINGS}
      </p>
      <div className="mt-4 grid gap-6 lg:grid-cols-[1fr_22rem]">
        <div>
          {overrides.isError ? (
            <Alert variant="error">{errorMessage(overrides.error, 'Your date overrides could not be loaded.')}</Alert>
          ) : !overrides.isLoading && list.length === 0 ? (
            <p className="text-sm text-slate-500">No date overrides: your weekly availability applies every week.</p>
          ) : (
            <ul aria-label="Date overrides" className="space-y-2">
              {list.map((o) => {
                const name = `${calendarDateLabel(o.date)}: ${overrideLabel(o)}`;
                return (
                  <li
                    key={o.id}
                    className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 px-3 py-2"
                  >
                    <span className="flex items-center gap-2 text-sm">
                      <CalendarOff aria-hidden="true" className="h-4 w-4 text-slate-500" />
                      <span className="font-medium text-slate-900">{calendarDateLabel(o.date)}</span>
                      <span className="text-slate-600">{overrideLabel(o)}</span>
                    </span>
                    <Button
                      variant="ghost"
                      size="icon"
                      className="h-9 w-9 text-rose-600 hover:bg-rose-50 hover:text-rose-700"
                      aria-label={`Delete ${name}`}
                      disabled={remove.isPending && remove.variables === o.id}
                      onClick={() =>
                        remove.mutate(o.id, {
                          onSuccess: () => toast.success('Date override deleted'),
                          onError: (error) =>
                            toast.error('Failed to delete date override', {
                              description: errorMessage(error, 'Please try again.'),
                            }),
                        })
                      }
                    >
                      <Trash2 aria-hidden="true" className="h-4 w-4" />
                    </Button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        <AddOverrideForm mentorId={mentorId} timeZone={timeZone} />
      </div>
    </section>
  );
}

function AddOverrideForm({ mentorId, timeZone }: { mentorId: string; timeZone: string }) {
  const now = useNow();
  const today = todayIn(timeZone, now);
  const last = addDays(today, OVERRIDE_WINDOW_DAYS);
  const [date, setDate] = useState('');
  const [isDayOff, setIsDayOff] = useState(true);
  const [extra, setExtra] = useState(false);
  const [startTime, setStartTime] = useState('');
  const [endTime, setEndTime] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = useAddDateOverride(mentorId);
  const edited = () => {
    setProblem(null);
    add.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!date) return setProblem('Please choose a date');
    if (date < today || date > last) return setProblem(`Date must be from today to ${OVERRIDE_WINDOW_DAYS} days ahead`);
    if (!isDayOff && !extra) return setProblem('Choose a day off, extra hours, or both');
    if (extra && !isEndAfterStart(startTime, endTime)) return setProblem('End time must be after start time');
    add.mutate(
      { date, isDayOff, ...(extra ? { startTime, endTime } : {}) },
      {
        onSuccess: (o) => {
          toast.success('Date override added', { description: `${calendarDateLabel(o.date)}: ${overrideLabel(o)}` });
          setDate('');
        },
      },
    );
  };

  return (
    <Card className="h-fit p-5">
      <form noValidate onSubmit={submit} aria-label="Add a date override" className="space-y-4">
        <h3 className="font-semibold text-slate-900">Add a Date Override</h3>
        {problem && <Alert variant="error">{problem}</Alert>}
        {add.isError && <Alert variant="error">{errorMessage(add.error, 'Failed to save date override')}</Alert>}
        <FormField
          label="Date"
          type="date"
          min={today}
          max={last}
          value={date}
          disabled={add.isPending}
          onChange={(e) => (setDate(e.target.value), edited())}
        />
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="h-4 w-4 accent-indigo-600"
            checked={isDayOff}
            disabled={add.isPending}
            onChange={(e) => (setIsDayOff(e.target.checked), edited())}
          />
          Day off (no weekly hours that date)
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="h-4 w-4 accent-indigo-600"
            checked={extra}
            disabled={add.isPending}
            onChange={(e) => (setExtra(e.target.checked), edited())}
          />
          Extra hours
        </label>
        {extra && (
          <div className="grid gap-4 sm:grid-cols-2">
            <TimeSelect
              label="Extra from"
              kind="start"
              value={startTime}
              disabled={add.isPending}
              onChange={(v) => (setStartTime(v), edited())}
            />
            <TimeSelect
              label="Extra until"
              kind="end"
              value={endTime}
              disabled={add.isPending}
              onChange={(v) => (setEndTime(v), edited())}
            />
          </div>
        )}
        <Button type="submit" className="w-full" disabled={add.isPending}>
          {add.isPending ? 'Saving...' : 'Add Override'}
        </Button>
      </form>
    </Card>
  );
}

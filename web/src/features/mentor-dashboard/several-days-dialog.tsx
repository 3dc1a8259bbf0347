import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { DayCheckboxes } from '@/components/availability/day-checkboxes';
import { TimeSelect } from '@/components/availability/time-select';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { MENTOR_DASHBOARD_TEXT as TEXT } from './texts';
import { errorMessage } from '@/lib/api-fetch';
import { timeZoneLabel } from '@/lib/time-zones';
import { daysLabel, isEndAfterStart, NO_DAY_CHOSEN, windowLabel } from '@/lib/weekly-availability';
import { useAddAvailabilityBulk } from './api';

type Props = { open: boolean; onOpenChange: (open: boolean) => void; mentorId: string; timeZone: string };

/** 'Add Availability for Several Days': pick days, one time range, one window per day (all or none). */
export function SeveralDaysDialog({ open, onOpenChange, mentorId, timeZone }: Props) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add Availability for Several Days"
      description={`The same weekly window on each day you pick, in your time zone (${timeZoneLabel(timeZone)}).`}
    >
      {open && <SeveralDaysForm mentorId={mentorId} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function SeveralDaysForm({ mentorId, onDone }: { mentorId: string; onDone: () => void }) {
  const [days, setDays] = useState<number[]>([]);
  const [startTime, setStartTime] = useState('09:00');
  const [endTime, setEndTime] = useState('17:00');
  const [problem, setProblem] = useState<string | null>(null);
  const add = useAddAvailabilityBulk(mentorId);
  const edit = () => {
    setProblem(null);
    add.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (days.length === 0) return setProblem(NO_DAY_CHOSEN);
    if (!isEndAfterStart(startTime, endTime)) return setProblem(TEXT.endAfterStart);
    add.mutate(
      { daysOfWeek: days, startTime, endTime },
      {
        onSuccess: (slots) => {
          toast.success('Availability added', {
            description: `${daysLabel(slots.map((s) => s.dayOfWeek))}, ${windowLabel({ startTime, endTime })}`,
          });
          onDone();
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      {problem && <Alert variant="error">{problem}</Alert>}
      {add.isError && <Alert variant="error">{errorMessage(add.error, TEXT.availabilitySaveFailed)}</Alert>}
      <DayCheckboxes
        legend="Days"
        value={days}
        disabled={add.isPending}
        onChange={(next) => {
          setDays(next);
          edit();
        }}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TimeSelect
          label="From"
          kind="start"
          value={startTime}
          disabled={add.isPending}
          onChange={(v) => (setStartTime(v), edit())}
        />
        <TimeSelect
          label="Until"
          kind="end"
          value={endTime}
          disabled={add.isPending}
          onChange={(v) => (setEndTime(v), edit())}
        />
      </div>
      <div className="flex justify-end gap-3 border-t border-slate-100 pt-4">
        <Button variant="outline" onClick={onDone} disabled={add.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? 'Saving...' : 'Add to Selected Days'}
        </Button>
      </div>
    </form>
  );
}

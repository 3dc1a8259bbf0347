import { CalendarClock, Plus } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { DayCheckboxes } from '@/components/availability/day-checkboxes';
import { TimeSelect } from '@/components/availability/time-select';
import { Button } from '@/components/ui/button';
import { errorMessage, errorStatus } from '@/lib/api-fetch';
import { hardNavigate, LOGIN_URL } from '@/lib/navigation';
import { timeZoneLabel } from '@/lib/time-zones';
import {
  DAY_NAMES,
  SCHEDULE_PRESETS,
  scheduleProblems,
  windowLabel,
  type ScheduleRow,
} from '@/lib/weekly-availability';
import { useSaveSchedule } from './api';
import { AVAILABILITY_FAILED, NO_SCHEDULE } from './steps';
import { BackButton, DraftState, ErrorCard, StepCard } from './step-parts';

type Range = ScheduleRow & { key: number; saved?: boolean };

type AvailabilityProps = {
  mentorId: string;
  timeZone: string;
  saved: readonly { dayOfWeek: number; startTime: string; endTime: string }[];
  onBack: () => void;
  onDone: () => void;
};

/** A weekly schedule from presets, editable before it is saved (one bulk call per range). */
export function AvailabilityStep({ mentorId, timeZone, saved, onBack, onDone }: AvailabilityProps) {
  const nextKey = useRef(0);
  const [ranges, setRanges] = useState<Range[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const save = useSaveSchedule(mentorId);
  const open = ranges.filter((r) => !r.saved);

  const edit = (key: number, patch: Partial<ScheduleRow>) => {
    setRanges((list) => list.map((r) => (r.key === key ? { ...r, ...patch } : r)));
    setProblems([]);
    setFailure(null);
  };
  const addRange = (row: ScheduleRow) => {
    setRanges((list) => [...list, { ...row, days: [...row.days], key: nextKey.current++ }]);
    setProblems([]);
  };
  const removeRange = (key: number) => setRanges((list) => list.filter((r) => r.key !== key));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (open.length === 0) {
      if (saved.length > 0) return onDone();
      return setProblems([NO_SCHEDULE]);
    }
    const found = scheduleProblems(open);
    setProblems(found);
    if (found.length > 0) return;
    save.mutate(open, {
      onSuccess: (outcomes) => {
        const ok = new Set(open.filter((_, i) => outcomes[i].ok).map((r) => r.key));
        setRanges((list) => list.map((r) => (ok.has(r.key) ? { ...r, saved: true } : r)));
        const failed = outcomes.find((o) => !o.ok);
        if (!failed) return onDone();
        if (errorStatus(failed.error) === 401) return hardNavigate(LOGIN_URL);
        setFailure(errorMessage(failed.error, AVAILABILITY_FAILED));
      },
    });
  };

  return (
    <StepCard
      title="Your weekly hours"
      description={`When seekers can book you each week, in your time zone (${timeZoneLabel(timeZone)}). Start from a preset and adjust it; you can change it any time in your dashboard.`}
    >
      <form noValidate onSubmit={submit} className="space-y-6">
        {failure && <ErrorCard message={AVAILABILITY_FAILED} detail={failure} />}
        {problems.length > 0 && (
          <div role="alert" className="rounded-2xl border border-rose-200 bg-rose-50 p-4 text-sm text-rose-800">
            <ul className="list-disc space-y-1 pl-5">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </div>
        )}
        {saved.length > 0 && (
          <div className="rounded-2xl border border-emerald-200 bg-emerald-50/60 p-4 text-sm text-emerald-900">
            <p className="font-medium">Already saved</p>
            <ul aria-label="Saved weekly hours" className="mt-1 space-y-0.5">
              {saved.map((s, i) => (
                <li key={i}>
                  {DAY_NAMES[s.dayOfWeek]} {windowLabel(s)}
                </li>
              ))}
            </ul>
          </div>
        )}
        <div role="group" aria-label="Presets" className="flex flex-wrap gap-2">
          {SCHEDULE_PRESETS.map((preset) => (
            <Button
              key={preset.name}
              type="button"
              variant="outline"
              size="sm"
              disabled={save.isPending}
              onClick={() => addRange(preset.row)}
            >
              <Plus aria-hidden="true" className="h-4 w-4" />
              {preset.name}
            </Button>
          ))}
        </div>
        {ranges.length === 0 && saved.length === 0 && (
          <p className="flex items-center gap-2 text-sm text-slate-500">
            <CalendarClock aria-hidden="true" className="h-4 w-4" />
            No hours yet: pick a preset above or add your own range.
          </p>
        )}
        <ol className="space-y-4">
          {ranges.map((range, index) => (
            <li
              key={range.key}
              aria-label={`Range ${index + 1}`}
              className="rounded-2xl border border-slate-200 p-4 sm:p-5"
            >
              <div className="mb-3 flex items-center justify-between gap-3">
                <h3 className="font-semibold text-slate-900">Range {index + 1}</h3>
                <DraftState
                  done={range.saved ? 'Saved' : null}
                  onRemove={() => removeRange(range.key)}
                  removeLabel={`Remove range ${index + 1}`}
                  disabled={save.isPending}
                />
              </div>
              <div className="space-y-4">
                <DayCheckboxes
                  legend={`Days for range ${index + 1}`}
                  value={range.days}
                  disabled={save.isPending || range.saved}
                  onChange={(days) => edit(range.key, { days })}
                />
                <div className="grid gap-4 sm:grid-cols-2">
                  <TimeSelect
                    label={`From (range ${index + 1})`}
                    kind="start"
                    value={range.startTime}
                    disabled={save.isPending || range.saved}
                    onChange={(startTime) => edit(range.key, { startTime })}
                  />
                  <TimeSelect
                    label={`Until (range ${index + 1})`}
                    kind="end"
                    value={range.endTime}
                    disabled={save.isPending || range.saved}
                    onChange={(endTime) => edit(range.key, { endTime })}
                  />
                </div>
              </div>
            </li>
          ))}
        </ol>
        <Button
          variant="outline"
          onClick={() => addRange({ days: [], startTime: '09:00', endTime: '17:00' })}
          disabled={save.isPending}
        >
          <Plus aria-hidden="true" className="h-4 w-4" />
          Add a Time Range
        </Button>
        <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:justify-between">
          <BackButton onClick={onBack} disabled={save.isPending} />
          <Button type="submit" variant="gradient" size="lg" disabled={save.isPending}>
            {save.isPending ? 'Saving Hours...' : 'Complete Setup'}
          </Button>
        </div>
      </form>
    </StepCard>
  );
}

// --- Step 4: complete ----------------------------------------------------------------------

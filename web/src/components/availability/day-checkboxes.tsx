import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { DAY_NAMES, EVERY_DAY, WEEKDAYS, WEEKEND } from '@/lib/weekly-availability';

type Props = {
  legend: string;
  value: readonly number[];
  onChange: (days: number[]) => void;
  disabled?: boolean;
  error?: string;
};

/** A checkbox per day, Monday first, with Weekdays / Weekend / Every day shortcuts. */
export function DayCheckboxes({ legend, value, onChange, disabled, error }: Props) {
  const toggle = (day: number, on: boolean) =>
    onChange(on ? [...value, day].sort((a, b) => a - b) : value.filter((d) => d !== day));
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <fieldset aria-describedby={errorId} className="space-y-2">
      <legend className="text-sm font-medium text-slate-900">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {[1, 2, 3, 4, 5, 6, 0].map((day) => (
          <label
            key={day}
            className="flex cursor-pointer items-center gap-1.5 rounded-lg border border-slate-200 px-2.5 py-1.5 text-sm has-[:checked]:border-indigo-300 has-[:checked]:bg-indigo-50"
          >
            <input
              type="checkbox"
              className="h-4 w-4 accent-indigo-600"
              checked={value.includes(day)}
              disabled={disabled}
              onChange={(e) => toggle(day, e.target.checked)}
            />
            {DAY_NAMES[day]}
          </label>
        ))}
      </div>
      <div className="flex flex-wrap gap-2">
        {(
          [
            ['Weekdays', WEEKDAYS],
            ['Weekend', WEEKEND],
            ['Every day', EVERY_DAY],
          ] as const
        ).map(([label, days]) => (
          <Button
            key={label}
            type="button"
            size="sm"
            variant="ghost"
            disabled={disabled}
            onClick={() => onChange([...days])}
          >
            {label}
          </Button>
        ))}
      </div>
      {error && (
        <p id={errorId} className="text-sm text-rose-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}

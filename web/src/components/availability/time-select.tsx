import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { END_TIME_OPTIONS, START_TIME_OPTIONS } from '@/lib/weekly-availability';

type Props = {
  label: string;
  /** An end may also be midnight at the end of the day. */
  kind: 'start' | 'end';
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  error?: string;
};

/** A half-hour time select with 12-hour labels and a disabled placeholder. */
export function TimeSelect({ label, kind, value, onChange, disabled, error }: Props) {
  const options = kind === 'start' ? START_TIME_OPTIONS : END_TIME_OPTIONS;
  return (
    <Field label={label} error={error}>
      {(control) => (
        <Select {...control} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
          <option value="" disabled>
            {kind === 'start' ? 'Select start time' : 'Select end time'}
          </option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

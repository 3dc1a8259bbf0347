import { useState } from 'react';
import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { timeZoneLabel, timeZoneOptions } from '@/lib/time-zones';

type Props = {
  value: string;
  onChange: (zone: string) => void;
  hint?: string;
  disabled?: boolean;
};

/** 'Time Zone': every IANA zone the browser knows (always with UTC and the current value). */
export function TimeZoneField({ value, onChange, hint, disabled }: Props) {
  const [zones] = useState(() => timeZoneOptions(value));
  return (
    <Field label="Time Zone" hint={hint}>
      {(control) => (
        <Select {...control} value={value} onChange={(e) => onChange(e.target.value)} disabled={disabled}>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {timeZoneLabel(zone)}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

import { Field } from '@/components/ui/field';
import { Select } from '@/components/ui/select';

/** The notices a mentor picks from, in minutes (the api accepts 0 to 10,080). */
export const MINIMUM_NOTICE_CHOICES: { minutes: number; label: string }[] = [
  { minutes: 0, label: 'No minimum' },
  { minutes: 60, label: '1 hour' },
  { minutes: 120, label: '2 hours' },
  { minutes: 240, label: '4 hours' },
  { minutes: 720, label: '12 hours' },
  { minutes: 1440, label: '1 day' },
  { minutes: 2880, label: '2 days' },
  { minutes: 10080, label: '1 week' },
];

export const DEFAULT_MINIMUM_NOTICE_MINUTES = 120;

/** How a notice reads: '2 hours', '1 day', '90 minutes'. */
export function noticeText(minutes: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (minutes > 0 && minutes % 1440 === 0) return plural(minutes / 1440, 'day');
  if (minutes > 0 && minutes % 60 === 0) return plural(minutes / 60, 'hour');
  return plural(minutes, 'minute');
}

type Props = { value: number; onChange: (minutes: number) => void; disabled?: boolean };

/** 'Minimum Notice': how soon before a session it can still be booked. */
export function MinimumNoticeField({ value, onChange, disabled }: Props) {
  const choices = MINIMUM_NOTICE_CHOICES.some((c) => c.minutes === value)
    ? MINIMUM_NOTICE_CHOICES
    : [...MINIMUM_NOTICE_CHOICES, { minutes: value, label: noticeText(value) }].sort((a, b) => a.minutes - b.minutes);
  return (
    <Field label="Minimum Notice" hint="Seekers cannot book a session that starts sooner than this.">
      {(control) => (
        <Select
          {...control}
          value={String(value)}
          onChange={(e) => onChange(Number(e.target.value))}
          disabled={disabled}
        >
          {choices.map((c) => (
            <option key={c.minutes} value={c.minutes}>
              {c.label}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );
}

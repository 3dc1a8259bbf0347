import { Check } from 'lucide-react';
import { useId } from 'react';
import { SPECIALTIES } from '@/lib/services';
import { cn } from '@/lib/utils';

type SpecialtyPickerProps = {
  value: string[];
  onChange: (value: string[]) => void;
  error?: string;
  legend?: string;
  hint?: string;
};

/**
 * The 14 specialties as checkbox chips in a fieldset: each is a real checkbox, so Tab
 * and Space work and screen readers say checked / not checked. A chosen value outside the 14
 * (from an older profile) is offered too, so editing never silently drops it.
 */
export function SpecialtyPicker({ value, onChange, error, legend = 'Specialties', hint }: SpecialtyPickerProps) {
  const options = [...SPECIALTIES, ...value.filter((v) => !(SPECIALTIES as readonly string[]).includes(v))];
  const errorId = `${useId()}-error`;
  const toggle = (specialty: string, checked: boolean) =>
    onChange(checked ? [...value, specialty] : value.filter((v) => v !== specialty));
  return (
    <fieldset aria-describedby={error ? errorId : undefined} aria-invalid={error ? true : undefined}>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      {hint && <p className="mt-1 text-xs text-slate-500">{hint}</p>}
      <div className="mt-2 flex flex-wrap gap-2">
        {options.map((specialty) => {
          const checked = value.includes(specialty);
          return (
            <label
              key={specialty}
              className={cn(
                'relative inline-flex cursor-pointer select-none items-center gap-1.5 rounded-full px-3.5 py-1.5 text-sm font-medium ring-1 transition-colors',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-500',
                checked
                  ? 'bg-indigo-600 text-white ring-indigo-600'
                  : 'bg-white text-slate-700 ring-slate-300 hover:bg-indigo-50 hover:ring-indigo-300',
              )}
            >
              <input
                type="checkbox"
                // Invisible but covering the chip, so a click or tap lands on the checkbox itself.
                className="absolute inset-0 m-0 h-full w-full cursor-pointer appearance-none rounded-full opacity-0"
                checked={checked}
                onChange={(e) => toggle(specialty, e.target.checked)}
              />
              {checked && <Check aria-hidden="true" className="h-3.5 w-3.5" />}
              {specialty}
            </label>
          );
        })}
      </div>
      {error && (
        <p id={errorId} className="mt-2 text-sm text-rose-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}

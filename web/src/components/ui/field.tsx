import { useId, type ReactNode } from 'react';
import { Label } from './label';

export type FieldControlProps = {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

type FieldProps = {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  /** Something beside the label, such as a character counter. */
  labelAside?: ReactNode;
  /** Renders the control with the id and ARIA attributes that tie it to the label, hint and error. */
  children: (control: FieldControlProps) => ReactNode;
};

/** {@link FormField} for any control (textarea, select, ...): the label names the control. */
export function Field({ label, error, hint, labelAside, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="space-y-1.5">
      <div className="flex items-baseline justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {labelAside}
      </div>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {hint && (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-rose-600">
          {error}
        </p>
      )}
    </div>
  );
}

import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { Input } from './input';
import { Label } from './label';

type FormFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  /** A short error under the field; it also marks the input invalid. */
  error?: string;
  hint?: ReactNode;
  /** Something beside the label, such as a 'Forgot password?' link. */
  labelAside?: ReactNode;
};

/** A labelled input: the label names the input, so `getByLabel(label)` finds it. */
export function FormField({ label, error, hint, labelAside, id, ...inputProps }: FormFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="space-y-1.5">
      <div className="flex items-baseline justify-between gap-2">
        <Label htmlFor={inputId}>{label}</Label>
        {labelAside}
      </div>
      <Input id={inputId} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...inputProps} />
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

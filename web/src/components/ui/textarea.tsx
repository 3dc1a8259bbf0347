import { forwardRef, type TextareaHTMLAttributes } from 'react';
import { cn } from '@/lib/utils';

/** A multi-line text input styled like {@link Input}. */
export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea(
  { className, ...props },
  ref,
) {
  return (
    <textarea
      ref={ref}
      className={cn(
        'block min-h-24 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 shadow-sm sm:text-sm',
        'placeholder:text-slate-400',
        'focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30',
        'aria-[invalid=true]:border-rose-500 aria-[invalid=true]:focus:ring-rose-500/30',
        'disabled:cursor-not-allowed disabled:bg-slate-100 disabled:opacity-70',
        className,
      )}
      {...props}
    />
  );
});

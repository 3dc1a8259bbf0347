import { forwardRef, type InputHTMLAttributes } from 'react';
import { cn } from '@/lib/utils';

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, ...props },
  ref,
) {
  return (
    <input
      ref={ref}
      className={cn(
        'block h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base text-slate-900 shadow-sm sm:text-sm',
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

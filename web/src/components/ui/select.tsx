import { ChevronDown } from 'lucide-react';
import { forwardRef, type SelectHTMLAttributes } from 'react';
import { cn } from '@/lib/utils';

/** A native select (keyboard and screen-reader friendly everywhere) styled like {@link Input}. */
export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function Select(
  { className, children, ...props },
  ref,
) {
  return (
    <div className="relative">
      <select
        ref={ref}
        className={cn(
          'block h-11 w-full appearance-none rounded-lg border border-slate-300 bg-white pl-3 pr-9 text-base text-slate-900 shadow-sm sm:text-sm',
          'focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30',
          'aria-[invalid=true]:border-rose-500',
          'disabled:cursor-not-allowed disabled:bg-slate-100 disabled:opacity-70',
          className,
        )}
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        aria-hidden="true"
        className="pointer-events-none absolute right-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-500"
      />
    </div>
  );
});

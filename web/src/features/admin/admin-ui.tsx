import { useEffect } from 'react';
import { toast } from 'sonner';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-fetch';
import { cn } from '@/lib/utils';

// Small pieces the admin tabs share.

/** Toasts `title` once each time a query fails. */
export function useFailureToast(isError: boolean, error: unknown, title: string) {
  useEffect(() => {
    if (isError) toast.error(title, { description: errorMessage(error, 'Please try again.') });
    // Only a new failure toasts again.
  }, [isError, error, title]);
}

export function ActiveBadge({ active }: { active: boolean }) {
  return (
    <span
      className={cn(
        'inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium',
        active ? 'bg-emerald-50 text-emerald-700' : 'bg-slate-100 text-slate-600',
      )}
    >
      {active ? 'Active' : 'Inactive'}
    </span>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <div className="flex justify-center py-10">
      <Spinner label={label} className="h-8 w-8 text-indigo-600" />
    </div>
  );
}

import { cn } from '@/lib/utils';

export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" aria-label={label} className={cn('inline-flex', className)}>
      <span
        aria-hidden="true"
        className="h-full w-full animate-spin rounded-full border-2 border-current border-t-transparent"
      />
    </span>
  );
}

/** The whole-screen spinner shown while the signed-in state loads. */
export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex min-h-[60vh] items-center justify-center">
      <Spinner label={label} className="h-10 w-10 text-indigo-600" />
    </div>
  );
}

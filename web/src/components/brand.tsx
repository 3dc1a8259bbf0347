import { Link } from 'react-router';
import { APP_NAME } from '@/config/constants';
import { cn } from '@/lib/utils';

export function BrandMark({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex h-9 w-9 items-center justify-center rounded-xl bg-gradient-to-br from-indigo-500 to-violet-600 text-white shadow-sm shadow-indigo-500/30',
        className,
      )}
    >
      <svg viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor">
        <path d="M12 2c.9 4.4 3.1 6.6 7.5 7.5-4.4.9-6.6 3.1-7.5 7.5-.9-4.4-3.1-6.6-7.5-7.5C8.9 8.6 11.1 6.4 12 2z" />
        <circle cx="19" cy="19" r="1.6" />
        <circle cx="5" cy="18" r="1" />
      </svg>
    </span>
  );
}

export function BrandLink({ className, onClick }: { className?: string; onClick?: () => void }) {
  return (
    <Link
      to="/"
      onClick={onClick}
      className={cn(
        'flex items-center gap-2.5 rounded-lg font-display text-xl font-semibold text-slate-900',
        className,
      )}
    >
      <BrandMark />
      <span>{APP_NAME}</span>
    </Link>
  );
}

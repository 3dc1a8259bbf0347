import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import type { HTMLAttributes } from 'react';
import { cn } from '@/lib/utils';

const styles = {
  error: 'border-rose-200 bg-rose-50 text-rose-800',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-800',
  info: 'border-indigo-200 bg-indigo-50 text-indigo-800',
} as const;

const icons = { error: CircleAlert, success: CircleCheck, info: Info } as const;

type AlertProps = HTMLAttributes<HTMLDivElement> & { variant?: keyof typeof styles };

/** A message box; errors are announced at once (role=alert), others politely (role=status). */
export function Alert({ variant = 'info', className, children, ...props }: AlertProps) {
  const Icon = icons[variant];
  return (
    <div
      role={variant === 'error' ? 'alert' : 'status'}
      className={cn('flex gap-3 rounded-lg border p-3 text-sm animate-fade-in', styles[variant], className)}
      {...props}
    >
      <Icon aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
      <div className="min-w-0 flex-1 space-y-1">{children}</div>
    </div>
  );
}

import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

type StateCardProps = {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
  /** Buttons or links under the text. */
  actions?: ReactNode;
  tone?: 'neutral' | 'error';
  /** The heading level; h2 inside a page that has its own h1. */
  as?: 'h1' | 'h2' | 'h3';
  className?: string;
};

/** An empty, failed or missing state: icon, heading, text, actions. Errors are announced (role=alert). */
export function StateCard({
  icon: Icon,
  title,
  children,
  actions,
  tone = 'neutral',
  as: Heading = 'h2',
  className,
}: StateCardProps) {
  return (
    <div
      role={tone === 'error' ? 'alert' : undefined}
      className={cn(
        'mx-auto flex max-w-lg flex-col items-center rounded-2xl border border-dashed px-6 py-12 text-center animate-fade-in',
        tone === 'error' ? 'border-rose-200 bg-rose-50/40' : 'border-slate-300 bg-white',
        className,
      )}
    >
      <span
        className={cn(
          'inline-flex h-14 w-14 items-center justify-center rounded-2xl',
          tone === 'error' ? 'bg-rose-100 text-rose-600' : 'bg-indigo-50 text-indigo-600',
        )}
      >
        <Icon aria-hidden="true" className="h-7 w-7" />
      </span>
      <Heading className="mt-4 font-display text-xl font-semibold text-slate-900">{title}</Heading>
      {children && <div className="mt-2 text-sm leading-relaxed text-slate-600">{children}</div>}
      {actions && <div className="mt-6 flex flex-wrap justify-center gap-3">{actions}</div>}
    </div>
  );
}

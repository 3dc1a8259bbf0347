import { Hourglass, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/lib/use-document-title';

type ComingSoonProps = {
  title: string;
  description: string;
  icon?: LucideIcon;
  /** Where the secondary action leads; home by default. */
  back?: { to: string; label: string };
  children?: ReactNode;
};

/** An honest page for a part of the product that is not open yet. */
export function ComingSoon({ title, description, icon: Icon = Hourglass, back, children }: ComingSoonProps) {
  useDocumentTitle(title);
  const backLink = back ?? { to: '/', label: 'Back to Home' };
  return (
    <section className="relative flex flex-1 items-center justify-center overflow-hidden px-4 py-20 sm:py-28">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_at_top,var(--color-indigo-100),transparent_60%)]"
      />
      <div className="mx-auto max-w-xl text-center animate-fade-in">
        <span className="mx-auto inline-flex h-16 w-16 items-center justify-center rounded-2xl bg-gradient-to-br from-indigo-500 to-violet-600 text-white shadow-lg shadow-indigo-500/30">
          <Icon aria-hidden="true" className="h-8 w-8" />
        </span>
        <h1 className="mt-6 font-display text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
        <p className="mt-4 text-base leading-relaxed text-slate-600">{description}</p>
        <p className="mt-6 inline-flex items-center gap-2 rounded-full bg-indigo-50 px-4 py-1.5 text-sm font-medium text-indigo-700">
          <span aria-hidden="true" className="h-2 w-2 rounded-full bg-indigo-500" />
          Coming soon
        </p>
        {children}
        <div className="mt-8">
          <Button asChild variant="outline">
            <Link to={backLink.to}>{backLink.label}</Link>
          </Button>
        </div>
      </div>
    </section>
  );
}

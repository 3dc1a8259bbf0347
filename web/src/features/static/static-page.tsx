import { ArrowLeft, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';

type StaticPageProps = {
  title: string;
  intro: ReactNode;
  icon: LucideIcon;
  /** A line under the title, such as 'Last updated November 2026'. */
  meta?: ReactNode;
  /** Width of the content column: prose for legal text, wide for card layouts. */
  width?: 'prose' | 'wide';
  children: ReactNode;
};

/** The shared frame of the static pages: a soft hero with the title, then the content. */
export function StaticPage({ title, intro, icon: Icon, meta, width = 'prose', children }: StaticPageProps) {
  useDocumentTitle(title);
  return (
    <>
      <section className="relative overflow-hidden bg-gradient-to-br from-indigo-50 via-white to-violet-50">
        <div
          aria-hidden="true"
          className="absolute -top-24 -right-24 h-72 w-72 rounded-full bg-violet-200/40 blur-3xl"
        />
        <div className="relative mx-auto max-w-4xl px-4 py-12 text-center sm:px-6 sm:py-16 lg:px-8">
          <span className="mx-auto inline-flex h-14 w-14 items-center justify-center rounded-2xl bg-gradient-to-br from-indigo-500 to-violet-600 text-white shadow-lg shadow-indigo-500/30">
            <Icon aria-hidden="true" className="h-7 w-7" />
          </span>
          <h1 className="mt-5 font-display text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
            {title}
          </h1>
          <div className="mx-auto mt-4 max-w-2xl text-base leading-relaxed text-slate-600">{intro}</div>
          {meta && <p className="mt-4 text-sm font-medium text-slate-500">{meta}</p>}
        </div>
      </section>
      <div
        className={cn(
          'mx-auto w-full px-4 py-12 sm:px-6 sm:py-16 lg:px-8',
          width === 'prose' ? 'max-w-3xl' : 'max-w-6xl',
        )}
      >
        {children}
      </div>
    </>
  );
}

/** One numbered section of a legal page. */
export function LegalSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="scroll-mt-24 border-b border-slate-200 py-8 first:pt-0 last:border-b-0">
      <h2 id={id} className="font-display text-xl font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-3 space-y-3 text-[15px] leading-relaxed text-slate-700 [&_a]:font-medium [&_a]:text-indigo-600 [&_a:hover]:text-indigo-800 [&_li]:pl-1 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-5">
        {children}
      </div>
    </section>
  );
}

/** The 'Back to Home' link at the foot of the terms and the privacy policy. */
export function BackToHome() {
  return (
    <div className="mt-10 flex justify-center">
      <Button asChild variant="outline">
        <Link to="/">
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back to Home
        </Link>
      </Button>
    </div>
  );
}

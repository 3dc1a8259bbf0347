import { ArrowLeft } from 'lucide-react';
import { Card } from '@/components/ui/card';

/**
 * The top of a mentor's page as the api serves it before any script has run: the profile card
 * with the name, the initials and the bio (the page's largest text). The build renders it once
 * with these markers in place of the mentor's fields (src/prerender.tsx, `MENTOR_PAGE_FILE`); the
 * api writes each request's mentor into it, HTML-escaped, from the catalogue it serves
 * (api/src/web.rs). The app then renders the whole page (mentor-profile-page.tsx) in its place,
 * with the same classes, so the card keeps its place and the bio its size.
 * It leaves out what sits above the bio only on the full page (rating, specialties), so the
 * bio is never lower here than there.
 */
export const MENTOR_MARKERS = {
  name: '%%MENTOR_NAME%%',
  initials: '%%MENTOR_INITIALS%%',
  bio: '%%MENTOR_BIO%%',
} as const;

export function MentorPreview() {
  return (
    <div className="bg-slate-50/60">
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
        <a
          href="/mentors"
          className="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-indigo-700"
        >
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back to mentors
        </a>
        <div className="mt-6 grid gap-6 lg:grid-cols-3 lg:items-start">
          <div className="lg:col-span-2">
            <Card className="overflow-hidden">
              <div
                aria-hidden="true"
                className="h-24 bg-gradient-to-r from-indigo-600 via-violet-600 to-fuchsia-500 sm:h-32"
              />
              <div className="px-6 pb-6">
                <div className="-mt-12 flex flex-col gap-4 sm:-mt-14 sm:flex-row sm:items-end sm:justify-between">
                  <span
                    aria-hidden="true"
                    className="inline-flex h-24 w-24 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-indigo-500 to-violet-600 text-2xl font-semibold text-white shadow-md ring-4 ring-white sm:h-28 sm:w-28 sm:text-3xl"
                  >
                    {MENTOR_MARKERS.initials}
                  </span>
                </div>
                <h1 className="mt-4 font-display text-3xl font-semibold tracking-tight text-slate-900">
                  {MENTOR_MARKERS.name}
                </h1>
                <h2 className="mt-6 text-lg font-semibold text-slate-900">About</h2>
                <p className="mt-2 whitespace-pre-line leading-relaxed text-slate-700">{MENTOR_MARKERS.bio}</p>
              </div>
            </Card>
          </div>
        </div>
      </div>
    </div>
  );
}

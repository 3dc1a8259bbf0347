import { Quote } from 'lucide-react';
import { Link } from 'react-router';
import type { HighlightsView, TestimonialView } from '@/api/model';
import { RatingStars } from '@/components/rating-stars';
import { formatUsd } from '@/lib/money';
import { cn } from '@/lib/utils';

export type Figure = { label: string; value: string };

/**
 * The figures the landing page shows, each computed by the api from the catalogue; a figure
 * with nothing behind it (no reviews yet, no paid services) is left out.
 */
export function highlightStats(h: HighlightsView | undefined): Figure[] {
  if (!h) return [];
  const figures: Figure[] = [];
  if (h.mentorCount > 0)
    figures.push({ label: h.mentorCount === 1 ? 'Mentor' : 'Mentors', value: h.mentorCount.toLocaleString('en-US') });
  if (h.averageHourlyRate != null)
    figures.push({ label: 'Average hourly rate', value: formatUsd(h.averageHourlyRate) });
  if (h.averageRating != null && h.reviewCount > 0) {
    figures.push({
      label: `Average rating (${h.reviewCount.toLocaleString('en-US')} reviews)`,
      value: Number(h.averageRating).toFixed(1),
    });
  }
  return figures;
}

/** Stands in while the figures load: the box they usually fill, kept empty. */
const LOADING_FIGURES: Figure[] = [
  { label: 'Mentors', value: '0' },
  { label: 'Average hourly rate', value: '$0.00' },
  { label: 'Average rating (0 reviews)', value: '0.0' },
];

/**
 * The figures; `undefined` while they load, when the box they usually fill is kept (invisible),
 * so the hero does not grow under the reader when they arrive.
 */
export function PlatformFigures({ stats }: { stats: Figure[] | undefined }) {
  if (stats?.length === 0) return null;
  const loading = !stats;
  return (
    <dl
      aria-hidden={loading || undefined}
      className={cn('mt-16 grid max-w-3xl grid-cols-3 gap-4 sm:gap-8', loading && 'invisible')}
    >
      {(stats ?? LOADING_FIGURES).map((stat) => (
        <div key={stat.label} className="rounded-2xl bg-white/5 p-4 ring-1 ring-white/10 sm:p-6">
          <dt className="text-xs text-indigo-200 sm:text-sm">{stat.label}</dt>
          <dd className="mt-1 font-display text-2xl font-semibold sm:text-4xl">{stat.value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Recent warm reviews from real sessions; nothing at all before the first one. */
export function Testimonials({ testimonials }: { testimonials: TestimonialView[] }) {
  if (testimonials.length === 0) return null;
  return (
    <section aria-labelledby="testimonials-title" className="bg-white py-20 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <Quote aria-hidden="true" className="mx-auto h-10 w-10 text-indigo-200" />
          <h2 id="testimonials-title" className="mt-4 font-display text-3xl font-semibold text-slate-900">
            Stories from our community
          </h2>
        </div>
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {testimonials.map((t) => (
            <li key={t.id} className="flex flex-col rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-100">
              <RatingStars rating={t.rating} />
              <blockquote className="mt-3 flex-1 text-sm leading-relaxed text-slate-700">“{t.comment}”</blockquote>
              <p className="mt-4 text-sm text-slate-600">
                <span className="font-semibold text-slate-900">{t.reviewerName}</span> on a session with{' '}
                <Link to={`/mentor/${t.mentorId}`} className="font-medium text-indigo-700 hover:underline">
                  {t.mentorName}
                </Link>
              </p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

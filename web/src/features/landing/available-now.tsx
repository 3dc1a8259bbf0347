import { useQuery } from '@tanstack/react-query';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { MentorCard } from '@/components/mentor-card';
import { catalogueQueries } from '@/lib/catalogue';

/** How many online mentors the landing page shows. */
export const AVAILABLE_NOW_COUNT = 3;
/** Visitors' pages poll presence this often (docs/instant-readings.md). */
export const PRESENCE_POLL_MS = 15_000;

/** 'Available now': mentors online for a reading, best rated first; hidden when nobody is. */
export function AvailableNow() {
  const { data } = useQuery({
    ...catalogueQueries.mentors({ availableNow: true, pageSize: AVAILABLE_NOW_COUNT }),
    refetchInterval: PRESENCE_POLL_MS,
  });
  if (!data || data.mentors.length === 0) return null;
  return (
    <section aria-labelledby="available-now-title">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="available-now-title" className="font-display text-2xl font-semibold text-slate-900 sm:text-3xl">
          Available now
        </h2>
        <Link
          to="/mentors?availableNow=true"
          className="inline-flex items-center gap-1 text-sm font-medium text-indigo-700 hover:text-indigo-800"
        >
          See everyone online
          <ArrowRight aria-hidden="true" className="h-4 w-4" />
        </Link>
      </div>
      <ul className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {data.mentors.map((mentor) => (
          <li key={mentor.id}>
            <MentorCard mentor={mentor} to={`/mentor/${mentor.id}`} />
          </li>
        ))}
      </ul>
    </section>
  );
}

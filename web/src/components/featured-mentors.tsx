import { useQuery } from '@tanstack/react-query';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { catalogueQueries } from '@/lib/catalogue';
import { MentorCard, MentorCardSkeleton } from './mentor-card';

const FEATURED_MENTORS_COUNT = 3;

/** Featured mentors are the first 3 of GET /api/mentors (public). */
export function useFeaturedMentors() {
  return useQuery({
    ...catalogueQueries.mentors(),
    select: (list) => list.mentors.slice(0, FEATURED_MENTORS_COUNT),
  });
}

/**
 * The featured mentors' cards. Signed in they lead to /mentor/{id}; signed out to /auth (the
 * profile is a signed-in page). Nothing shows when there are no mentors or the call fails.
 */
export function FeaturedMentors({ title = 'Featured Mentors' }: { title?: string }) {
  const { data, isLoading } = useFeaturedMentors();
  if (!isLoading && (!data || data.length === 0)) return null;
  return (
    <section aria-labelledby="featured-mentors-title">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="featured-mentors-title" className="font-display text-2xl font-semibold text-slate-900 sm:text-3xl">
          {title}
        </h2>
        <Link
          to="/mentors"
          className="inline-flex items-center gap-1 text-sm font-medium text-indigo-700 hover:text-indigo-800"
        >
          See all mentors
          <ArrowRight aria-hidden="true" className="h-4 w-4" />
        </Link>
      </div>
      <ul className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {isLoading
          ? Array.from({ length: FEATURED_MENTORS_COUNT }, (_, i) => (
              <li key={i}>
                <MentorCardSkeleton />
              </li>
            ))
          : data!.map((mentor) => (
              <li key={mentor.id}>
                <MentorCard mentor={mentor} to={`/mentor/${mentor.id}`} />
              </li>
            ))}
      </ul>
    </section>
  );
}

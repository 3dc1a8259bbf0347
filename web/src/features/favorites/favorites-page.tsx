import { CalendarCheck, CircleAlert, Heart, RefreshCw } from 'lucide-react';
import { Link } from 'react-router';
import { FavoriteButton } from '@/components/favorite-button';
import { MentorAvatar } from '@/components/mentor-avatar';
import { MentorCardSkeleton, SpecialtyChips } from '@/components/mentor-card';
import { RatingStars } from '@/components/rating-stars';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { MENTOR_SKELETON_COUNT } from '@/config/constants';
import type { Mentor } from '@/lib/catalogue';
import { bookPath } from '@/lib/group-sessions';
import { formatUsd, isFree } from '@/lib/money';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useFavoriteMentors } from './api';

export function FavoritesPage() {
  useDocumentTitle('Favorites');
  const favorites = useFavoriteMentors();

  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
      <div className="flex items-center gap-3">
        <span className="inline-flex h-11 w-11 items-center justify-center rounded-xl bg-rose-50 text-rose-600">
          <Heart aria-hidden="true" className="h-6 w-6" />
        </span>
        <div>
          <h1 className="font-display text-3xl font-semibold tracking-tight text-slate-900">Favorite Mentors</h1>
          <p className="text-sm text-slate-600">The mentors you saved, ready when you are.</p>
        </div>
      </div>

      <div className="mt-8">
        {favorites.isLoading ? (
          <ul aria-busy="true" aria-label="Loading favorites" className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {Array.from({ length: MENTOR_SKELETON_COUNT }, (_, i) => (
              <li key={i}>
                <MentorCardSkeleton />
              </li>
            ))}
          </ul>
        ) : favorites.isError ? (
          <StateCard
            tone="error"
            icon={CircleAlert}
            title="Unable to Load Favorites"
            actions={
              <Button onClick={() => void favorites.refetch()} disabled={favorites.isFetching}>
                <RefreshCw aria-hidden="true" className="h-4 w-4" />
                Retry
              </Button>
            }
          >
            Something went wrong while loading your favorite mentors. Please try again.
          </StateCard>
        ) : !favorites.data || favorites.data.length === 0 ? (
          <StateCard
            icon={Heart}
            title="No Favorite Mentors Yet"
            actions={
              <Button asChild>
                <Link to="/mentors">Browse Mentors</Link>
              </Button>
            }
          >
            Tap the heart on a mentor's card to keep them here for later.
          </StateCard>
        ) : (
          <ul aria-label="Favorite mentors" className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {favorites.data.map((mentor) => (
              <li key={mentor.id}>
                <FavoriteCard mentor={mentor} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

/** Photo, name, stars (default 5), two specialties, bio, 'Starting from', View Profile, Book. */
function FavoriteCard({ mentor }: { mentor: Mentor }) {
  const firstService = mentor.services?.[0];
  return (
    <Card className="relative flex h-full flex-col p-5">
      <div className="absolute right-4 top-4">
        <FavoriteButton mentorId={mentor.id} mentorName={mentor.displayName} isFavorited />
      </div>
      <div className="flex items-start gap-4 pr-12">
        <MentorAvatar mentor={mentor} size="md" className="ring-rose-50" />
        <div className="min-w-0 space-y-1">
          <h2 className="line-clamp-2 break-words text-lg font-semibold text-slate-900">{mentor.displayName}</h2>
          <RatingStars rating={mentor.rating} reviewCount={mentor.reviewCount} />
        </div>
      </div>
      <div className="mt-4">
        <SpecialtyChips specialties={mentor.specialties} />
      </div>
      <p className="mt-3 line-clamp-3 flex-1 text-sm leading-relaxed text-slate-600">{mentor.bio}</p>
      {mentor.fromPrice != null && (
        <p className="mt-4 text-sm text-slate-600">
          {isFree(mentor.fromPrice) ? (
            <span className="font-semibold text-slate-900">Free</span>
          ) : (
            <>
              Starting from <span className="font-semibold text-slate-900">{formatUsd(mentor.fromPrice)}</span>
            </>
          )}
        </p>
      )}
      <div className="mt-4 grid grid-cols-2 gap-3">
        <Button asChild variant="outline">
          <Link to={`/mentor/${mentor.id}`} aria-label={`View Profile of ${mentor.displayName}`}>
            View Profile
          </Link>
        </Button>
        {firstService ? (
          <Button asChild>
            <Link to={bookPath(firstService, mentor.id)} aria-label={`Book ${mentor.displayName}`}>
              <CalendarCheck aria-hidden="true" className="h-4 w-4" />
              Book
            </Link>
          </Button>
        ) : (
          <Button disabled title="This mentor has no services to book yet">
            Book
          </Button>
        )}
      </div>
    </Card>
  );
}

export default FavoritesPage;

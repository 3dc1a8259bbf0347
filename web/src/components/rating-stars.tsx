import { Star } from 'lucide-react';
import { DEFAULT_MENTOR_RATING } from '@/config/constants';
import { cn } from '@/lib/utils';

/**
 * A rating as a number of stars (0 to 5). When a mentor has no rating value
 * at all the default is 5; the api sends '0.00' for a mentor without reviews, which stays 0.
 */
export function ratingValue(rating: string | number | null | undefined): number {
  if (rating === null || rating === undefined || rating === '') return DEFAULT_MENTOR_RATING;
  const n = typeof rating === 'number' ? rating : Number(rating);
  if (!Number.isFinite(n)) return DEFAULT_MENTOR_RATING;
  return Math.min(5, Math.max(0, n));
}

/** Whole stars to fill for a rating: 4.8 -> 5, 4.2 -> 4. */
export function filledStars(rating: string | number | null | undefined): number {
  return Math.round(ratingValue(rating));
}

type RatingStarsProps = {
  rating: string | number | null | undefined;
  /** Shown after the stars: '4.8 (12 reviews)', or 'No reviews yet' when 0. */
  reviewCount?: number;
  size?: 'sm' | 'md';
  className?: string;
};

export function reviewCountText(count: number): string {
  return count === 1 ? '1 review' : `${count} reviews`;
}

export function RatingStars({ rating, reviewCount, size = 'sm', className }: RatingStarsProps) {
  const value = ratingValue(rating);
  const filled = filledStars(rating);
  const iconSize = size === 'sm' ? 'h-4 w-4' : 'h-5 w-5';
  const noReviews = reviewCount === 0;
  return (
    <div className={cn('flex items-center gap-1.5', className)}>
      <span role="img" aria-label={`Rated ${value.toFixed(1)} out of 5`} className="inline-flex items-center">
        {Array.from({ length: 5 }, (_, i) => (
          <Star
            key={i}
            aria-hidden="true"
            className={cn(iconSize, i < filled ? 'fill-amber-400 text-amber-400' : 'fill-slate-200 text-slate-200')}
          />
        ))}
      </span>
      {reviewCount !== undefined && (
        <span className="text-sm text-slate-600">
          {noReviews ? (
            'No reviews yet'
          ) : (
            <>
              <span className="font-medium text-slate-800">{value.toFixed(1)}</span> ({reviewCountText(reviewCount)})
            </>
          )}
        </span>
      )}
    </div>
  );
}

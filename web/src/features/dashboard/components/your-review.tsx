import { Star } from 'lucide-react';
import { RatingStars } from '@/components/rating-stars';

export const THANKS_FOR_REVIEW = 'Thanks for your review!';

/** A reviewed session: the thanks, and the review itself as the mentor's page shows it. */
export function YourReview({ review }: { review: { rating: number; comment?: string | null } | null }) {
  return (
    <div className="mt-4 space-y-2" aria-label="Your review">
      <p className="flex items-center gap-2 text-sm font-medium text-emerald-700">
        <Star aria-hidden="true" className="h-4 w-4 fill-amber-400 text-amber-400" />
        {THANKS_FOR_REVIEW}
      </p>
      {review && (
        <div className="rounded-xl border border-slate-200 bg-white p-3">
          <RatingStars rating={String(review.rating)} />
          {review.comment && <p className="mt-2 text-sm text-slate-700">{review.comment}</p>}
        </div>
      )}
    </div>
  );
}

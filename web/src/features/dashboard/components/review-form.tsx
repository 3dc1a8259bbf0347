import { Star } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Textarea } from '@/components/ui/textarea';
import { DASHBOARD_TEXT } from '@/features/dashboard/texts';
import { errorCode, errorMessage, errorStatus } from '@/lib/api-fetch';
import { cn } from '@/lib/utils';
import { useReviewBooking, type DashboardBooking } from '../api';

export const RATINGS = [1, 2, 3, 4, 5] as const;
export const RATING_REQUIRED = 'Rating must be from 1 to 5';
export const REVIEW_FAILED = 'Failed to submit review';

/** '1 star', '2 stars', ... */
export function starLabel(n: number): string {
  return n === 1 ? '1 star' : `${n} stars`;
}

/** The api's answer for a booking that already has this seeker's review. */
export function isAlreadyReviewed(error: unknown): boolean {
  return errorStatus(error) === 409 && errorCode(error) === 'already_reviewed';
}

/** What the seeker just sent, shown back until the dashboard reloads with it. */
export type SentReview = { rating: number; comment: string | null };

type ReviewFormProps = {
  booking: DashboardBooking;
  /** The session now has a review: the one just written, or null when it already had one. */
  onReviewed: (bookingId: string, sent: SentReview | null) => void;
};

/** A completed session's review: 1 to 5 stars and an optional comment; POST /api/bookings/{id}/review. */
export function ReviewForm({ booking, onReviewed }: ReviewFormProps) {
  const [rating, setRating] = useState(0);
  const [hover, setHover] = useState(0);
  const [comment, setComment] = useState('');
  const [missingRating, setMissingRating] = useState(false);
  const review = useReviewBooking();
  const id = useId();
  const busy = review.isPending;
  const shown = hover || rating;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (rating < 1) {
      setMissingRating(true);
      return;
    }
    review.mutate(
      { booking, rating, comment: comment.trim() || undefined },
      {
        onSuccess: () => {
          toast.success('Review submitted', { description: 'Thank you for sharing your experience.' });
          onReviewed(booking.id, { rating, comment: comment.trim() || null });
        },
        onError: (error) => {
          if (isAlreadyReviewed(error)) {
            toast.info(DASHBOARD_TEXT.alreadyReviewed);
            onReviewed(booking.id, null);
            return;
          }
          toast.error('Error', { description: errorMessage(error, REVIEW_FAILED) });
        },
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={`Review ${booking.service.title}`}
      className="mt-5 space-y-4 rounded-xl border border-amber-200 bg-amber-50/40 p-4"
    >
      <fieldset>
        <legend className="text-sm font-semibold text-slate-900">How was your session?</legend>
        <div role="radiogroup" aria-label="Rating" className="mt-2 flex gap-1" onMouseLeave={() => setHover(0)}>
          {RATINGS.map((n) => (
            <label
              key={n}
              onMouseEnter={() => setHover(n)}
              className="relative cursor-pointer rounded-md p-0.5 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-500"
            >
              <input
                type="radio"
                name={`${id}-rating`}
                value={n}
                checked={rating === n}
                disabled={busy}
                aria-label={starLabel(n)}
                onChange={() => {
                  setRating(n);
                  setMissingRating(false);
                }}
                // Over the star, invisible: the star is what people see and press.
                className="absolute inset-0 m-0 h-full w-full cursor-pointer opacity-0"
              />
              <Star
                aria-hidden="true"
                className={cn(
                  'h-7 w-7',
                  n <= shown ? 'fill-amber-400 text-amber-400' : 'fill-slate-200 text-slate-300',
                )}
              />
            </label>
          ))}
        </div>
      </fieldset>
      {missingRating && <Alert variant="error">{RATING_REQUIRED}</Alert>}
      <Field label="Comment (optional)">
        {(control) => (
          <Textarea
            {...control}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            disabled={busy}
            rows={3}
            placeholder="What did you take away from the session?"
          />
        )}
      </Field>
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {busy ? 'Submitting...' : 'Submit Review'}
        </Button>
      </div>
    </form>
  );
}

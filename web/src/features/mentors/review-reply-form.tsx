import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { replyToReview } from '@/api/endpoints/dashboard/dashboard';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-fetch';
import { catalogueKeys } from '@/lib/catalogue';

export const MAX_REPLY = 1000;

/** The mentor's one public reply under a review of them (POST /api/mentor/reviews/{id}/reply). */
export function ReviewReplyForm({ mentorId, reviewId }: { mentorId: string; reviewId: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const reply = useMutation({
    mutationFn: () => replyToReview(reviewId, { message: message.trim() }),
    onSuccess: () => {
      toast.success('Reply posted');
      return queryClient.invalidateQueries({ queryKey: catalogueKeys.reviews(mentorId) });
    },
    onError: (error: unknown) =>
      toast.error('Error', { description: errorMessage(error, 'Failed to post your reply') }),
  });
  if (!open) {
    return (
      <Button className="mt-3" size="sm" variant="outline" onClick={() => setOpen(true)}>
        Reply
      </Button>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    reply.mutate();
  };
  return (
    <form onSubmit={submit} className="mt-3 space-y-2">
      <label className="block text-sm text-slate-700">
        Your reply (shown under the review)
        <textarea
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-1.5"
          maxLength={MAX_REPLY}
          rows={3}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
      </label>
      <Button type="submit" size="sm" disabled={reply.isPending || !message.trim()}>
        Post reply
      </Button>
    </form>
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Hourglass, ShieldAlert } from 'lucide-react';
import { toast } from 'sonner';
import { resubmitMentorProfile } from '@/api/endpoints/mentors/mentors';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-fetch';
import { MENTOR_PROFILE_KEY } from '@/lib/auth';
import type { Mentor } from '@/lib/catalogue';

export const APPROVAL_BANNER_TEXT = {
  pendingTitle: 'Your profile is awaiting review',
  pendingBody:
    'An administrator reviews every new mentor profile before it is listed. Until it is approved, seekers cannot find or book you; you can keep preparing your services and availability.',
  rejectedTitle: 'Your profile was not approved',
  rejectedBody: 'Edit your profile (Profile tab) to address the reason, then resubmit it for review.',
  resubmit: 'Resubmit for Review',
  resubmitted: 'Profile resubmitted for review',
  resubmitFailed: 'Failed to resubmit your profile',
} as const;

/** POST /api/mentor/profile/resubmit; the profile (and this banner) reloads. */
function useResubmit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => resubmitMentorProfile(),
    onSettled: () => queryClient.invalidateQueries({ queryKey: MENTOR_PROFILE_KEY }),
  });
}

/** The mentor dashboard's notice while the profile awaits review or was rejected; nothing once approved. */
export function ApprovalBanner({ mentor }: { mentor: Mentor }) {
  const resubmit = useResubmit();
  if (mentor.approvalStatus === 'pending') {
    return (
      <section
        aria-label="Profile review"
        className="mb-8 flex gap-3 rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-900"
      >
        <Hourglass aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />
        <div>
          <h2 className="font-semibold">{APPROVAL_BANNER_TEXT.pendingTitle}</h2>
          <p className="mt-1 text-sm">{APPROVAL_BANNER_TEXT.pendingBody}</p>
        </div>
      </section>
    );
  }
  if (mentor.approvalStatus !== 'rejected') return null;
  return (
    <section
      aria-label="Profile review"
      className="mb-8 flex gap-3 rounded-xl border border-rose-200 bg-rose-50 p-4 text-rose-900"
    >
      <ShieldAlert aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />
      <div className="min-w-0 flex-1">
        <h2 className="font-semibold">{APPROVAL_BANNER_TEXT.rejectedTitle}</h2>
        {mentor.rejectionReason && (
          <p className="mt-1 whitespace-pre-line text-sm">
            <span className="font-medium">Reason:</span> {mentor.rejectionReason}
          </p>
        )}
        <p className="mt-1 text-sm">{APPROVAL_BANNER_TEXT.rejectedBody}</p>
        <Button
          size="sm"
          className="mt-3"
          disabled={resubmit.isPending}
          onClick={() =>
            resubmit.mutate(undefined, {
              onSuccess: () => toast.success(APPROVAL_BANNER_TEXT.resubmitted),
              onError: (error) =>
                toast.error(APPROVAL_BANNER_TEXT.resubmitFailed, {
                  description: errorMessage(error, 'Please try again.'),
                }),
            })
          }
        >
          {APPROVAL_BANNER_TEXT.resubmit}
        </Button>
      </div>
    </section>
  );
}

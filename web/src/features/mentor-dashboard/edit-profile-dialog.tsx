import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { MentorProfileFields, useProfileForm } from '@/components/mentor-profile-fields';
import { DEFAULT_MINIMUM_NOTICE_MINUTES, MinimumNoticeField } from '@/components/minimum-notice-field';
import { TimeZoneField } from '@/components/time-zone-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { errorMessage } from '@/lib/api-fetch';
import type { Mentor } from '@/lib/catalogue';
import { useUpdateMentorProfile } from './api';

export const UPDATE_PROFILE_FAILED = 'Failed to update mentor profile';

type Props = { mentor: Mentor; open: boolean; onOpenChange: (open: boolean) => void };

/** 'Edit Mentor Profile' (display name, bio, specialties, base price), plus the time zone of the availability and the minimum notice. */
export function EditProfileDialog({ mentor, open, onOpenChange }: Props) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Edit Mentor Profile" className="max-w-2xl">
      {open && <EditProfileForm mentor={mentor} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function EditProfileForm({ mentor, onDone }: { mentor: Mentor; onDone: () => void }) {
  const profile = useProfileForm({
    displayName: mentor.displayName,
    bio: mentor.bio,
    specialties: mentor.specialties,
    basePrice: mentor.basePrice,
    profileImageUrl: '',
  });
  const [timeZone, setTimeZone] = useState(mentor.timeZone);
  const [notice, setNotice] = useState(mentor.minimumNoticeMinutes ?? DEFAULT_MINIMUM_NOTICE_MINUTES);
  const update = useUpdateMentorProfile();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!profile.check()) return;
    update.mutate(
      {
        ...profile.input(),
        timeZone,
        minimumNoticeMinutes: notice,
      },
      {
        onSuccess: () => {
          toast.success('Profile updated');
          onDone();
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      {update.isError && <Alert variant="error">{errorMessage(update.error, UPDATE_PROFILE_FAILED)}</Alert>}
      <MentorProfileFields profile={profile} disabled={update.isPending} />
      <TimeZoneField
        value={timeZone}
        onChange={setTimeZone}
        hint="Your availability is in this zone."
        disabled={update.isPending}
      />
      <MinimumNoticeField value={notice} onChange={setNotice} disabled={update.isPending} />
      <div className="flex justify-end gap-3 border-t border-slate-100 pt-4">
        <Button variant="outline" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Profile'}
        </Button>
      </div>
    </form>
  );
}

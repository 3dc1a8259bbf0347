import { useState, type FormEvent } from 'react';
import { ImageUploadField } from '@/components/image-upload-field';
import { MentorProfileFields, useProfileForm } from '@/components/mentor-profile-fields';
import { TimeZoneField } from '@/components/time-zone-field';
import { Button } from '@/components/ui/button';
import { errorMessage, errorStatus } from '@/lib/api-fetch';
import type { Mentor } from '@/lib/catalogue';
import { hardNavigate, LOGIN_URL } from '@/lib/navigation';
import { browserTimeZone } from '@/lib/time-zones';
import { useCreateMentorProfile, useUpdateMentorProfile } from './api';
import { PROFILE_FAILED, PROFILE_UPDATE_FAILED } from './steps';
import { ErrorCard, StepCard } from './step-parts';

/** Creates the profile, or after Back changes the one made earlier. */
export function ProfileStep({ existing, onDone }: { existing: Mentor | null; onDone: (mentor: Mentor) => void }) {
  const profile = useProfileForm({
    displayName: existing?.displayName ?? '',
    bio: existing?.bio ?? '',
    specialties: existing?.specialties ?? [],
    basePrice: existing?.basePrice ?? '',
    profileImageUrl: existing?.profileImageUrl ?? '',
  });
  const { form, errors, set } = profile;
  const [timeZone, setTimeZone] = useState(existing?.timeZone ?? browserTimeZone);
  const createProfile = useCreateMentorProfile();
  const updateProfile = useUpdateMentorProfile();
  const create = existing ? updateProfile : createProfile;
  const failed = existing ? PROFILE_UPDATE_FAILED : PROFILE_FAILED;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!profile.check()) return;
    const image = form.profileImageUrl.trim();
    const input = {
      ...profile.input(),
      ...(image || existing ? { profileImageUrl: image } : {}),
      timeZone,
    };
    const handlers = {
      onSuccess: (m: Mentor) => onDone(m),
      onError: (error: unknown) => {
        if (errorStatus(error) === 401) hardNavigate(LOGIN_URL);
      },
    };
    if (existing) updateProfile.mutate(input, handlers);
    else createProfile.mutate(input, handlers);
  };

  return (
    <StepCard title="Your mentor profile" description="Tell seekers who you are and how you guide them.">
      <form noValidate onSubmit={submit} className="space-y-5">
        {create.isError && <ErrorCard message={failed} detail={errorMessage(create.error, failed)} />}
        <MentorProfileFields
          profile={profile}
          placeholders={{ displayName: 'e.g. Luna Starweaver', basePrice: '50.00' }}
          hints={{
            bio: 'Between 50 and 500 characters: your background, approach and what a session with you is like.',
            specialties: 'Choose one or more.',
            basePrice: 'Your usual rate per session.',
          }}
          besidePrice={
            <TimeZoneField value={timeZone} onChange={setTimeZone} hint="Your availability is shown in this zone." />
          }
        />
        <ImageUploadField
          label="Profile Image (optional)"
          value={form.profileImageUrl}
          onChange={(url) => set({ profileImageUrl: url })}
          error={errors.profileImageUrl}
        />
        <div className="flex justify-end pt-2">
          <Button type="submit" variant="gradient" size="lg" disabled={create.isPending}>
            {create.isPending ? (existing ? 'Saving Profile...' : 'Creating Profile...') : 'Continue'}
          </Button>
        </div>
      </form>
    </StepCard>
  );
}

// --- Step 2: services ----------------------------------------------------------------------

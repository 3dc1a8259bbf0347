import { useState, type FormEvent } from 'react';
import { ImageUploadField } from '@/components/image-upload-field';
import { SpecialtyPicker } from '@/components/specialty-picker';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, errorStatus } from '@/lib/api-fetch';
import type { Mentor } from '@/lib/catalogue';
import {
  BIO_MAX,
  hasErrors,
  normalizeSpecialties,
  validateProfile,
  type Errors,
  type ProfileField,
  type ProfileForm,
} from '@/lib/mentor-forms';
import { normalizePrice } from '@/lib/money';
import { hardNavigate, LOGIN_URL } from '@/lib/navigation';
import { browserTimeZone } from '@/lib/time-zones';
import { TimeZoneField } from '@/components/time-zone-field';
import { cn } from '@/lib/utils';
import { useCreateMentorProfile, useUpdateMentorProfile } from './api';
import { PROFILE_FAILED, PROFILE_UPDATE_FAILED } from './steps';
import { ErrorCard, StepCard } from './step-parts';

/** Creates the profile, or after Back changes the one made earlier. */
export function ProfileStep({ existing, onDone }: { existing: Mentor | null; onDone: (mentor: Mentor) => void }) {
  const [form, setForm] = useState<ProfileForm>({
    displayName: existing?.displayName ?? '',
    bio: existing?.bio ?? '',
    specialties: existing?.specialties ?? [],
    basePrice: existing?.basePrice ?? '',
    profileImageUrl: existing?.profileImageUrl ?? '',
  });
  const [timeZone, setTimeZone] = useState(existing?.timeZone ?? browserTimeZone);
  const [errors, setErrors] = useState<Errors<ProfileField>>({});
  const [submitted, setSubmitted] = useState(false);
  const createProfile = useCreateMentorProfile();
  const updateProfile = useUpdateMentorProfile();
  const create = existing ? updateProfile : createProfile;
  const failed = existing ? PROFILE_UPDATE_FAILED : PROFILE_FAILED;

  const set = (patch: Partial<ProfileForm>) => {
    const next = { ...form, ...patch };
    setForm(next);
    // After a first attempt, errors follow the typing.
    if (submitted) setErrors(validateProfile(next));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = validateProfile(form);
    setErrors(found);
    if (hasErrors(found)) return;
    const image = form.profileImageUrl.trim();
    const input = {
      displayName: form.displayName.trim(),
      bio: form.bio.trim(),
      specialties: normalizeSpecialties(form.specialties),
      basePrice: normalizePrice(form.basePrice)!,
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

  const bioLength = form.bio.trim().length;
  return (
    <StepCard title="Your mentor profile" description="Tell seekers who you are and how you guide them.">
      <form noValidate onSubmit={submit} className="space-y-5">
        {create.isError && <ErrorCard message={failed} detail={errorMessage(create.error, failed)} />}
        <FormField
          label="Display Name"
          value={form.displayName}
          onChange={(e) => set({ displayName: e.target.value })}
          error={errors.displayName}
          placeholder="e.g. Luna Starweaver"
          autoComplete="nickname"
        />
        <Field
          label="Bio"
          error={errors.bio}
          hint="Between 50 and 500 characters: your background, approach and what a session with you is like."
          labelAside={
            <span
              aria-live="polite"
              className={cn('text-xs', bioLength > BIO_MAX ? 'text-rose-600' : 'text-slate-500')}
            >
              {bioLength}/{BIO_MAX}
            </span>
          }
        >
          {(control) => (
            <Textarea {...control} rows={5} value={form.bio} onChange={(e) => set({ bio: e.target.value })} />
          )}
        </Field>
        <SpecialtyPicker
          value={form.specialties}
          onChange={(specialties) => set({ specialties })}
          error={errors.specialties}
          hint="Choose one or more."
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <FormField
            label="Base Price (USD)"
            type="number"
            inputMode="decimal"
            min={0}
            step="0.01"
            value={form.basePrice}
            onChange={(e) => set({ basePrice: e.target.value })}
            error={errors.basePrice}
            placeholder="50.00"
            hint="Your usual rate per session."
          />
          <TimeZoneField value={timeZone} onChange={setTimeZone} hint="Your availability is shown in this zone." />
        </div>
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

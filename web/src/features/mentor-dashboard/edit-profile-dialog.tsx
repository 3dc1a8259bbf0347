import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { DEFAULT_MINIMUM_NOTICE_MINUTES, MinimumNoticeField } from '@/components/minimum-notice-field';
import { SpecialtyPicker } from '@/components/specialty-picker';
import { TimeZoneField } from '@/components/time-zone-field';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-fetch';
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
import { cn } from '@/lib/utils';
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
  const [form, setForm] = useState<ProfileForm>({
    displayName: mentor.displayName,
    bio: mentor.bio,
    specialties: mentor.specialties,
    basePrice: mentor.basePrice,
    profileImageUrl: '',
  });
  const [timeZone, setTimeZone] = useState(mentor.timeZone);
  const [notice, setNotice] = useState(mentor.minimumNoticeMinutes ?? DEFAULT_MINIMUM_NOTICE_MINUTES);
  const [errors, setErrors] = useState<Errors<ProfileField>>({});
  const [checked, setChecked] = useState(false);
  const update = useUpdateMentorProfile();

  const set = (patch: Partial<ProfileForm>) => {
    const next = { ...form, ...patch };
    setForm(next);
    if (checked) setErrors(validateProfile(next));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    const found = validateProfile(form);
    setErrors(found);
    if (hasErrors(found)) return;
    update.mutate(
      {
        displayName: form.displayName.trim(),
        bio: form.bio.trim(),
        // Trimmed, duplicates ignored.
        specialties: normalizeSpecialties(form.specialties),
        basePrice: normalizePrice(form.basePrice)!,
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

  const bioLength = form.bio.trim().length;
  return (
    <form noValidate onSubmit={submit} className="space-y-5">
      {update.isError && <Alert variant="error">{errorMessage(update.error, UPDATE_PROFILE_FAILED)}</Alert>}
      <FormField
        label="Display Name"
        value={form.displayName}
        onChange={(e) => set({ displayName: e.target.value })}
        error={errors.displayName}
        disabled={update.isPending}
      />
      <Field
        label="Bio"
        error={errors.bio}
        labelAside={
          <span className={cn('text-xs', bioLength > BIO_MAX ? 'text-rose-600' : 'text-slate-500')}>
            {bioLength}/{BIO_MAX}
          </span>
        }
      >
        {(control) => (
          <Textarea
            {...control}
            rows={5}
            value={form.bio}
            onChange={(e) => set({ bio: e.target.value })}
            disabled={update.isPending}
          />
        )}
      </Field>
      <SpecialtyPicker
        value={form.specialties}
        onChange={(specialties) => set({ specialties })}
        error={errors.specialties}
      />
      <FormField
        label="Base Price (USD)"
        type="number"
        inputMode="decimal"
        min={0}
        step="0.01"
        value={form.basePrice}
        onChange={(e) => set({ basePrice: e.target.value })}
        error={errors.basePrice}
        disabled={update.isPending}
      />
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

import { useState, type ReactNode } from 'react';
import { SpecialtyPicker } from '@/components/specialty-picker';
import { Field } from '@/components/ui/field';
import { FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/textarea';
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

/** A mentor profile being written: the onboarding's first step and the dashboard's edit dialog. */
export function useProfileForm(initial: ProfileForm) {
  const [form, setForm] = useState<ProfileForm>(initial);
  const [errors, setErrors] = useState<Errors<ProfileField>>({});
  const [checked, setChecked] = useState(false);

  const set = (patch: Partial<ProfileForm>) => {
    const next = { ...form, ...patch };
    setForm(next);
    // After a first attempt, errors follow the typing.
    if (checked) setErrors(validateProfile(next));
  };

  /** Checks every field (and from now on each change); true when the profile can be sent. */
  const check = () => {
    setChecked(true);
    const found = validateProfile(form);
    setErrors(found);
    return !hasErrors(found);
  };

  /** The profile's fields as the api takes them: trimmed, specialties without duplicates. */
  const input = () => ({
    displayName: form.displayName.trim(),
    bio: form.bio.trim(),
    specialties: normalizeSpecialties(form.specialties),
    basePrice: normalizePrice(form.basePrice)!,
  });

  return { form, errors, set, check, input };
}

export type ProfileFormState = ReturnType<typeof useProfileForm>;

type Props = {
  profile: ProfileFormState;
  disabled?: boolean;
  /** Words under the fields where the form explains more (the onboarding does). */
  hints?: { bio?: string; specialties?: string; basePrice?: string };
  placeholders?: { displayName?: string; basePrice?: string };
  /** Shown beside the base price on wider screens (the onboarding's time zone). */
  besidePrice?: ReactNode;
};

/** Display name, bio (with its count), specialties and base price. */
export function MentorProfileFields({ profile, disabled, hints = {}, placeholders = {}, besidePrice }: Props) {
  const { form, errors, set } = profile;
  const bioLength = form.bio.trim().length;
  const price = (
    <FormField
      label="Base Price (USD)"
      type="number"
      inputMode="decimal"
      min={0}
      step="0.01"
      value={form.basePrice}
      onChange={(e) => set({ basePrice: e.target.value })}
      error={errors.basePrice}
      placeholder={placeholders.basePrice}
      hint={hints.basePrice}
      disabled={disabled}
    />
  );
  return (
    <>
      <FormField
        label="Display Name"
        value={form.displayName}
        onChange={(e) => set({ displayName: e.target.value })}
        error={errors.displayName}
        placeholder={placeholders.displayName}
        autoComplete="nickname"
        disabled={disabled}
      />
      <Field
        label="Bio"
        error={errors.bio}
        hint={hints.bio}
        labelAside={
          <span aria-live="polite" className={cn('text-xs', bioLength > BIO_MAX ? 'text-rose-600' : 'text-slate-500')}>
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
            disabled={disabled}
          />
        )}
      </Field>
      <SpecialtyPicker
        value={form.specialties}
        onChange={(specialties) => set({ specialties })}
        error={errors.specialties}
        hint={hints.specialties}
      />
      {besidePrice ? (
        <div className="grid gap-5 sm:grid-cols-2">
          {price}
          {besidePrice}
        </div>
      ) : (
        price
      )}
    </>
  );
}

import { ArrowLeft, CalendarClock, CircleAlert, Plus, Sparkles, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { ImageUploadField } from '@/components/image-upload-field';
import { DayCheckboxes } from '@/components/availability/day-checkboxes';
import { TimeSelect } from '@/components/availability/time-select';
import { ServiceFields } from '@/components/service-fields';
import { SpecialtyPicker } from '@/components/specialty-picker';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { FormField } from '@/components/ui/form-field';
import { FullPageSpinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, errorStatus } from '@/lib/api-fetch';
import { useMentorProfile, useUser } from '@/lib/auth';
import type { Mentor, Service } from '@/lib/catalogue';
import { unfinishedStep } from '@/lib/mentor-setup';
import {
  BIO_MAX,
  EMPTY_SERVICE,
  hasErrors,
  normalizeSpecialties,
  serviceBody,
  validateProfile,
  validateService,
  type Errors,
  type ProfileField,
  type ProfileForm,
  type ServiceField,
  type ServiceForm,
} from '@/lib/mentor-forms';
import { normalizePrice, servicePriceText } from '@/lib/money';
import { hardNavigate, LOGIN_URL } from '@/lib/navigation';
import { serviceLabel } from '@/lib/services';
import { browserTimeZone, timeZoneLabel } from '@/lib/time-zones';
import { TimeZoneField } from '@/components/time-zone-field';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import {
  DAY_NAMES,
  SCHEDULE_PRESETS,
  scheduleProblems,
  windowLabel,
  type ScheduleRow,
} from '@/lib/weekly-availability';
import {
  useCreateMentorProfile,
  useCreateServices,
  useOwnAvailability,
  useSaveSchedule,
  useUpdateMentorProfile,
} from './api';

export const STEPS = ['Profile', 'Services', 'Availability', 'Complete'] as const;

/** 'Step N of 4' and the percent complete (25, 50, 75, 100). */
export function progressPercent(step: number): number {
  return Math.round((step / STEPS.length) * 100);
}

export const PROFILE_FAILED = 'Failed to create mentor profile';
export const SERVICE_FAILED = 'Failed to create service';
export const PROFILE_UPDATE_FAILED = 'Failed to update mentor profile';
export const AVAILABILITY_FAILED = 'Failed to save availability';
export const NO_SCHEDULE = 'Add at least one time range: pick a preset or add your own';

const STEP_OF = { services: 2, availability: 3 } as const;

export function OnboardingPage() {
  useDocumentTitle('Become a Mentor');
  const { user } = useUser();
  const profile = useMentorProfile(user?.isMentor === true);
  // The profile as step 1 returned it, until the profile query has it too.
  const [created, setCreated] = useState<Mentor | null>(null);
  const mentor = (profile.mentorProfile as Mentor | null) ?? created;
  const availability = useOwnAvailability(!!mentor);
  // Null until the first step is known; then the wizard moves only by its own buttons.
  const [step, setStep] = useState<number | null>(null);

  // A signed-out visitor goes to the login endpoint (a browser navigation).
  useEffect(() => {
    if (!user) hardNavigate(LOGIN_URL);
  }, [user]);

  const loading = !user || profile.isLoading || (!!mentor && availability.isLoading);
  // Where this visit starts: a new user at the profile, a mentor who left part-way where their data says.
  const resume = loading
    ? undefined
    : !mentor
      ? 1
      : (() => {
          const unfinished = unfinishedStep(mentor, availability.data ?? []);
          return unfinished ? STEP_OF[unfinished] : null;
        })();
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the step to resume is known once the data loads
    if (step === null && resume) setStep(resume);
  }, [step, resume]);

  // Only before the first step is known: once a step shows, it stays mounted while queries reload
  // (creating the profile reloads it and then loads the hours; unmounting step 1 meanwhile would drop
  // its mutation's callback, and the wizard would stay on step 1 after the profile was made).
  if (loading && step === null) return <FullPageSpinner />;
  // A mentor who is already set up skips onboarding.
  if (step === null && resume === null) return <Navigate to="/mentor-dashboard" replace />;
  const current = step ?? resume ?? 1;
  const go = (n: number) => {
    setStep(n);
    window.scrollTo({ top: 0 });
  };

  return (
    <div className="bg-gradient-to-b from-indigo-50/70 via-white to-white">
      <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
        <div className="text-center">
          <p className="inline-flex items-center gap-2 rounded-full bg-indigo-100 px-3 py-1 text-sm font-medium text-indigo-700">
            <Sparkles aria-hidden="true" className="h-4 w-4" />
            Become a Mentor
          </p>
          <h1 className="mt-4 font-display text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
            Share your gift with seekers
          </h1>
          <p className="mt-2 text-slate-600">
            Set up your mentor profile, your services and your hours in a few minutes.
          </p>
        </div>

        <Progress step={current} />

        <div className="mt-8">
          {current === 1 && (
            <ProfileStep
              existing={mentor}
              onDone={(m) => {
                setCreated(m);
                go(2);
              }}
            />
          )}
          {current === 2 && mentor && (
            <ServicesStep mentorId={mentor.id} existing={mentor.services} onBack={() => go(1)} onDone={() => go(3)} />
          )}
          {current === 3 && mentor && (
            <AvailabilityStep
              mentorId={mentor.id}
              timeZone={mentor.timeZone}
              saved={availability.data ?? []}
              onBack={() => go(2)}
              onDone={() => go(4)}
            />
          )}
          {current === 4 && <CompleteStep onBack={() => go(3)} />}
        </div>
      </div>
    </div>
  );
}

function BackButton({ onClick, disabled }: { onClick: () => void; disabled?: boolean }) {
  return (
    <Button variant="outline" size="lg" onClick={onClick} disabled={disabled}>
      <ArrowLeft aria-hidden="true" className="h-4 w-4" />
      Back
    </Button>
  );
}

function Progress({ step }: { step: number }) {
  const percent = progressPercent(step);
  return (
    <div className="mt-10">
      <div className="flex items-center justify-between text-sm font-medium">
        <span className="text-slate-900">
          Step {step} of {STEPS.length}
        </span>
        <span className="text-slate-600">{percent}% complete</span>
      </div>
      <div
        role="progressbar"
        aria-label="Onboarding progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`Step ${step} of ${STEPS.length}: ${STEPS[step - 1]}`}
        className="mt-2 h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div
          className="h-full rounded-full bg-gradient-to-r from-indigo-600 to-violet-600 transition-all duration-500"
          style={{ width: `${percent}%` }}
        />
      </div>
      <ol className="mt-4 grid grid-cols-4 gap-2 text-center text-sm">
        {STEPS.map((label, i) => {
          const n = i + 1;
          return (
            <li
              key={label}
              aria-current={n === step ? 'step' : undefined}
              className={cn(
                'flex flex-col items-center gap-1',
                n < step ? 'text-indigo-700' : n === step ? 'font-semibold text-slate-900' : 'text-slate-500',
              )}
            >
              <span
                aria-hidden="true"
                className={cn(
                  'inline-flex h-8 w-8 items-center justify-center rounded-full text-sm font-semibold',
                  n <= step ? 'bg-indigo-600 text-white' : 'bg-slate-200 text-slate-500',
                )}
              >
                {n}
              </span>
              {label}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** The wizard's failures, in a 'Something went wrong' card. */
function ErrorCard({ message, detail }: { message: string; detail?: string }) {
  return (
    <div
      role="alert"
      className="flex gap-3 rounded-2xl border border-rose-200 bg-rose-50 p-4 text-rose-800 animate-fade-in"
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />
      <div className="space-y-1 text-sm">
        <p className="font-semibold">Something went wrong</p>
        <p>{message}</p>
        {detail && detail !== message && <p className="text-rose-700">{detail}</p>}
      </div>
    </div>
  );
}

function StepCard({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card className="p-6 sm:p-8">
      <h2 className="font-display text-2xl font-semibold text-slate-900">{title}</h2>
      <p className="mt-1 text-sm text-slate-600">{description}</p>
      <div className="mt-6">{children}</div>
    </Card>
  );
}

// --- Step 1: profile -----------------------------------------------------------------------

/** Creates the profile, or after Back changes the one made earlier. */
function ProfileStep({ existing, onDone }: { existing: Mentor | null; onDone: (mentor: Mentor) => void }) {
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

type Draft = { key: number; form: ServiceForm; errors: Errors<ServiceField>; created?: Service };

type ServicesProps = { mentorId: string; existing: readonly Service[]; onBack: () => void; onDone: () => void };

/** The services made so far (after Back, or for a mentor who left here) and forms for new ones. */
function ServicesStep({ mentorId, existing, onBack, onDone }: ServicesProps) {
  const nextKey = useRef(existing.length + 1);
  const [drafts, setDrafts] = useState<Draft[]>(() => {
    const made = existing
      .filter((s) => s.isActive)
      .map((service, i) => ({ key: i + 1, form: EMPTY_SERVICE, errors: {}, created: service }));
    return made.length > 0 ? made : [{ key: 0, form: EMPTY_SERVICE, errors: {} }];
  });
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateServices();

  const update = (key: number, patch: Partial<ServiceForm>) =>
    setDrafts((list) =>
      list.map((d) => {
        if (d.key !== key) return d;
        const form = { ...d.form, ...patch };
        return {
          ...d,
          form,
          errors: hasErrors(d.errors) ? validateService(form, { requireDuration: true }) : d.errors,
        };
      }),
    );

  const add = () => setDrafts((list) => [...list, { key: nextKey.current++, form: EMPTY_SERVICE, errors: {} }]);
  const remove = (key: number) => setDrafts((list) => list.filter((d) => d.key !== key));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const checked = drafts.map((d) =>
      d.created ? d : { ...d, errors: validateService(d.form, { requireDuration: true }) },
    );
    setDrafts(checked);
    if (checked.some((d) => hasErrors(d.errors))) return;
    const pending = checked.filter((d) => !d.created);
    if (pending.length === 0) return onDone();
    create.mutate(
      pending.map((d) => {
        const body = serviceBody(d.form);
        return {
          title: body.title,
          description: body.description,
          serviceType: body.serviceType,
          price: body.price,
          duration: body.duration,
          mentorId,
        };
      }),
      {
        onSuccess: (outcomes) => {
          const byKey = new Map(pending.map((d, i) => [d.key, outcomes[i]]));
          setDrafts((list) =>
            list.map((d) => {
              const outcome = byKey.get(d.key);
              return outcome?.ok ? { ...d, created: outcome.service } : d;
            }),
          );
          const failed = outcomes.find((o) => !o.ok);
          if (!failed) return onDone();
          if (errorStatus(failed.error) === 401) return hardNavigate(LOGIN_URL);
          setFailure(errorMessage(failed.error, SERVICE_FAILED));
        },
        onError: (error) => setFailure(errorMessage(error, SERVICE_FAILED)),
      },
    );
  };

  return (
    <StepCard
      title="Your services"
      description="Add at least one service seekers can book. You can add more and change them later in your dashboard."
    >
      <form noValidate onSubmit={submit} className="space-y-6">
        {failure && <ErrorCard message={SERVICE_FAILED} detail={failure} />}
        <ol className="space-y-5">
          {drafts.map((draft, index) => (
            <li key={draft.key} className="rounded-2xl border border-slate-200 p-4 sm:p-5">
              <div className="mb-4 flex items-center justify-between gap-3">
                <h3 className="font-semibold text-slate-900">Service {index + 1}</h3>
                <DraftState
                  done={draft.created ? 'Created' : null}
                  onRemove={drafts.length > 1 ? () => remove(draft.key) : undefined}
                  removeLabel={`Remove service ${index + 1}`}
                  disabled={create.isPending}
                />
              </div>
              {draft.created ? (
                <p className="text-sm text-slate-600">
                  {draft.created.title} · {serviceLabel(draft.created.serviceType)} ·{' '}
                  {servicePriceText(draft.created.price)} · {draft.created.duration} minutes
                </p>
              ) : (
                <ServiceFields
                  idPrefix={`service-${draft.key}`}
                  value={draft.form}
                  errors={draft.errors}
                  onChange={(patch) => update(draft.key, patch)}
                  disabled={create.isPending}
                />
              )}
            </li>
          ))}
        </ol>
        <Button variant="outline" onClick={add} disabled={create.isPending}>
          <Plus aria-hidden="true" className="h-4 w-4" />
          Add Another Service
        </Button>
        <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:justify-between">
          <BackButton onClick={onBack} disabled={create.isPending} />
          <Button type="submit" variant="gradient" size="lg" disabled={create.isPending}>
            {create.isPending ? 'Creating Services...' : 'Continue'}
          </Button>
        </div>
      </form>
    </StepCard>
  );
}

// --- Step 3: availability ------------------------------------------------------------------

type Range = ScheduleRow & { key: number; saved?: boolean };

type AvailabilityProps = {
  mentorId: string;
  timeZone: string;
  saved: readonly { dayOfWeek: number; startTime: string; endTime: string }[];
  onBack: () => void;
  onDone: () => void;
};

/** A weekly schedule from presets, editable before it is saved (one bulk call per range). */
function AvailabilityStep({ mentorId, timeZone, saved, onBack, onDone }: AvailabilityProps) {
  const nextKey = useRef(0);
  const [ranges, setRanges] = useState<Range[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const save = useSaveSchedule(mentorId);
  const open = ranges.filter((r) => !r.saved);

  const edit = (key: number, patch: Partial<ScheduleRow>) => {
    setRanges((list) => list.map((r) => (r.key === key ? { ...r, ...patch } : r)));
    setProblems([]);
    setFailure(null);
  };
  const addRange = (row: ScheduleRow) => {
    setRanges((list) => [...list, { ...row, days: [...row.days], key: nextKey.current++ }]);
    setProblems([]);
  };
  const removeRange = (key: number) => setRanges((list) => list.filter((r) => r.key !== key));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (open.length === 0) {
      if (saved.length > 0) return onDone();
      return setProblems([NO_SCHEDULE]);
    }
    const found = scheduleProblems(open);
    setProblems(found);
    if (found.length > 0) return;
    save.mutate(open, {
      onSuccess: (outcomes) => {
        const ok = new Set(open.filter((_, i) => outcomes[i].ok).map((r) => r.key));
        setRanges((list) => list.map((r) => (ok.has(r.key) ? { ...r, saved: true } : r)));
        const failed = outcomes.find((o) => !o.ok);
        if (!failed) return onDone();
        if (errorStatus(failed.error) === 401) return hardNavigate(LOGIN_URL);
        setFailure(errorMessage(failed.error, AVAILABILITY_FAILED));
      },
    });
  };

  return (
    <StepCard
      title="Your weekly hours"
      description={`When seekers can book you each week, in your time zone (${timeZoneLabel(timeZone)}). Start from a preset and adjust it; you can change it any time in your dashboard.`}
    >
      <form noValidate onSubmit={submit} className="space-y-6">
        {failure && <ErrorCard message={AVAILABILITY_FAILED} detail={failure} />}
        {problems.length > 0 && (
          <div role="alert" className="rounded-2xl border border-rose-200 bg-rose-50 p-4 text-sm text-rose-800">
            <ul className="list-disc space-y-1 pl-5">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          </div>
        )}
        {saved.length > 0 && (
          <div className="rounded-2xl border border-emerald-200 bg-emerald-50/60 p-4 text-sm text-emerald-900">
            <p className="font-medium">Already saved</p>
            <ul aria-label="Saved weekly hours" className="mt-1 space-y-0.5">
              {saved.map((s, i) => (
                <li key={i}>
                  {DAY_NAMES[s.dayOfWeek]} {windowLabel(s)}
                </li>
              ))}
            </ul>
          </div>
        )}
        <div role="group" aria-label="Presets" className="flex flex-wrap gap-2">
          {SCHEDULE_PRESETS.map((preset) => (
            <Button
              key={preset.name}
              type="button"
              variant="outline"
              size="sm"
              disabled={save.isPending}
              onClick={() => addRange(preset.row)}
            >
              <Plus aria-hidden="true" className="h-4 w-4" />
              {preset.name}
            </Button>
          ))}
        </div>
        {ranges.length === 0 && saved.length === 0 && (
          <p className="flex items-center gap-2 text-sm text-slate-500">
            <CalendarClock aria-hidden="true" className="h-4 w-4" />
            No hours yet: pick a preset above or add your own range.
          </p>
        )}
        <ol className="space-y-4">
          {ranges.map((range, index) => (
            <li
              key={range.key}
              aria-label={`Range ${index + 1}`}
              className="rounded-2xl border border-slate-200 p-4 sm:p-5"
            >
              <div className="mb-3 flex items-center justify-between gap-3">
                <h3 className="font-semibold text-slate-900">Range {index + 1}</h3>
                <DraftState
                  done={range.saved ? 'Saved' : null}
                  onRemove={() => removeRange(range.key)}
                  removeLabel={`Remove range ${index + 1}`}
                  disabled={save.isPending}
                />
              </div>
              <div className="space-y-4">
                <DayCheckboxes
                  legend={`Days for range ${index + 1}`}
                  value={range.days}
                  disabled={save.isPending || range.saved}
                  onChange={(days) => edit(range.key, { days })}
                />
                <div className="grid gap-4 sm:grid-cols-2">
                  <TimeSelect
                    label={`From (range ${index + 1})`}
                    kind="start"
                    value={range.startTime}
                    disabled={save.isPending || range.saved}
                    onChange={(startTime) => edit(range.key, { startTime })}
                  />
                  <TimeSelect
                    label={`Until (range ${index + 1})`}
                    kind="end"
                    value={range.endTime}
                    disabled={save.isPending || range.saved}
                    onChange={(endTime) => edit(range.key, { endTime })}
                  />
                </div>
              </div>
            </li>
          ))}
        </ol>
        <Button
          variant="outline"
          onClick={() => addRange({ days: [], startTime: '09:00', endTime: '17:00' })}
          disabled={save.isPending}
        >
          <Plus aria-hidden="true" className="h-4 w-4" />
          Add a Time Range
        </Button>
        <div className="flex flex-col-reverse gap-3 border-t border-slate-100 pt-5 sm:flex-row sm:justify-between">
          <BackButton onClick={onBack} disabled={save.isPending} />
          <Button type="submit" variant="gradient" size="lg" disabled={save.isPending}>
            {save.isPending ? 'Saving Hours...' : 'Complete Setup'}
          </Button>
        </div>
      </form>
    </StepCard>
  );
}

// --- Step 4: complete ----------------------------------------------------------------------

function CompleteStep({ onBack }: { onBack: () => void }) {
  return (
    <Card className="p-8 text-center sm:p-12">
      <span className="mx-auto inline-flex h-16 w-16 items-center justify-center rounded-2xl bg-gradient-to-br from-indigo-500 to-violet-600 text-white shadow-lg shadow-indigo-500/30">
        <Sparkles aria-hidden="true" className="h-8 w-8" />
      </span>
      <h2 className="mt-6 font-display text-3xl font-semibold text-slate-900">You're all set!</h2>
      <p className="mx-auto mt-3 max-w-md text-slate-600">
        Your mentor profile, services and hours are saved. Our team reviews every new mentor profile: once it is
        approved, seekers can find you, save you to their favorites and book your sessions. Your dashboard shows where
        the review stands.
      </p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <Button asChild variant="gradient" size="lg">
          <Link to="/mentor-dashboard">Go to Mentor Dashboard</Link>
        </Button>
        <Button asChild variant="outline" size="lg">
          <Link to="/mentors">View Your Profile</Link>
        </Button>
      </div>
      <div className="mt-6">
        <Button variant="link" onClick={onBack}>
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back
        </Button>
      </div>
    </Card>
  );
}

export default OnboardingPage;

type DraftStateProps = { done: string | null; onRemove?: () => void; removeLabel: string; disabled: boolean };

/** Beside a draft's title: a badge once it is stored, otherwise its Remove button (when it may go). */
function DraftState({ done, onRemove, removeLabel, disabled }: DraftStateProps) {
  if (done)
    return (
      <span className="rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-medium text-emerald-700">{done}</span>
    );
  if (!onRemove) return null;
  return (
    <Button variant="ghost" size="sm" onClick={onRemove} disabled={disabled} aria-label={removeLabel}>
      <Trash2 aria-hidden="true" className="h-4 w-4" />
      Remove
    </Button>
  );
}

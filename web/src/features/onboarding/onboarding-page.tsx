import { CircleAlert, Plus, Sparkles, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
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
import type { Service } from '@/lib/catalogue';
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
import { browserTimeZone } from '@/lib/time-zones';
import { TimeZoneField } from '@/components/time-zone-field';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import { useCreateMentorProfile, useCreateServices } from './api';

export const STEPS = ['Profile', 'Services', 'Complete'] as const;

/** 'Step N of 3' and the percent complete (33, 67, 100). */
export function progressPercent(step: number): number {
  return Math.round((step / STEPS.length) * 100);
}

export const PROFILE_FAILED = 'Failed to create mentor profile';
export const SERVICE_FAILED = 'Failed to create service';

export function OnboardingPage() {
  useDocumentTitle('Become a Mentor');
  const { user } = useUser();
  const { mentorProfile, isLoading } = useMentorProfile(!!user);
  const [step, setStep] = useState(1);
  const [mentorId, setMentorId] = useState<string | null>(null);
  // Set when this wizard sends step 1: from then on the new profile must not redirect away.
  const startedHere = useRef(false);

  // A signed-out visitor goes to the login endpoint (a browser navigation).
  useEffect(() => {
    if (!user) hardNavigate(LOGIN_URL);
  }, [user]);

  if (!user || isLoading) return <FullPageSpinner />;
  // A user who already has a mentor profile skips onboarding.
  if (mentorProfile && !startedHere.current) return <Navigate to="/mentor-dashboard" replace />;

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
          <p className="mt-2 text-slate-600">Set up your mentor profile and the services you offer in a few minutes.</p>
        </div>

        <Progress step={step} />

        <div className="mt-8">
          {step === 1 && (
            <ProfileStep
              onCreated={(id) => {
                setMentorId(id);
                setStep(2);
                window.scrollTo({ top: 0 });
              }}
              onStart={() => {
                startedHere.current = true;
              }}
            />
          )}
          {step === 2 && mentorId && (
            <ServicesStep
              mentorId={mentorId}
              onDone={() => {
                setStep(3);
                window.scrollTo({ top: 0 });
              }}
            />
          )}
          {step === 3 && <CompleteStep />}
        </div>
      </div>
    </div>
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
      <ol className="mt-4 grid grid-cols-3 gap-2 text-center text-sm">
        {STEPS.map((label, i) => {
          const n = i + 1;
          return (
            <li
              key={label}
              aria-current={n === step ? 'step' : undefined}
              className={cn(
                'flex flex-col items-center gap-1',
                n < step ? 'text-indigo-700' : n === step ? 'font-semibold text-slate-900' : 'text-slate-400',
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
    <div role="alert" className="flex gap-3 rounded-2xl border border-rose-200 bg-rose-50 p-4 text-rose-800 animate-fade-in">
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

function ProfileStep({ onCreated, onStart }: { onCreated: (mentorId: string) => void; onStart: () => void }) {
  const [form, setForm] = useState<ProfileForm>({
    displayName: '',
    bio: '',
    specialties: [],
    basePrice: '',
    profileImageUrl: '',
  });
  const [timeZone, setTimeZone] = useState(browserTimeZone);
  const [errors, setErrors] = useState<Errors<ProfileField>>({});
  const [submitted, setSubmitted] = useState(false);
  const create = useCreateMentorProfile();

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
    onStart();
    const image = form.profileImageUrl.trim();
    create.mutate(
      {
        displayName: form.displayName.trim(),
        bio: form.bio.trim(),
        specialties: normalizeSpecialties(form.specialties),
        basePrice: normalizePrice(form.basePrice)!,
        ...(image ? { profileImageUrl: image } : {}),
        timeZone,
      },
      {
        onSuccess: (mentor) => onCreated(mentor.id),
        onError: (error) => {
          if (errorStatus(error) === 401) hardNavigate(LOGIN_URL);
        },
      },
    );
  };

  const bioLength = form.bio.trim().length;
  return (
    <StepCard title="Your mentor profile" description="Tell seekers who you are and how you guide them.">
      <form noValidate onSubmit={submit} className="space-y-5">
        {create.isError && (
          <ErrorCard message={PROFILE_FAILED} detail={errorMessage(create.error, PROFILE_FAILED)} />
        )}
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
            <span aria-live="polite" className={cn('text-xs', bioLength > BIO_MAX ? 'text-rose-600' : 'text-slate-500')}>
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
        <FormField
          label="Profile Image URL (optional)"
          type="url"
          value={form.profileImageUrl}
          onChange={(e) => set({ profileImageUrl: e.target.value })}
          error={errors.profileImageUrl}
          placeholder="https://..."
        />
        <div className="flex justify-end pt-2">
          <Button type="submit" variant="gradient" size="lg" disabled={create.isPending}>
            {create.isPending ? 'Creating Profile...' : 'Continue'}
          </Button>
        </div>
      </form>
    </StepCard>
  );
}

// --- Step 2: services ----------------------------------------------------------------------

type Draft = { key: number; form: ServiceForm; errors: Errors<ServiceField>; created?: Service };

function ServicesStep({ mentorId, onDone }: { mentorId: string; onDone: () => void }) {
  const nextKey = useRef(1);
  const [drafts, setDrafts] = useState<Draft[]>([{ key: 0, form: EMPTY_SERVICE, errors: {} }]);
  const [failure, setFailure] = useState<string | null>(null);
  const create = useCreateServices();

  const update = (key: number, patch: Partial<ServiceForm>) =>
    setDrafts((list) =>
      list.map((d) => {
        if (d.key !== key) return d;
        const form = { ...d.form, ...patch };
        return { ...d, form, errors: hasErrors(d.errors) ? validateService(form, { requireDuration: true }) : d.errors };
      }),
    );

  const add = () => setDrafts((list) => [...list, { key: nextKey.current++, form: EMPTY_SERVICE, errors: {} }]);
  const remove = (key: number) => setDrafts((list) => list.filter((d) => d.key !== key));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const checked = drafts.map((d) => (d.created ? d : { ...d, errors: validateService(d.form, { requireDuration: true }) }));
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

  const open = drafts.filter((d) => !d.created);
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
                {draft.created ? (
                  <span className="rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-medium text-emerald-700">Created</span>
                ) : (
                  open.length > 1 && (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => remove(draft.key)}
                      disabled={create.isPending}
                      aria-label={`Remove service ${index + 1}`}
                    >
                      <Trash2 aria-hidden="true" className="h-4 w-4" />
                      Remove
                    </Button>
                  )
                )}
              </div>
              {draft.created ? (
                <p className="text-sm text-slate-600">
                  {draft.created.title} · {serviceLabel(draft.created.serviceType)} · {servicePriceText(draft.created.price)} ·{' '}
                  {draft.created.duration} minutes
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
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
          <Button variant="outline" onClick={add} disabled={create.isPending}>
            <Plus aria-hidden="true" className="h-4 w-4" />
            Add Another Service
          </Button>
          <Button type="submit" variant="gradient" size="lg" disabled={create.isPending}>
            {create.isPending ? 'Creating Services...' : 'Complete Setup'}
          </Button>
        </div>
      </form>
    </StepCard>
  );
}

// --- Step 3: complete ----------------------------------------------------------------------

function CompleteStep() {
  return (
    <Card className="p-8 text-center sm:p-12">
      <span className="mx-auto inline-flex h-16 w-16 items-center justify-center rounded-2xl bg-gradient-to-br from-indigo-500 to-violet-600 text-white shadow-lg shadow-indigo-500/30">
        <Sparkles aria-hidden="true" className="h-8 w-8" />
      </span>
      <h2 className="mt-6 font-display text-3xl font-semibold text-slate-900">You're all set!</h2>
      <p className="mx-auto mt-3 max-w-md text-slate-600">
        Your mentor profile and services are live. Seekers can now find you, save you to their favorites and book your
        sessions.
      </p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <Button asChild variant="gradient" size="lg">
          <Link to="/mentor-dashboard">Go to Mentor Dashboard</Link>
        </Button>
        <Button asChild variant="outline" size="lg">
          <Link to="/mentors">View Your Profile</Link>
        </Button>
      </div>
    </Card>
  );
}

export default OnboardingPage;

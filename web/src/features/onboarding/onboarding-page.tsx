import { Sparkles } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router';
import { FullPageSpinner } from '@/components/ui/spinner';
import { useMentorProfile, useUser } from '@/lib/auth';
import type { Mentor } from '@/lib/catalogue';
import { unfinishedStep } from '@/lib/mentor-setup';
import { hardNavigate, LOGIN_URL } from '@/lib/navigation';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import { useOwnAvailability } from './api';
import { AvailabilityStep } from './availability-step';
import { CompleteStep } from './complete-step';
import { ProfileStep } from './profile-step';
import { ServicesStep } from './services-step';
import { progressPercent, STEPS } from './steps';

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
          {current === 4 && mentor && <CompleteStep mentorId={mentor.id} onBack={() => go(3)} />}
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

export default OnboardingPage;

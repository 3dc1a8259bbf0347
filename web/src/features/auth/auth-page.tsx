import { useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { APP_NAME } from '@/config/constants';
import { errorCode, errorMessage, errorStatus } from '@/lib/api-fetch';
import { needsSecondFactor, useLogin, useRegister, useUser } from '@/lib/auth';
import { MODE_PARAM, NEXT_PARAM, safeNext } from '@/lib/navigation';
import { useDocumentTitle } from '@/lib/use-document-title';
import { AuthShell } from './auth-shell';
import { ResendVerificationLink } from './resend-verification';
import { TwoFactorStep } from './two-factor-step';

type Mode = 'login' | 'register';

export const LOGIN_FALLBACK = 'Login failed';
export const REGISTER_FALLBACK = 'Registration failed';

const EMPTY_FORM = { firstName: '', lastName: '', email: '', password: '', marketingEmails: false };

/** The registration form's opt-in to marketing e-mail: unticked unless the person ticks it. */
export const MARKETING_OPT_IN_LABEL = 'Send me news, workshops and offers by e-mail';

type Feedback =
  { kind: 'error'; message: string; resendEmail?: string } | { kind: 'success'; message: string; resendEmail?: string };

/** A 403 on sign-in means unverified or deactivated; only the first is helped by a new link. */
function offersResend(error: unknown): boolean {
  return errorStatus(error) === 403 && errorCode(error) === 'email_not_verified';
}

export function AuthPage() {
  const { user } = useUser();
  const [params] = useSearchParams();
  const [mode, setMode] = useState<Mode>(() => (params.get(MODE_PARAM) === 'register' ? 'register' : 'login'));
  const [form, setForm] = useState(EMPTY_FORM);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const next = safeNext(params.get(NEXT_PARAM));
  const login = useLogin(next);
  const register = useRegister();
  useDocumentTitle(mode === 'login' ? 'Sign in' : 'Create account');

  if (user) return <Navigate to={next ?? '/'} replace />;

  // The password was right and the account has two factors: the second step follows.
  const secondStep = mode === 'login' && needsSecondFactor(login.data);
  // After a successful sign-in the page reloads at /; keep the button busy until then.
  const submitting = login.isPending || register.isPending || (login.isSuccess && !secondStep);

  const set = (field: 'firstName' | 'lastName' | 'email' | 'password') => (e: React.ChangeEvent<HTMLInputElement>) =>
    setForm((f) => ({ ...f, [field]: e.target.value }));

  const switchMode = (next: Mode) => {
    setMode(next);
    setFeedback(null);
  };

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setFeedback(null);
    if (mode === 'login') {
      const email = form.email.trim();
      login.mutate(
        { email, password: form.password },
        {
          onError: (error) =>
            setFeedback({
              kind: 'error',
              message: errorMessage(error, LOGIN_FALLBACK),
              resendEmail: offersResend(error) ? email : undefined,
            }),
        },
      );
      return;
    }
    const input = {
      email: form.email.trim(),
      password: form.password,
      firstName: form.firstName.trim(),
      lastName: form.lastName.trim(),
      marketingEmails: form.marketingEmails,
      // The page that sent them here (e.g. 'Become a Mentor'): the verification link brings them back.
      ...(next ? { next } : {}),
    };
    register.mutate(input, {
      onSuccess: (data) => {
        setForm(EMPTY_FORM);
        if (data?.requiresVerification) {
          setFeedback({
            kind: 'success',
            message: data.message || 'Account created. Please check your email to verify your address.',
            resendEmail: input.email,
          });
        } else {
          setFeedback({ kind: 'success', message: data?.message || 'Account created. You can sign in now.' });
          setMode('login');
        }
      },
      onError: (error) => setFeedback({ kind: 'error', message: errorMessage(error, REGISTER_FALLBACK) }),
    });
  };

  return (
    <AuthShell
      title={mode === 'login' ? 'Welcome back' : 'Create your account'}
      subtitle={
        mode === 'login'
          ? `Sign in to continue your journey with ${APP_NAME}.`
          : 'Join a community of seekers and trusted spiritual mentors.'
      }
    >
      {feedback && (
        <Alert variant={feedback.kind} className="mb-5">
          <p>{feedback.message}</p>
          {feedback.resendEmail && <ResendVerificationLink email={feedback.resendEmail} />}
        </Alert>
      )}

      {secondStep ? (
        <TwoFactorStep
          next={next}
          onRestart={(message) => {
            login.reset();
            setForm((f) => ({ ...f, password: '' }));
            setFeedback({ kind: 'error', message });
          }}
        />
      ) : (
        <form onSubmit={onSubmit} className="space-y-4">
          {mode === 'register' && (
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                label="First Name"
                name="firstName"
                autoComplete="given-name"
                required
                value={form.firstName}
                onChange={set('firstName')}
              />
              <FormField
                label="Last Name"
                name="lastName"
                autoComplete="family-name"
                required
                value={form.lastName}
                onChange={set('lastName')}
              />
            </div>
          )}
          <FormField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            value={form.email}
            onChange={set('email')}
          />
          <FormField
            label="Password"
            name="password"
            type="password"
            autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
            required
            value={form.password}
            onChange={set('password')}
            labelAside={
              mode === 'login' ? (
                <Link to="/forgot-password" className="text-sm font-medium text-indigo-600 hover:text-indigo-800">
                  Forgot password?
                </Link>
              ) : undefined
            }
          />
          {mode === 'register' && (
            <label className="flex items-start gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                name="marketingEmails"
                className="mt-0.5 h-4 w-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-indigo-500"
                checked={form.marketingEmails}
                onChange={(e) => setForm((f) => ({ ...f, marketingEmails: e.target.checked }))}
              />
              {MARKETING_OPT_IN_LABEL}
            </label>
          )}
          <Button type="submit" variant="gradient" size="lg" className="w-full" disabled={submitting}>
            {submitting ? 'Processing...' : mode === 'login' ? 'Sign In' : 'Create Account'}
          </Button>
        </form>
      )}

      <div className="mt-6 space-y-3 text-center text-sm text-slate-600">
        {mode === 'login' ? (
          <p>
            New here?{' '}
            <button
              type="button"
              onClick={() => switchMode('register')}
              className="font-semibold text-indigo-600 hover:text-indigo-800"
            >
              Register
            </button>
          </p>
        ) : (
          <p>
            Already have an account?{' '}
            <button
              type="button"
              onClick={() => switchMode('login')}
              className="font-semibold text-indigo-600 hover:text-indigo-800"
            >
              Log in
            </button>
          </p>
        )}
        <p>
          <Link to="/verify-email" className="text-slate-500 underline-offset-4 hover:text-indigo-700 hover:underline">
            Didn't get a verification email?
          </Link>
        </p>
      </div>
    </AuthShell>
  );
}

export default AuthPage;

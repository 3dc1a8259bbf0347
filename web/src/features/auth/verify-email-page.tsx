import { MailCheck } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { AUTH_REDIRECT_DELAY_MS } from './constants';
import { errorMessage } from '@/lib/api-fetch';
import { NEXT_PARAM, safeNext, signInPath } from '@/lib/navigation';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useResendVerification, useVerifyEmail } from './api';
import { AuthShell } from './auth-shell';
import { RESEND_FALLBACK } from './resend-verification';
import { useRedirectAfter } from './use-redirect-after';

export const VERIFY_FALLBACK = 'Failed to verify email';

export function VerifyEmailPage() {
  useDocumentTitle('Verify email');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  // Where registration meant to bring them (e.g. the mentor wizard): signing in goes on there.
  const signIn = signInPath(safeNext(params.get(NEXT_PARAM)) ?? '/');
  const verify = useVerifyEmail();
  const { mutate: verifyToken } = verify;
  const started = useRef<string | null>(null);

  // Verify once per token: the link is single use, so a second request would fail.
  useEffect(() => {
    if (token && started.current !== token) {
      started.current = token;
      verifyToken(token);
    }
  }, [token, verifyToken]);

  useRedirectAfter(verify.isSuccess, signIn, AUTH_REDIRECT_DELAY_MS);

  if (token && (verify.isIdle || verify.isPending)) {
    return (
      <AuthShell title="Verifying your email">
        <div className="flex flex-col items-center gap-3 py-4 text-sm text-slate-600">
          <Spinner label="Verifying" className="h-8 w-8 text-indigo-600" />
          <p>Verifying your email...</p>
        </div>
      </AuthShell>
    );
  }

  if (verify.isSuccess) {
    return (
      <AuthShell title="Email verified">
        <div className="flex flex-col items-center gap-4 text-center">
          <MailCheck aria-hidden="true" className="h-12 w-12 text-emerald-500" />
          <Alert variant="success" className="w-full text-left">
            <p>{verify.data?.message || 'Your email address has been verified.'}</p>
            <p>Redirecting you to sign in...</p>
          </Alert>
          <Button asChild variant="gradient" className="w-full">
            <Link to={signIn}>Go to Sign In</Link>
          </Button>
        </div>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title="Verify your email"
      subtitle={
        token
          ? undefined
          : 'Open the link in the email we sent you, or ask for a new one below. Links stay valid for 24 hours.'
      }
    >
      {verify.isError && (
        <Alert variant="error" className="mb-5">
          <p>{errorMessage(verify.error, VERIFY_FALLBACK)}</p>
          <p>You can ask for a new verification link below.</p>
        </Alert>
      )}
      <ResendForm />
      <div className="mt-6 text-center text-sm">
        <Link to="/auth" className="font-medium text-indigo-600 hover:text-indigo-800">
          Back to Sign In
        </Link>
      </div>
    </AuthShell>
  );
}

function ResendForm() {
  const [email, setEmail] = useState('');
  const resend = useResendVerification();
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    resend.mutate(email.trim());
  };
  return (
    <form onSubmit={onSubmit} className="space-y-4">
      {resend.isSuccess && (
        <Alert variant="success">
          <p>{resend.data?.message || 'If that address needs verifying, a new link is on its way.'}</p>
        </Alert>
      )}
      {resend.isError && (
        <Alert variant="error">
          <p>{errorMessage(resend.error, RESEND_FALLBACK)}</p>
        </Alert>
      )}
      <FormField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
      />
      <Button type="submit" variant="gradient" size="lg" className="w-full" disabled={resend.isPending}>
        {resend.isPending ? 'Sending...' : 'Resend Verification Email'}
      </Button>
    </form>
  );
}

export default VerifyEmailPage;

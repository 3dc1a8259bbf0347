import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { MIN_PASSWORD_LENGTH } from '@/config/constants';
import { AUTH_REDIRECT_DELAY_MS } from './constants';
import { errorMessage } from '@/lib/api-fetch';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useResetPassword } from './api';
import { AuthShell } from './auth-shell';
import { useRedirectAfter } from './use-redirect-after';

export const RESET_FALLBACK = 'Failed to reset password';
export const INVALID_RESET_LINK = 'Invalid reset link. Please request a new password reset.';
export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/** The client-side checks of a new password and its confirmation (docs/accounts.md). */
export function validateNewPassword(password: string, confirm: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT;
  if (password !== confirm) return PASSWORDS_DO_NOT_MATCH;
  return null;
}

export function ResetPasswordPage() {
  useDocumentTitle('Reset password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [validation, setValidation] = useState<string | null>(null);
  const reset = useResetPassword();
  useRedirectAfter(reset.isSuccess, '/auth', AUTH_REDIRECT_DELAY_MS);

  if (!token) {
    return (
      <AuthShell title="Reset your password">
        <Alert variant="error">
          <p>{INVALID_RESET_LINK}</p>
        </Alert>
        <div className="mt-6 flex flex-col gap-3 text-center text-sm">
          <Button asChild variant="gradient">
            <Link to="/forgot-password">Request a new link</Link>
          </Button>
          <Link to="/auth" className="font-medium text-indigo-600 hover:text-indigo-800">
            Back to Sign In
          </Link>
        </div>
      </AuthShell>
    );
  }

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const problem = validateNewPassword(password, confirm);
    setValidation(problem);
    if (problem) return;
    reset.mutate({ token, newPassword: password });
  };

  return (
    <AuthShell title="Choose a new password" subtitle={`Use at least ${MIN_PASSWORD_LENGTH} characters.`}>
      {reset.isSuccess ? (
        <Alert variant="success">
          <p>{reset.data?.message || 'Your password has been reset.'}</p>
          <p>Redirecting you to sign in...</p>
        </Alert>
      ) : (
        <>
          {(validation || reset.isError) && (
            <Alert variant="error" className="mb-5">
              <p>{validation ?? errorMessage(reset.error, RESET_FALLBACK)}</p>
              {!validation && (
                <Link to="/forgot-password" className="font-medium underline underline-offset-4">
                  Request a new reset link
                </Link>
              )}
            </Alert>
          )}
          <form onSubmit={onSubmit} className="space-y-4">
            <FormField
              label="New Password"
              name="newPassword"
              type="password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <FormField
              label="Confirm Password"
              name="confirmPassword"
              type="password"
              autoComplete="new-password"
              required
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
            />
            <Button type="submit" variant="gradient" size="lg" className="w-full" disabled={reset.isPending}>
              {reset.isPending ? 'Resetting...' : 'Reset Password'}
            </Button>
          </form>
        </>
      )}
      <div className="mt-6 text-center text-sm">
        <Link to="/auth" className="font-medium text-indigo-600 hover:text-indigo-800">
          Back to Sign In
        </Link>
      </div>
    </AuthShell>
  );
}

export default ResetPasswordPage;

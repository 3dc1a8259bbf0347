import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api-fetch';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useForgotPassword } from './api';
import { AuthShell } from './auth-shell';

export const FORGOT_FALLBACK = 'Failed to send reset email';

export function ForgotPasswordPage() {
  useDocumentTitle('Forgot password');
  const [email, setEmail] = useState('');
  const forgot = useForgotPassword();

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    forgot.mutate(email.trim());
  };

  return (
    <AuthShell
      title="Forgot your password?"
      subtitle="Enter the email address of your account and we'll send you a link to choose a new password."
    >
      {forgot.isSuccess && (
        <Alert variant="success" className="mb-5">
          <p>{forgot.data?.message || 'If an account exists for that address, a reset link is on its way.'}</p>
        </Alert>
      )}
      {forgot.isError && (
        <Alert variant="error" className="mb-5">
          <p>{errorMessage(forgot.error, FORGOT_FALLBACK)}</p>
        </Alert>
      )}
      <form onSubmit={onSubmit} className="space-y-4">
        <FormField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Button type="submit" variant="gradient" size="lg" className="w-full" disabled={forgot.isPending}>
          {forgot.isPending ? 'Sending...' : 'Send Reset Link'}
        </Button>
      </form>
      <div className="mt-6 text-center text-sm">
        <Link to="/auth" className="font-medium text-indigo-600 hover:text-indigo-800">
          Back to Sign In
        </Link>
      </div>
    </AuthShell>
  );
}

export default ForgotPasswordPage;

import { errorMessage } from '@/lib/api-fetch';
import { useResendVerification } from './api';

export const RESEND_FALLBACK = 'Failed to resend verification email';

/** The 'Resend verification email' link shown after registering or an unverified sign-in. */
export function ResendVerificationLink({ email }: { email: string }) {
  const resend = useResendVerification();
  return (
    <div className="space-y-1">
      <button
        type="button"
        className="font-medium text-indigo-700 underline underline-offset-4 hover:text-indigo-900 disabled:opacity-60"
        disabled={resend.isPending || !email}
        onClick={() => resend.mutate(email)}
      >
        {resend.isPending ? 'Sending...' : 'Resend verification email'}
      </button>
      {resend.isSuccess && (
        <p role="status" className="text-emerald-700">
          {resend.data?.message || 'Verification email sent.'}
        </p>
      )}
      {resend.isError && (
        <p role="alert" className="text-rose-700">
          {errorMessage(resend.error, RESEND_FALLBACK)}
        </p>
      )}
    </div>
  );
}

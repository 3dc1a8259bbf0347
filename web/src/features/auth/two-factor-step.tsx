import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { errorCode, errorMessage } from '@/lib/api-fetch';
import { useLoginTwoFactor } from '@/lib/auth';

export const TWO_FACTOR_FALLBACK = 'Verification failed';

/** The sign-in form's second step: a code from the authenticator app, or a recovery code. */
export function TwoFactorStep({ next, onRestart }: { next: string | null; onRestart: (message: string) => void }) {
  const [useRecovery, setUseRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const verify = useLoginTwoFactor(next);
  const busy = verify.isPending || verify.isSuccess;

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setProblem(null);
    const entered = value.trim();
    verify.mutate(useRecovery ? { recoveryCode: entered } : { code: entered.replace(/\s+/g, '') }, {
      onError: (error) => {
        // 5 minutes passed or the fifth wrong code: back to the password.
        if (errorCode(error) === 'two_factor_attempt_ended') onRestart(errorMessage(error, TWO_FACTOR_FALLBACK));
        else setProblem(errorMessage(error, TWO_FACTOR_FALLBACK));
        setValue('');
      },
    });
  };

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Two-factor verification">
      <p className="text-sm text-slate-600">
        {useRecovery
          ? 'Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each works once.'
          : 'Enter the 6-digit code from your authenticator app.'}
      </p>
      {problem && (
        <Alert variant="error">
          <p>{problem}</p>
        </Alert>
      )}
      <FormField
        label={useRecovery ? 'Recovery code' : 'Authentication code'}
        name={useRecovery ? 'recoveryCode' : 'code'}
        autoComplete="one-time-code"
        inputMode={useRecovery ? 'text' : 'numeric'}
        required
        autoFocus
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <Button type="submit" variant="gradient" size="lg" className="w-full" disabled={busy}>
        {busy ? 'Verifying...' : 'Verify'}
      </Button>
      <button
        type="button"
        className="w-full text-center text-sm font-medium text-indigo-600 hover:text-indigo-800"
        onClick={() => {
          setUseRecovery((r) => !r);
          setValue('');
          setProblem(null);
        }}
      >
        {useRecovery ? 'Use a code from the app instead' : 'Use a recovery code instead'}
      </button>
    </form>
  );
}

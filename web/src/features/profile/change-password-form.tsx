import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { MIN_PASSWORD_LENGTH } from '@/config/constants';
import { errorMessage } from '@/lib/api-fetch';
import { useChangePassword } from './api';
import { PASSWORD_CHANGED, PASSWORD_CHANGE_FAILED, validatePasswordChange, type PasswordChange } from './validation';

const EMPTY: PasswordChange = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** The change-password form; `onDone` closes it (after a change or on Cancel). */
export function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const [values, setValues] = useState<PasswordChange>(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const change = useChangePassword();

  const set = (key: keyof PasswordChange) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: e.target.value }));

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const invalid = validatePasswordChange(values);
    setProblem(invalid);
    if (invalid) return;
    change.mutate(
      { currentPassword: values.currentPassword, newPassword: values.newPassword },
      {
        onSuccess: () => {
          toast.success(PASSWORD_CHANGED);
          setValues(EMPTY);
          onDone();
        },
        onError: (error) => toast.error(PASSWORD_CHANGE_FAILED, { description: errorMessage(error, '') || undefined }),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Change password">
      {problem && (
        <Alert variant="error">
          <p>{problem}</p>
        </Alert>
      )}
      <FormField
        label="Current Password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        required
        value={values.currentPassword}
        onChange={set('currentPassword')}
      />
      <FormField
        label="New Password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        required
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        value={values.newPassword}
        onChange={set('newPassword')}
      />
      <FormField
        label="Confirm New Password"
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        required
        value={values.confirmPassword}
        onChange={set('confirmPassword')}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? 'Updating...' : 'Update Password'}
        </Button>
        <Button variant="outline" onClick={onDone} disabled={change.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { cancelAccountDeletion, deleteAccount } from '@/api/endpoints/accounts/accounts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api-fetch';
import { AUTH_USER_KEY, type User } from '@/lib/auth';
import { profileKeys } from './api';

// Delete my account: POST /api/user/delete-account {password}, POST /api/user/cancel-deletion.

/** The day the account goes, as the banner and the toast say it. */
export function deletionDate(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' });
}

/** 'Your account will be deleted on {date}' with 'Keep my account', while a deletion is scheduled. */
export function DeletionBanner({ deletionScheduledAt }: { deletionScheduledAt: string }) {
  const queryClient = useQueryClient();
  const keep = useMutation({
    mutationFn: () => cancelAccountDeletion(),
    onSuccess: (user) => {
      queryClient.setQueryData<User>(AUTH_USER_KEY, user);
      void queryClient.invalidateQueries({ queryKey: profileKeys.own() });
      toast.success('Your account is kept.');
    },
    onError: (e) => toast.error(errorMessage(e, 'Could not keep your account')),
  });
  return (
    <Alert variant="error">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="font-medium">Your account will be deleted on {deletionDate(deletionScheduledAt)}</p>
        <Button size="sm" disabled={keep.isPending} onClick={() => keep.mutate()}>
          Keep my account
        </Button>
      </div>
    </Alert>
  );
}

/** Deleting the account: what happens, spelled out, then the password to confirm. */
export function DeleteAccountSection() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: () => deleteAccount({ password }),
    onSuccess: (r) => {
      toast.success(
        `Your account will be deleted on ${deletionDate(r.deletionScheduledAt)}. Sign in before then to keep it.`,
      );
      // Every session ended, this one too.
      queryClient.setQueryData(AUTH_USER_KEY, null);
      void navigate('/');
    },
    onError: (e) => setProblem(errorMessage(e, 'Could not delete your account')),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setProblem(null);
    remove.mutate();
  };
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Delete my account">
      <div className="text-sm text-slate-600">
        <p>If you delete your account:</p>
        <ul className="ml-5 list-disc space-y-1">
          <li>you are signed out on every device at once;</li>
          <li>
            your upcoming sessions are cancelled: as a seeker you get the refund the cancellation policy gives; as a
            mentor your seekers get everything back and your profile is no longer listed;
          </li>
          <li>
            after 14 days your name, e-mail address, password, profile, picture, uploads, favourites, notifications and
            payout details are removed for good;
          </li>
          <li>
            messages you sent stay in the other person&apos;s conversation, and reviews and payment records stay for the
            books, all shown as &lsquo;Deleted user&rsquo;.
          </li>
        </ul>
        <p className="mt-2">
          Until then you can sign in and keep your account. Download your data first if you want a copy.
        </p>
      </div>
      {problem && (
        <Alert variant="error">
          <p>{problem}</p>
        </Alert>
      )}
      <FormField
        label="Password"
        name="delete-account-password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <Button type="submit" variant="destructive" size="sm" disabled={remove.isPending || !password}>
        Delete my account
      </Button>
    </form>
  );
}

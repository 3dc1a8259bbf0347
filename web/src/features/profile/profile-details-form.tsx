import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage } from '@/lib/api-fetch';
import { useUpdateProfile } from './api';
import { NO_CHANGES, PROFILE_UPDATED, PROFILE_UPDATE_FAILED, profileEdit, type ProfileDraft } from './validation';

type Props = {
  saved: ProfileDraft;
  /** Closes edit mode; `newEmail` is set when the e-mail address changed. */
  onDone: (result?: { newEmail?: string }) => void;
};

/** Edit mode of /profile: first name, last name, email (required) and bio. */
export function ProfileDetailsForm({ saved, onDone }: Props) {
  const [draft, setDraft] = useState<ProfileDraft>(saved);
  const [problem, setProblem] = useState<string | null>(null);
  const update = useUpdateProfile();

  const set = (key: keyof ProfileDraft) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }));

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const edit = profileEdit(saved, draft);
    if (edit.kind === 'invalid') {
      setProblem(edit.message);
      return;
    }
    setProblem(null);
    if (edit.kind === 'unchanged') {
      toast.info(NO_CHANGES);
      return;
    }
    update.mutate(edit.update, {
      onSuccess: () => {
        toast.success(PROFILE_UPDATED);
        onDone(edit.emailChanged ? { newEmail: edit.update.email } : undefined);
      },
      onError: (error) => toast.error(PROFILE_UPDATE_FAILED, { description: errorMessage(error, '') || undefined }),
    });
  };

  const emailWillChange = draft.email.trim() !== saved.email.trim() && draft.email.trim() !== '';

  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Edit profile">
      {problem && (
        <Alert variant="error">
          <p>{problem}</p>
        </Alert>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="First Name"
          name="firstName"
          autoComplete="given-name"
          value={draft.firstName}
          onChange={set('firstName')}
        />
        <FormField
          label="Last Name"
          name="lastName"
          autoComplete="family-name"
          value={draft.lastName}
          onChange={set('lastName')}
        />
      </div>
      <FormField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={draft.email}
        onChange={set('email')}
        hint={
          emailWillChange
            ? 'We will send a verification link to the new address; verify it before you next sign in.'
            : undefined
        }
      />
      <Field label="Bio">
        {(control) => (
          <Textarea
            {...control}
            name="bio"
            rows={4}
            placeholder="A few words about yourself and your spiritual journey"
            value={draft.bio}
            onChange={set('bio')}
          />
        )}
      </Field>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Changes'}
        </Button>
        <Button variant="outline" onClick={() => onDone()} disabled={update.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

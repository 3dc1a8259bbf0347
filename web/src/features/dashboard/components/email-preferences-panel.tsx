import { CircleAlert, RefreshCw } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { DASHBOARD_TEXT } from '@/features/dashboard/texts';
import { useEmailPreferences, useUpdateEmailPreferences, type EmailPreference } from '../api';

/** The four toggles, in this order. */
export const EMAIL_PREFERENCES: { key: EmailPreference; label: string; description: string }[] = [
  {
    key: 'bookingConfirmations',
    label: 'Booking confirmations',
    description: 'An e-mail when a session is booked, rescheduled or cancelled.',
  },
  {
    key: 'bookingReminders',
    label: 'Booking reminders',
    description: 'Reminders 24 hours and 1 hour before a session.',
  },
  { key: 'marketingEmails', label: 'Marketing emails', description: 'News, offers and new mentors on the platform.' },
  {
    key: 'reviewRequests',
    label: 'Review requests',
    description: 'A request to review a session after it is completed.',
  },
];

/**
 * The e-mail preferences as a dashboard tab (GET /api/user/email-preferences). Each
 * toggle saves at once with PUT (the one changed boolean); the toggles are disabled while saving.
 */
export function EmailPreferencesPanel() {
  const preferences = useEmailPreferences();
  const update = useUpdateEmailPreferences();

  if (preferences.isLoading) {
    return (
      <Card className="flex justify-center p-10">
        <Spinner label="Loading email preferences" className="h-8 w-8 text-indigo-600" />
      </Card>
    );
  }
  if (preferences.isError || !preferences.data) {
    return (
      <Card role="alert" className="flex flex-col items-center gap-4 p-8 text-center">
        <p className="flex items-center gap-2 font-medium text-rose-700">
          <CircleAlert aria-hidden="true" className="h-5 w-5" />
          {DASHBOARD_TEXT.preferencesLoadFailed}
        </p>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void preferences.refetch()}
          disabled={preferences.isFetching}
        >
          <RefreshCw aria-hidden="true" className="h-4 w-4" />
          Retry
        </Button>
      </Card>
    );
  }

  const saved = preferences.data;
  // While a change is saving, its switch shows the new value.
  const pending = update.isPending ? update.variables : undefined;
  const change = (key: EmailPreference, value: boolean) =>
    update.mutate(
      { [key]: value },
      {
        onError: () =>
          toast.error(DASHBOARD_TEXT.preferencesUpdateFailedTitle, {
            description: DASHBOARD_TEXT.preferencesUpdateFailed,
          }),
      },
    );

  return (
    <Card className="p-6">
      <h3 className="font-display text-lg font-semibold text-slate-900">Email Preferences</h3>
      <p className="mt-1 text-sm text-slate-600">Choose which e-mails we send you. Changes save at once.</p>
      <ul className="mt-5 divide-y divide-slate-100" aria-busy={update.isPending || undefined}>
        {EMAIL_PREFERENCES.map(({ key, label, description }) => {
          const id = `email-pref-${key}`;
          const checked = pending?.[key] ?? saved[key];
          return (
            <li key={key} className="flex items-center justify-between gap-4 py-4">
              <div className="min-w-0">
                <Label htmlFor={id}>{label}</Label>
                <p id={`${id}-hint`} className="mt-0.5 text-sm text-slate-500">
                  {description}
                </p>
              </div>
              <Switch
                id={id}
                aria-describedby={`${id}-hint`}
                checked={checked}
                disabled={update.isPending}
                onCheckedChange={(value) => change(key, value)}
              />
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

import { BellOff, BellRing, CircleAlert, Laptop, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@/lib/api-fetch';
import { formatDateTime } from '@/lib/format';
import {
  PUSH_TEXT,
  deviceName,
  effectivePushState,
  useBrowserPushState,
  usePushDevices,
  usePushPreferences,
  useRemovePushDevice,
  useTogglePush,
  useUpdatePushPreferences,
  type PushPreferencesView,
} from '@/lib/push';

/** The five switches, in this order. */
export const PUSH_PREFERENCES: { key: keyof PushPreferencesView; label: string; description: string }[] = [
  { key: 'calls', label: 'Calls', description: 'Ring this device when someone calls you.' },
  { key: 'messages', label: 'Messages', description: 'New messages while you are not on the site.' },
  { key: 'bookings', label: 'Bookings', description: 'Sessions booked, rescheduled or cancelled.' },
  { key: 'reminders', label: 'Reminders', description: 'One hour before a session starts.' },
  { key: 'groupSessions', label: 'Group sessions', description: 'When a group session you joined starts.' },
];

/**
 * Push notifications in the notification settings: this browser's state with 'Turn on
 * notifications' (the only place, with the prompt after a first booking, that asks for
 * permission, and only on a click), what is pushed, and the user's other subscribed devices.
 */
export function PushSettings() {
  const browser = useBrowserPushState();
  const devices = usePushDevices();
  const toggle = useTogglePush();
  const state = effectivePushState(browser.data, devices.data);
  // This browser's row: its endpoint, else the one its session saved.
  const endpoint = browser.data?.endpoint;
  const thisDevice = devices.data?.find((d) => d.endpoint === endpoint) ?? devices.data?.find((d) => d.current);
  const others = devices.data?.filter((d) => d.id !== thisDevice?.id) ?? [];

  const turn = (on: boolean) =>
    toggle.mutate(
      { on, id: thisDevice?.id },
      {
        onSuccess: (s) => {
          if (s === 'on') toast.success(PUSH_TEXT.turnedOn);
          else if (s === 'denied') toast.error(PUSH_TEXT.failed, { description: PUSH_TEXT.denied });
          else if (!on) toast.success(PUSH_TEXT.turnedOff);
        },
        onError: (error) => toast.error(PUSH_TEXT.failed, { description: errorMessage(error, PUSH_TEXT.failed) }),
      },
    );

  return (
    <Card className="p-6">
      <h2 id="push-settings-title" className="font-display text-lg font-semibold text-slate-900">
        Push notifications
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Calls, messages and booking updates on this device, even when the site is closed.
      </p>

      <div className="mt-5 flex flex-wrap items-center justify-between gap-4 rounded-xl bg-slate-50 p-4">
        <p className="flex items-center gap-2 text-sm font-medium text-slate-800" data-testid="push-browser-state">
          {state === 'on' ? (
            <BellRing aria-hidden="true" className="h-5 w-5 text-indigo-600" />
          ) : (
            <BellOff aria-hidden="true" className="h-5 w-5 text-slate-500" />
          )}
          {state === 'on'
            ? PUSH_TEXT.turnedOn
            : state === 'unsupported'
              ? PUSH_TEXT.unsupported
              : state === 'denied'
                ? PUSH_TEXT.denied
                : PUSH_TEXT.turnedOff}
        </p>
        {state === 'on' ? (
          <Button variant="outline" onClick={() => turn(false)} disabled={toggle.isPending}>
            {PUSH_TEXT.turnOff}
          </Button>
        ) : state === 'off' ? (
          <Button onClick={() => turn(true)} disabled={toggle.isPending}>
            <BellRing aria-hidden="true" className="h-4 w-4" />
            {PUSH_TEXT.turnOn}
          </Button>
        ) : null}
      </div>

      <PushPreferencesList />

      <h3 className="mt-6 text-sm font-semibold text-slate-900">Your other devices</h3>
      {devices.isError ? (
        <p className="mt-2 flex items-center gap-2 text-sm text-rose-700">
          <CircleAlert aria-hidden="true" className="h-4 w-4" />
          {PUSH_TEXT.devicesLoadFailed}
        </p>
      ) : others.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">
          {devices.isLoading ? 'Loading…' : 'No other device gets notifications.'}
        </p>
      ) : (
        <ul aria-label="Your other devices" className="mt-2 divide-y divide-slate-100">
          {others.map((d) => (
            <DeviceRow key={d.id} id={d.id} name={deviceName(d.userAgent)} since={d.createdAt} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function DeviceRow({ id, name, since }: { id: string; name: string; since: string }) {
  const remove = useRemovePushDevice();
  return (
    <li className="flex items-center justify-between gap-4 py-3">
      <span className="flex min-w-0 items-center gap-3">
        <Laptop aria-hidden="true" className="h-5 w-5 shrink-0 text-slate-500" />
        <span className="min-w-0">
          <span className="block truncate text-sm font-medium text-slate-800">{name}</span>
          <span className="block text-xs text-slate-500">Since {formatDateTime(since)}</span>
        </span>
      </span>
      <Button
        variant="ghost"
        size="sm"
        aria-label={`Remove ${name}`}
        disabled={remove.isPending}
        onClick={() =>
          remove.mutate(id, {
            onSuccess: () => toast.success(PUSH_TEXT.deviceRemoved),
            onError: (error) =>
              toast.error('Error', { description: errorMessage(error, PUSH_TEXT.deviceRemoveFailed) }),
          })
        }
      >
        <Trash2 aria-hidden="true" className="h-4 w-4" />
      </Button>
    </li>
  );
}

function PushPreferencesList() {
  const preferences = usePushPreferences();
  const update = useUpdatePushPreferences();
  if (preferences.isError) {
    return (
      <p className="mt-4 flex items-center gap-2 text-sm text-rose-700">
        <CircleAlert aria-hidden="true" className="h-4 w-4" />
        {PUSH_TEXT.preferencesLoadFailed}
      </p>
    );
  }
  const saved = preferences.data;
  const pending = update.isPending ? update.variables : undefined;
  return (
    <ul className="mt-4 divide-y divide-slate-100" aria-busy={update.isPending || preferences.isLoading || undefined}>
      {PUSH_PREFERENCES.map(({ key, label, description }) => {
        const id = `push-pref-${key}`;
        return (
          <li key={key} className="flex items-center justify-between gap-4 py-3">
            <div className="min-w-0">
              <Label htmlFor={id}>{label}</Label>
              <p id={`${id}-hint`} className="mt-0.5 text-sm text-slate-500">
                {description}
              </p>
            </div>
            <Switch
              id={id}
              aria-describedby={`${id}-hint`}
              checked={pending?.[key] ?? saved?.[key] ?? true}
              disabled={!saved || update.isPending}
              onCheckedChange={(value) =>
                update.mutate(
                  { [key]: value },
                  { onError: () => toast.error('Error', { description: PUSH_TEXT.preferencesUpdateFailed }) },
                )
              }
            />
          </li>
        );
      })}
    </ul>
  );
}

import { CalendarCheck, CircleAlert, Link2, RefreshCw, Unlink } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { FullPageSpinner } from '@/components/ui/spinner';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@/lib/api-fetch';
import { formatDateTimeOrDash } from '@/lib/format';
import {
  type CalendarConnection,
  type ConnectedCalendar,
  useCalendarConnection,
  useConnectCalendar,
  useDisconnectCalendar,
  useSyncCalendar,
  useUpdateConnectedCalendar,
} from './calendar-api';

export const CALENDAR_TEXT = {
  connectFailed: 'The calendar could not be connected',
  updateFailed: 'Failed to update the calendar',
  syncFailed: 'Failed to start a sync',
  disconnectFailed: 'Failed to disconnect the calendar',
  loadFailed: 'Your calendar connection could not be loaded.',
} as const;

const STATE_LABEL: Record<CalendarConnection['state'], string> = {
  ok: 'Connected',
  syncing: 'Syncing...',
  failing: 'Failing',
};

/** Above the tabs: a connection failing for a day or more ('needsAttention'); nothing otherwise. */
export function CalendarAttentionBanner({ onOpen }: { onOpen: () => void }) {
  const connection = useCalendarConnection();
  if (!connection.data?.needsAttention) return null;
  return (
    <section
      aria-label="Calendar connection"
      className="mb-8 flex flex-wrap items-center gap-3 rounded-xl border border-rose-200 bg-rose-50 p-4 text-rose-900"
    >
      <CircleAlert aria-hidden="true" className="h-5 w-5 shrink-0" />
      <p className="flex-1 text-sm">
        Your calendar could not be read for more than a day: new busy times are not seen until it is fixed.
      </p>
      <Button variant="outline" onClick={onOpen}>
        Open Calendar
      </Button>
    </section>
  );
}

/** The Calendar tab: connect a CalDAV calendar, choose what blocks slots and where bookings go. */
export function CalendarTab() {
  const connection = useCalendarConnection();
  if (connection.isLoading) return <FullPageSpinner />;
  if (connection.isError)
    return <Alert variant="error">{errorMessage(connection.error, CALENDAR_TEXT.loadFailed)}</Alert>;
  return (
    <section aria-labelledby="calendar-heading" className="space-y-6">
      <div>
        <h2 id="calendar-heading" className="font-display text-2xl font-semibold text-slate-900">
          Your Calendar
        </h2>
        <p className="text-sm text-slate-600">
          Connect your own calendar (iCloud, Fastmail, Nextcloud or any CalDAV server): its events keep those times from
          being booked, and your sessions are written into it.
        </p>
      </div>
      {connection.data && <ConnectionCard connection={connection.data} />}
      <ConnectForm connected={Boolean(connection.data)} />
    </section>
  );
}

function ConnectionCard({ connection }: { connection: CalendarConnection }) {
  const sync = useSyncCalendar();
  const disconnect = useDisconnectCalendar();
  return (
    <Card className="space-y-4 p-5">
      {connection.needsAttention && (
        <Alert variant="error">
          Your calendar could not be read for more than a day. Check the address and the app password, then connect it
          again.
        </Alert>
      )}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="flex items-center gap-2 font-display text-xl font-semibold text-slate-900">
            <CalendarCheck aria-hidden="true" className="h-5 w-5 text-indigo-600" />
            {connection.username}
          </h3>
          <p className="break-all text-xs text-slate-500">{connection.url}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            onClick={() =>
              sync.mutate(undefined, {
                onError: (e) =>
                  toast.error(CALENDAR_TEXT.syncFailed, { description: errorMessage(e, 'Please try again.') }),
              })
            }
            disabled={sync.isPending}
          >
            <RefreshCw aria-hidden="true" className="h-4 w-4" />
            Sync now
          </Button>
          <Button
            variant="outline"
            onClick={() =>
              disconnect.mutate(undefined, {
                onSuccess: () => toast.success('Calendar disconnected'),
                onError: (e) =>
                  toast.error(CALENDAR_TEXT.disconnectFailed, { description: errorMessage(e, 'Please try again.') }),
              })
            }
            disabled={disconnect.isPending}
          >
            <Unlink aria-hidden="true" className="h-4 w-4" />
            Disconnect
          </Button>
        </div>
      </div>
      <dl className="grid gap-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-500">State</dt>
          <dd data-testid="calendar-state" className="font-medium text-slate-900">
            {STATE_LABEL[connection.state]}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Last sync</dt>
          <dd className="font-medium text-slate-900">{formatDateTimeOrDash(connection.lastSyncedAt)}</dd>
        </div>
      </dl>
      {connection.state === 'failing' && connection.error && (
        <Alert variant="error">
          <CircleAlert aria-hidden="true" className="mr-1 inline h-4 w-4" />
          {connection.error} The busy times read before still block your slots.
        </Alert>
      )}
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
        {connection.calendars.map((c) => (
          <CalendarRow key={c.id} calendar={c} />
        ))}
      </ul>
    </Card>
  );
}

function CalendarRow({ calendar }: { calendar: ConnectedCalendar }) {
  const update = useUpdateConnectedCalendar();
  const change = (input: { blocksSlots?: boolean; receivesBookings?: boolean }) =>
    update.mutate(
      { id: calendar.id, ...input },
      {
        onError: (e) => toast.error(CALENDAR_TEXT.updateFailed, { description: errorMessage(e, 'Please try again.') }),
      },
    );
  const blocksId = `blocks-${calendar.id}`;
  const receivesId = `receives-${calendar.id}`;
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 p-3">
      <span className="font-medium text-slate-900">{calendar.name}</span>
      <div className="flex flex-wrap items-center gap-5">
        <div className="flex items-center gap-2">
          <Switch
            id={blocksId}
            checked={calendar.blocksSlots}
            disabled={update.isPending}
            onCheckedChange={(checked) => change({ blocksSlots: checked })}
          />
          <Label htmlFor={blocksId}>Blocks slots</Label>
        </div>
        <div className="flex items-center gap-2">
          <Switch
            id={receivesId}
            checked={calendar.receivesBookings}
            disabled={update.isPending || !calendar.writable || calendar.receivesBookings}
            onCheckedChange={(checked) => checked && change({ receivesBookings: true })}
          />
          <Label htmlFor={receivesId}>Receives bookings</Label>
        </div>
      </div>
    </li>
  );
}

function ConnectForm({ connected }: { connected: boolean }) {
  const [url, setUrl] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const connect = useConnectCalendar();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    connect.mutate(
      { url: url.trim(), username: username.trim(), password },
      {
        onSuccess: () => {
          setPassword('');
          toast.success('Calendar connected');
        },
      },
    );
  };
  return (
    <Card className="p-5">
      <h3 className="font-display text-xl font-semibold text-slate-900">
        {connected ? 'Connect Another Calendar Account' : 'Connect Your Calendar'}
      </h3>
      <p className="text-sm text-slate-600">
        Use an app password where your provider offers them (iCloud, Fastmail, Nextcloud).
        {connected && ' Connecting again replaces the current connection.'}
      </p>
      <form noValidate onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-3">
        {connect.isError && (
          <Alert variant="error" className="sm:col-span-3">
            {errorMessage(connect.error, CALENDAR_TEXT.connectFailed)}
          </Alert>
        )}
        <Field label="CalDAV Address" hint="For example https://caldav.icloud.com/">
          {(control) => (
            <Input
              {...control}
              type="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              disabled={connect.isPending}
              autoComplete="url"
            />
          )}
        </Field>
        <Field label="User Name">
          {(control) => (
            <Input
              {...control}
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              disabled={connect.isPending}
              autoComplete="username"
            />
          )}
        </Field>
        <Field label="App Password">
          {(control) => (
            <Input
              {...control}
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              disabled={connect.isPending}
              autoComplete="current-password"
            />
          )}
        </Field>
        <div className="flex justify-end sm:col-span-3">
          <Button type="submit" disabled={connect.isPending || !url.trim() || !username.trim() || !password}>
            <Link2 aria-hidden="true" className="h-4 w-4" />
            {connect.isPending ? 'Connecting...' : 'Connect Calendar'}
          </Button>
        </div>
      </form>
    </Card>
  );
}

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientWithUser, jsonResponse, renderWithProviders, testUser } from '@/testing/test-utils';
import JobConsolePage, { ACCESS_DENIED_TEXT } from './job-console-page';

vi.mock('sonner', () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }));

const admin = { ...testUser, isAdmin: true, role: 'admin' as const };

const queue = (over: Record<string, unknown> = {}) => ({
  queue: 'emails',
  pending: 0,
  scheduled: 1,
  running: 0,
  failed: 1,
  setAside: 0,
  discarded: 0,
  oldestDueSeconds: 0,
  succeededLastHour: 4,
  failedLastHour: 1,
  workers: 2,
  ...over,
});

const failedTask = {
  id: '01JTASKFAILED0000000000000',
  queue: 'emails',
  state: 'failed',
  attempts: 5,
  maxAttempts: 5,
  runAt: '2026-11-25T10:00:00Z',
  lastError: 'the SMTP server refused the message',
  doneAt: '2026-11-25T10:01:00Z',
  payload: { kind: 'verify_email', user_id: 'u-1', password: '********' },
};

const natsCluster = {
  realtimeBus: {
    kind: 'nats',
    natsConnected: false,
    unsentEvents: 12,
    oldestUnsentSeconds: 4.2,
    eventsLastMinute: 340,
  },
  replica: { state: 'lagging', lagSeconds: 7.4 },
};
const defaultCluster = {
  realtimeBus: { kind: 'postgres', natsConnected: null, unsentEvents: 0, oldestUnsentSeconds: 0, eventsLastMinute: 0 },
  replica: null,
};

/** A fake API: answers by method and path, records every call's URL. */
function fakeApi(tasks = [failedTask], cluster: object = defaultCluster) {
  let current = tasks;
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = (init?.method ?? 'GET').toUpperCase();
    if (url === '/api/admin/jobs/queues') return jsonResponse(200, [queue(), queue({ queue: 'refunds', failed: 0 })]);
    if (url === '/api/admin/jobs/schedules')
      return jsonResponse(200, [
        { name: 'payout_batch', expression: '0 0 6 * * Mon', lastRunAt: null, nextRunAt: '2026-11-30T06:00:00Z' },
      ]);
    if (url === '/api/admin/jobs/cluster') return jsonResponse(200, cluster);
    if (method === 'POST' && url.endsWith('/retry')) {
      const retried = { ...failedTask, state: 'pending', attempts: 0 };
      current = [retried];
      return jsonResponse(200, retried);
    }
    if (url.startsWith('/api/admin/jobs')) {
      const state = new URL(url, 'http://x').searchParams.get('state');
      const items = current.filter((t) => !state || t.state === state);
      return jsonResponse(200, { items, total: items.length });
    }
    return jsonResponse(404, { message: 'Not found' });
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

const render = (user: typeof testUser = admin) =>
  renderWithProviders(<JobConsolePage />, { client: clientWithUser(user), path: '/admin/jobs' });

afterEach(() => vi.unstubAllGlobals());

describe('/admin/jobs', { timeout: 20_000 }, () => {
  it('refuses a non-admin without asking the server', async () => {
    const fetchMock = fakeApi();
    render(testUser);
    expect(await screen.findByText(ACCESS_DENIED_TEXT)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/admin'))).toBe(false);
  });

  it('shows the queues with their figures and the schedules', async () => {
    fakeApi();
    render();
    const table = await screen.findByRole('table', { name: 'Queues' });
    const emails = within(table).getByRole('row', { name: /emails/ });
    expect(
      within(emails)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['0', '1', '0', '1', '0', '0', '4', '1', '2', '0 s']);
    expect(await screen.findByText('0 0 6 * * Mon')).toBeInTheDocument();
  });

  it('shows the real-time bus and the replica as the server reports them', async () => {
    fakeApi([failedTask], natsCluster);
    render();
    const list = await screen.findByLabelText('Real-time bus and replica');
    await waitFor(() => expect(within(list).getByText('Events not relayed')).toBeInTheDocument());
    const pairs = [...list.querySelectorAll('div')].map((d) => d.textContent);
    expect(pairs).toEqual([
      'Real-time busNATS, not connected: events wait in the outbox',
      'Events not relayed12',
      'Oldest not relayed4 s',
      'Events in the last minute340',
      'Read replicaLagging: skipped',
      'Replica behind by7 s',
    ]);
  });

  it('says when the bus is PostgreSQL and no replica is configured', async () => {
    fakeApi();
    render();
    const list = await screen.findByLabelText('Real-time bus and replica');
    await waitFor(() => expect(within(list).getByText('PostgreSQL NOTIFY')).toBeInTheDocument());
    expect(within(list).getByText('None: every read goes to the primary')).toBeInTheDocument();
    expect(within(list).queryByText('Events not relayed')).not.toBeInTheDocument();
  });

  it('filters by queue and state, shows the error and payload, and retries after confirming', async () => {
    const fetchMock = fakeApi();
    render();
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Queues' });
    await user.selectOptions(screen.getByLabelText('Queue'), 'emails');
    await user.selectOptions(screen.getByLabelText('State'), 'failed');
    await waitFor(() =>
      expect(fetchMock.mock.calls.map(([u]) => String(u))).toContain(
        '/api/admin/jobs?queue=emails&state=failed&page=1&pageSize=25',
      ),
    );
    expect(await screen.findByText('the SMTP server refused the message')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show payload' }));
    expect(screen.getByLabelText('Payload').textContent).toContain('"password": "********"');

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry task' });
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([u, init]) => init?.method === 'POST' && String(u) === `/api/admin/jobs/${failedTask.id}/retry`,
        ),
      ).toBe(true),
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The list reloads: the task is no longer failed.
    expect(await screen.findByText('No tasks match.')).toBeInTheDocument();
  });

  it('cancelling the confirmation does nothing', async () => {
    const fetchMock = fakeApi();
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Discard task' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });
});

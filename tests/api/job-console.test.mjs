// The admin job console against the real api and worker, with mail sent over SMTP to a server
// that is down at first: a password-reset e-mail waits between tries as scheduled with its error,
// fails all its attempts and shows as failed with its error; once the SMTP server is back, retrying
// it delivers the mail; a task discarded while waiting for its next try is never tried again.
// Queues, schedules and the audit trail are read as an operator would.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { register, signIn } from '../harness/accounts.mjs';
import { client, show } from '../harness/client.mjs';
import { smtpFake } from '../harness/smtp.mjs';
import { freePort, startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

/** An e-mail task tries 5 times with backoff from 2 s (jobs::email::MAX_ATTEMPTS, Settings). */
const ALL_ATTEMPTS_MS = 120_000;

let stack;
let db;
let smtp;
let admin;
let seeker;
const users = {};

async function verifiedUser(role) {
  const user = await register(stack, { firstName: role });
  const { rows } = await db.query(
    'UPDATE users SET email_verified = true WHERE lower(email) = lower($1) RETURNING id',
    [user.email],
  );
  users[role] = { ...user, id: rows[0].id };
  return users[role];
}

/** The e-mail task for `userId`, as the console lists it. */
async function emailTask(userId, state = '') {
  const res = await admin.get(`/api/admin/jobs?queue=emails&pageSize=200${state ? `&state=${state}` : ''}`);
  assert.equal(res.status, 200, show(res));
  return res.body.items.find((t) => t.payload?.kind === 'reset_password' && t.payload.user_id === userId);
}

before(async () => {
  smtp = smtpFake(await freePort());
  stack = await startStack({ env: { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url } });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const root = await verifiedUser('Root');
  await db.query('UPDATE users SET is_admin = true WHERE id = $1', [root.id]);
  admin = await signIn(stack, root);
  seeker = await signIn(stack, await verifiedUser('Seeker'));
  await verifiedUser('Other');
  // The seeker's password-reset mail fails while the SMTP server is down.
  await forgotPassword('Seeker');
});

async function forgotPassword(role) {
  const res = await client(stack.baseUrl).post('/api/forgot-password', { email: users[role].email });
  assert.equal(res.status, 200, show(res));
}
after(async () => {
  await db?.end();
  await stack?.stop();
  await smtp?.stop();
});

describe('job console', () => {
  it('shows the real-time bus and the replica: PostgreSQL NOTIFY and none by default', async () => {
    const r = await admin.get('/api/admin/jobs/cluster');
    assert.equal(r.status, 200, show(r));
    assert.deepEqual(r.body, {
      realtimeBus: {
        kind: 'postgres',
        natsConnected: null,
        unsentEvents: 0,
        oldestUnsentSeconds: 0,
        eventsLastMinute: 0,
      },
      replica: null,
    });
    const health = await client(stack.baseUrl).get('/api/health');
    assert.ok(!('realtimeBus' in health.body) && !('replica' in health.body), show(health));
  });

  it('is for admins only: 401 signed out, 403 otherwise', async () => {
    const anonymous = client(stack.baseUrl);
    for (const path of [
      '/api/admin/jobs/queues',
      '/api/admin/jobs',
      '/api/admin/jobs/schedules',
      '/api/admin/jobs/cluster',
    ]) {
      assert.equal((await anonymous.get(path)).status, 401, path);
      assert.equal((await seeker.get(path)).status, 403, path);
      assert.equal((await admin.get(path)).status, 200, path);
    }
    assert.equal((await seeker.post('/api/admin/jobs/x/retry', {})).status, 403);
    assert.equal((await anonymous.post('/api/admin/jobs/x/discard', {})).status, 401);
  });

  it('a mail that cannot be sent waits for its next try, fails with its error, runs again on retry; a discarded one never runs', async () => {
    // Between two tries the task is scheduled, with the last try's error.
    const waiting = await until(
      "the seeker's reset e-mail to wait for its next try",
      () => emailTask(users.Seeker.id, 'scheduled'),
      ALL_ATTEMPTS_MS,
      100,
    );
    assert.match(waiting.lastError ?? '', /SMTP/i);
    assert.ok(waiting.attempts >= 1 && waiting.attempts < waiting.maxAttempts, JSON.stringify(waiting));
    assert.ok(new Date(waiting.runAt) > new Date(Date.now() - 1000), waiting.runAt);

    // It fails every try while the SMTP server is down.
    const failed = await until(
      "the seeker's reset e-mail to fail",
      () => emailTask(users.Seeker.id, 'failed'),
      ALL_ATTEMPTS_MS,
      500,
    );
    assert.equal(failed.queue, 'emails');
    assert.equal(failed.attempts, failed.maxAttempts);
    assert.match(failed.lastError ?? '', /SMTP/i);
    assert.equal(failed.payload.kind, 'reset_password');

    const queues = (await admin.get('/api/admin/jobs/queues')).body;
    const emails = queues.find((q) => q.queue === 'emails');
    assert.ok(emails.failed >= 1, JSON.stringify(emails));
    assert.ok(emails.failedLastHour >= 1, JSON.stringify(emails));
    assert.equal(emails.workers, 1, JSON.stringify(emails));
    for (const key of [
      'pending',
      'scheduled',
      'running',
      'setAside',
      'discarded',
      'oldestDueSeconds',
      'succeededLastHour',
    ])
      assert.equal(typeof emails[key], 'number', key);

    // Another reset mail fails its first try; waiting for the next, it is discarded.
    await forgotPassword('Other');
    const other = await until(
      'the other reset e-mail to wait for its next try',
      () => emailTask(users.Other.id, 'scheduled'),
      30_000,
      100,
    );
    let res = await admin.post(`/api/admin/jobs/${other.id}/discard`, {});
    assert.equal(res.status, 200, show(res));
    assert.equal(res.body.state, 'discarded');

    // The SMTP server is back: the failed mail runs again on retry and arrives.
    await smtp.start();
    res = await admin.post(`/api/admin/jobs/${failed.id}/retry`, {});
    assert.equal(res.status, 200, show(res));
    assert.equal(res.body.attempts, 0);
    await until(
      'the retried mail to arrive',
      () => smtp.messages.find((m) => m.to.includes(users.Seeker.email)),
      30_000,
    );
    const done = await until('the retried task to be done', () => emailTask(users.Seeker.id, 'done'), 30_000);
    assert.equal(done.id, failed.id);
    assert.equal(done.lastError, null);
    assert.equal((await admin.post(`/api/admin/jobs/${failed.id}/retry`, {})).status, 409);
    assert.equal((await admin.post(`/api/admin/jobs/${failed.id}/discard`, {})).status, 409);

    // The discarded one is not tried again once its next try is due: it stays discarded, nothing sent.
    await until(
      "the discarded task's next try to be past",
      () => Date.now() > new Date(other.runAt).getTime() + 2000,
      60_000,
    );
    assert.equal((await emailTask(users.Other.id)).state, 'discarded');
    assert.equal(smtp.messages.filter((m) => m.to.includes(users.Other.email)).length, 0);
    assert.equal((await admin.post(`/api/admin/jobs/${other.id}/retry`, {})).status, 409);

    const { rows } = await db.query(
      "SELECT action, object_id FROM admin_audit WHERE object_type = 'job' ORDER BY created_at, action DESC",
    );
    assert.deepEqual(
      rows.map((r) => [r.action, r.object_id]),
      [
        ['job.discard', other.id],
        ['job.retry', failed.id],
      ],
    );
  });

  it('lists every cron schedule with its expression, last run and next run', async () => {
    const schedules = (await admin.get('/api/admin/jobs/schedules')).body;
    const payouts = schedules.find((s) => s.name === 'payout_batch');
    assert.equal(payouts.expression, '0 0 6 * * Mon');
    assert.equal(new Date(payouts.nextRunAt).getUTCDay(), 1);
    assert.ok(new Date(payouts.nextRunAt) > new Date());
    // The group-session sweep ticks every 15 seconds: its last run shows once it ran.
    const sweep = await until(
      'the group-session sweep to have run',
      async () =>
        (await admin.get('/api/admin/jobs/schedules')).body.find(
          (s) => s.name === 'group_session_state_sweep' && s.lastRunAt,
        ),
      30_000,
    );
    assert.equal(sweep.expression, '*/15 * * * * *');
    assert.ok(new Date(sweep.nextRunAt) > new Date(sweep.lastRunAt));
  });
});

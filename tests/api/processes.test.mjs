// The process model: mail is a durable job that waits for a worker, and both processes stop
// cleanly on SIGTERM.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { VERIFY_SUBJECT, register } from '../harness/accounts.mjs';
import { client, show } from '../harness/client.mjs';
import { mailTo } from '../harness/mail.mjs';
import { startStack } from '../harness/stack.mjs';

const stacks = [];
after(async () => {
  await Promise.all(stacks.map((s) => s.stop()));
});

describe('durable e-mail jobs', () => {
  it('a message enqueued while no worker runs is sent once a worker starts', async () => {
    const stack = await startStack({ worker: false });
    stacks.push(stack);
    const user = await register(stack);
    // The api does not send mail itself: nothing is in the outbox right after registering.
    assert.deepEqual(await stack.mails(), [], 'the api sent mail without a worker');

    await stack.startWorker();
    const mail = await stack.waitForMail(mailTo(user.email, VERIFY_SUBJECT), 30_000);
    assert.equal(mail.subject, VERIFY_SUBJECT);
    const mails = await stack.mails();
    assert.equal(mails.filter(mailTo(user.email, VERIFY_SUBJECT)).length, 1, 'exactly one message');
  });

  it('a message waits while the worker is stopped and goes out after a restart', async () => {
    const stack = await startStack();
    stacks.push(stack);
    // The worker is surely up (signal handlers installed) once it has delivered a message.
    const first = await register(stack);
    await stack.waitForMail(mailTo(first.email, VERIFY_SUBJECT), 30_000);
    const exit = await stack.stopWorker();
    assert.deepEqual(
      { code: exit.code, signal: exit.signal },
      { code: 0, signal: null },
      `worker exit: ${JSON.stringify(exit)}`,
    );

    const user = await register(stack);
    assert.equal((await stack.mails()).filter(mailTo(user.email)).length, 0, 'no worker, no mail yet');
    await stack.startWorker();
    await stack.waitForMail(mailTo(user.email, VERIFY_SUBJECT), 30_000);
  });
});

describe('SIGTERM', () => {
  it('worker and api serve exit with status 0', async () => {
    const stack = await startStack();
    stacks.push(stack);
    // Some work first, so both processes have open connections.
    const res = await client(stack.baseUrl).post('/api/register', {
      email: `sigterm.${Date.now()}@example.com`,
      password: 'long-enough-123',
      firstName: 'Sig',
      lastName: 'Term',
    });
    assert.equal(res.status, 201, show(res));
    await stack.waitForMail(() => true, 30_000);

    const worker = await stack.stopWorker();
    assert.equal(worker.timedOut, undefined, 'the worker stopped within 15 s');
    assert.equal(worker.signal, null, `the worker exited by itself, not killed: ${JSON.stringify(worker)}`);
    assert.equal(worker.code, 0, `worker exit: ${JSON.stringify(worker)}`);

    const api = await stack.stopApi();
    assert.equal(api.timedOut, undefined, 'api serve stopped within 15 s');
    assert.equal(api.signal, null, `api serve exited by itself, not killed: ${JSON.stringify(api)}`);
    assert.equal(api.code, 0, `api exit: ${JSON.stringify(api)}`);
  });

  it('an idle pair also stops with status 0 through stop()', async () => {
    const stack = await startStack();
    stacks.push(stack);
    // Wait until the worker has proven it runs (a message delivered), then let both go idle.
    const user = await register(stack);
    await stack.waitForMail(mailTo(user.email, VERIFY_SUBJECT), 30_000);
    const { api, worker } = await stack.stop();
    assert.deepEqual({ code: api.code, signal: api.signal }, { code: 0, signal: null }, `api: ${JSON.stringify(api)}`);
    assert.deepEqual(
      { code: worker.code, signal: worker.signal },
      { code: 0, signal: null },
      `worker: ${JSON.stringify(worker)}`,
    );
  });
});

describe('database outage', () => {
  it('GET /api/health answers 503 without internals when the database is gone', async () => {
    const stack = await startStack({ worker: false });
    stacks.push(stack);
    await stack.dropDatabase();
    const c = client(stack.baseUrl);
    const deadline = Date.now() + 15_000;
    let res;
    for (;;) {
      res = await c.get('/api/health');
      if (res.status === 503 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(res.status, 503, show(res));
    assert.equal(typeof res.body?.message, 'string', show(res));
    assert.doesNotMatch(
      res.text,
      new RegExp(`${stack.databaseName}|sqlx|postgres|SQLSTATE|panicked`, 'i'),
      'no internals',
    );

    // Other calls fail cleanly too: a 5xx with a plain {message}.
    const login = await c.post('/api/login', { email: 'a@example.com', password: 'long-enough-1' });
    assert.ok(login.status >= 500, show(login));
    assert.equal(typeof login.body?.message, 'string', show(login));
    assert.doesNotMatch(
      login.text,
      new RegExp(`${stack.databaseName}|sqlx|postgres|SQLSTATE|panicked`, 'i'),
      'no internals',
    );
  });
});

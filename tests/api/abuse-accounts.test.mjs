// Abuse of the accounts calls: limits hold under parallel requests, sign-up is limited per address
// and does not reveal who has an account, reset links die with a new password, and requests that
// cannot be parsed get plain words.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, newUser, PASSWORD, resetToken, signIn } from '../harness/accounts.mjs';
import { client, show } from '../harness/client.mjs';
import { findLink, mailTo } from '../harness/mail.mjs';
import { startStack } from '../harness/stack.mjs';

const ACCOUNT_EXISTS_SUBJECT = 'Someone tried to create an account with your address';
const INVALID_RESET_LINK = 'This reset link is invalid or has expired. Please request a new password reset.';

function tally(responses) {
  const counts = {};
  for (const r of responses) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}

function assertAllMessages(responses) {
  for (const r of responses) assert.equal(typeof r.body?.message, 'string', `a {message} body: ${show(r)}`);
}

describe('limits hold under parallel requests', () => {
  let stack;
  before(async () => {
    stack = await startStack({ env: { EMAIL_REQUESTS_PER_ADDRESS: '3' } });
  });
  after(async () => {
    await stack?.stop();
  });

  it('20 parallel wrong passwords (limit 10): exactly 10 are checked (401), 10 refused (429)', async () => {
    const user = await createVerifiedUser(stack);
    const c = client(stack.baseUrl);
    const tries = Array.from({ length: 20 }, (_, i) =>
      c.post('/api/login', { email: user.email, password: `wrong-password-${i}` }),
    );
    const responses = await Promise.all(tries);
    assert.deepEqual(tally(responses), { 401: 10, 429: 10 });
    assertAllMessages(responses);
    const locked = await c.post('/api/login', { email: user.email, password: user.password });
    assert.equal(locked.status, 429, show(locked));
  });

  it('10 parallel contact messages (EMAIL_REQUESTS_PER_ADDRESS=3): 3 sent, 7 refused', async () => {
    const c = client(stack.baseUrl);
    const message = {
      name: 'Ann',
      email: 'ann@example.com',
      subject: 'Hello',
      category: 'general',
      message: 'A question.',
    };
    const responses = await Promise.all(Array.from({ length: 10 }, () => c.post('/api/contact', message)));
    assert.deepEqual(tally(responses), { 201: 3, 429: 7 });
    assertAllMessages(responses);
  });

  it('10 parallel forgot-password requests (EMAIL_REQUESTS_PER_ADDRESS=3): 3 answered, 7 refused', async () => {
    const c = client(stack.baseUrl);
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => c.post('/api/forgot-password', { email: 'ann@example.com' })),
    );
    assert.deepEqual(tally(responses), { 200: 3, 429: 7 });
    assertAllMessages(responses);
  });
});

describe('sign-up with an address that has an account', () => {
  let stack;
  let db;
  before(async () => {
    stack = await startStack();
    db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
  });
  after(async () => {
    await db?.end();
    await stack?.stop();
  });

  it('an existing address answers like a new one, creates nothing and mails its owner', async () => {
    const owner = await createVerifiedUser(stack);
    const fresh = await client(stack.baseUrl).post('/api/register', newUser());
    assert.equal(fresh.status, 201, show(fresh));

    const again = await client(stack.baseUrl).post(
      '/api/register',
      newUser({ email: owner.email.toUpperCase(), password: 'attacker-password-1', firstName: 'Eve' }),
    );
    assert.equal(again.status, 201, show(again));
    assert.deepEqual(again.body, fresh.body, 'the same answer as for a new address');
    assert.deepEqual(Object.keys(again.body).sort(), ['message', 'requiresVerification']);

    const mail = await stack.waitForMail(mailTo(owner.email, ACCOUNT_EXISTS_SUBJECT));
    assert.ok(findLink(mail, `${stack.baseUrl}/auth`), `a sign-in link: ${mail.text}`);
    assert.ok(findLink(mail, `${stack.baseUrl}/forgot-password`), `a reset link: ${mail.text}`);

    const { rows } = await db.query('SELECT first_name FROM users WHERE lower(email) = lower($1)', [owner.email]);
    assert.deepEqual(rows, [{ first_name: 'Ada' }], 'one account, unchanged');
    await signIn(stack, owner);
    const attacker = await client(stack.baseUrl).post('/api/login', {
      email: owner.email,
      password: 'attacker-password-1',
    });
    assert.equal(attacker.status, 401, show(attacker));
  });
});

describe('sign-ups per address (REGISTRATIONS_PER_ADDRESS, default 10)', () => {
  let stack;
  before(async () => {
    // An empty value means the product's default, not the test harness's higher one.
    stack = await startStack({ worker: false, env: { REGISTRATIONS_PER_ADDRESS: '' } });
  });
  after(async () => {
    await stack?.stop();
  });

  it('12 parallel sign-ups from one address: 10 pass, 2 get 429', async () => {
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => client(stack.baseUrl).post('/api/register', newUser())),
    );
    assert.deepEqual(tally(responses), { 201: 10, 429: 2 });
    assertAllMessages(responses);
    assert.match(responses.find((r) => r.status === 429).body.message, /Too many sign-ups/);
  });
});

describe('reset links die with a new password', () => {
  let stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.stop();
  });

  async function twoResetLinks(user) {
    const c = client(stack.baseUrl);
    assert.equal((await c.post('/api/forgot-password', { email: user.email })).status, 200);
    const first = await resetToken(stack, user.email);
    const seen = await stack.mails();
    assert.equal((await c.post('/api/forgot-password', { email: user.email })).status, 200);
    const second = await resetToken(stack, user.email, { after: seen });
    assert.notEqual(first, second);
    return [first, second];
  }

  it('using the second link voids the first', async () => {
    const user = await createVerifiedUser(stack);
    const [first, second] = await twoResetLinks(user);
    const c = client(stack.baseUrl);
    const used = await c.post('/api/reset-password', { token: second, newPassword: 'brand-new-password' });
    assert.equal(used.status, 200, show(used));
    const stale = await c.post('/api/reset-password', { token: first, newPassword: 'attacker-password-1' });
    assert.equal(stale.status, 400, show(stale));
    assert.equal(stale.body.message, INVALID_RESET_LINK);
    await signIn(stack, { ...user, password: 'brand-new-password' });
  });

  it('changing the password voids every outstanding link', async () => {
    const user = await createVerifiedUser(stack);
    const links = await twoResetLinks(user);
    const me = await signIn(stack, user);
    const changed = await me.post('/api/user/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'changed-password-1',
    });
    assert.equal(changed.status, 200, show(changed));
    for (const token of links) {
      const stale = await client(stack.baseUrl).post('/api/reset-password', {
        token,
        newPassword: 'attacker-password-1',
      });
      assert.equal(stale.status, 400, show(stale));
      assert.equal(stale.body.message, INVALID_RESET_LINK);
    }
  });
});

describe('requests that cannot be parsed get plain words', () => {
  let stack;
  let me;
  before(async () => {
    stack = await startStack({ worker: true });
    me = await signIn(stack, await createVerifiedUser(stack));
  });
  after(async () => {
    await stack?.stop();
  });

  const INTERNAL = /[A-Z][a-z]+[A-Z][a-zA-Z]*Request|_int64|int32|optional_|Object|Uuid/;
  const raw = (text) => ({ raw: text });
  const cases = [
    ['POST', '/api/login', raw('{not json')],
    ['POST', '/api/login', raw('')],
    ['POST', '/api/login', raw('[1,2]')],
    ['POST', '/api/login', raw('"just text"')],
    ['POST', '/api/register', raw('{"email": [], "password": {}}')],
    ['POST', '/api/verify-email', raw('{"token": 5}')],
    ['POST', '/api/forgot-password', raw('{"email": {"a": 1}}')],
    ['POST', '/api/reset-password', raw('{"token": true, "newPassword": 1}')],
    ['POST', '/api/user/change-password', raw('{"currentPassword": null, "newPassword": []}')],
    ['POST', '/api/contact', raw('{"name": 1, "email": 2}')],
    ['PUT', '/api/user/profile', raw('{"firstName": "Ann",}')],
    ['PUT', '/api/user/email-preferences', raw('{"marketingEmails": "yes"}')],
    ['POST', '/api/reservations', raw('{"serviceId": "x", "scheduledAt": 5}')],
    ['POST', '/api/mentor/availability', raw('{"dayOfWeek": "monday"}')],
    ['POST', '/api/mentor/availability', raw('{"dayOfWeek": 1.5}')],
    ['POST', '/api/mentor/availability', raw('{"dayOfWeek": 99999999999999999999999}')],
    ['POST', '/api/bookings/not-an-id/review', raw('{"rating": "5"}')],
    ['PUT', '/api/user/bookings/not-an-id/reschedule', raw('{"scheduledAt": false}')],
    ['GET', '/api/mentors?page=abc'],
    ['GET', '/api/mentors?page=9223372036854775807999'],
    ['GET', '/api/mentors?pageSize=1.5'],
    ['GET', '/api/notifications?limit=x'],
    ['GET', '/api/mentors/00000000-0000-0000-0000-000000000000/available-slots?duration=abc'],
    ['GET', '/api/mentors/not-an-id'],
    ['GET', '/api/users/not-an-id'],
  ];

  it('no 4xx message names a Rust or schema type, and every answer is JSON {message}', async () => {
    const seen = [];
    for (const [method, path, opts] of cases) {
      const res = await me.request(method, path, undefined, opts);
      const what = `${method} ${path} ${opts?.raw ?? ''}: ${show(res)}`;
      assert.ok(res.status >= 400 && res.status < 500, what);
      assert.match(res.headers.get('content-type') ?? '', /application\/json/, what);
      assert.equal(typeof res.body?.message, 'string', what);
      assert.doesNotMatch(res.body.message, INTERNAL, what);
      if (res.status === 400) seen.push(res.body.message);
    }
    assert.ok(seen.includes('Invalid request: page must be a whole number'), seen.join('\n'));
    assert.ok(
      seen.some((m) => m.startsWith('Malformed JSON in request body')),
      seen.join('\n'),
    );
    assert.ok(seen.includes('Invalid request: the request body must be a JSON object'), seen.join('\n'));
  });
});

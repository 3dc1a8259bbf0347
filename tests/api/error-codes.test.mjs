// Every error body is {code, message}: `code` is one value of the ErrorCode enum in openapi.yaml
// (for programs to branch on), `message` the text for people. Each code is driven here through the
// real api: handler errors, poem-openapi's own parse errors, guards, unknown routes, 405, rate
// limits, 413, the WebSocket refusals, a declined or pending payment and an internal failure
// (which is logged with its request id).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, register, signIn, PASSWORD } from '../harness/accounts.mjs';
import { bookableMentor, reserve, startIn } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { repoRoot, startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

/** The codes issue 20 names, at least. */
const REQUIRED_CODES = [
  'validation',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'slot_taken',
  'hold_limit',
  'rate_limited',
  'payment_declined',
  'payment_pending',
  'unavailable',
];
const DECLINED_CARD = '4000000000000002';
const INTERNAL_ERROR = 'Something went wrong. Please try again later.';

let stack;
let db;
before(async () => {
  stack = await startStack({ env: { LOG_FORMAT: 'json' } });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

/** The document's ErrorCode values (the enum list under components.schemas.ErrorCode). */
function errorCodes(yaml) {
  const at = yaml.indexOf('\n    ErrorCode:\n');
  assert.ok(at >= 0, 'openapi.yaml has an ErrorCode schema');
  const block = yaml.slice(at + 1).split(/\n {4}\S/)[0];
  const list = block.slice(block.indexOf('\n      enum:\n'));
  return [...list.matchAll(/^ {6}- (\S+)$/gm)].map((m) => m[1]);
}

let codes;
function assertError(res, status, code, message) {
  assert.equal(res.status, status, show(res));
  assert.equal(typeof res.body, 'object', show(res));
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'message'], show(res));
  assert.equal(res.body.code, code, show(res));
  if (message instanceof RegExp) assert.match(res.body.message, message, show(res));
  else if (message !== undefined) assert.equal(res.body.message, message, show(res));
  assert.ok(res.body.message.trim() !== '', show(res));
  codes ??= [];
  codes.push(code);
}

describe('openapi.yaml', () => {
  it('documents the code enum with the meaning of each value, and every error response has {code, message}', async () => {
    const yaml = await readFile(path.join(repoRoot, 'openapi.yaml'), 'utf8');
    const values = errorCodes(yaml);
    for (const code of REQUIRED_CODES) assert.ok(values.includes(code), `ErrorCode lacks ${code}`);
    const enumAt = yaml.indexOf('\n    ErrorCode:\n');
    const description = yaml.slice(enumAt, yaml.indexOf('\n      enum:\n', enumAt));
    for (const code of values) {
      assert.match(description, new RegExp(`- \`${code}\`: \\S`), `the meaning of ${code} is documented`);
    }
    const body = yaml.slice(yaml.indexOf('\n    ErrorBody:\n') + 1).split(/\n {4}\S/)[0];
    assert.match(body, /required:\n {6}- code\n {6}- message\n/);
    assert.match(body, /code:\n {10}\$ref: '#\/components\/schemas\/ErrorCode'/);

    // Every 4xx and 5xx JSON response of every operation carries an ErrorBody (the pages a person opens
    // from an e-mail, such as one-click unsubscribe, answer in HTML).
    const paths = yaml.slice(yaml.indexOf('\npaths:\n'), yaml.indexOf('\ncomponents:\n'));
    const errors = [...paths.matchAll(/^ {8}'([45]\d\d)':\n((?: {10,}.*\n)+)/gm)];
    assert.ok(errors.length > 100, `few error responses found: ${errors.length}`);
    for (const [, status, block] of errors) {
      if (block.includes('text/html') && !block.includes('application/json')) continue;
      assert.match(block, /\$ref: '#\/components\/schemas\/ErrorBody'/, `a ${status} response without ErrorBody`);
    }
  });
});

describe('error codes through the real api', () => {
  it('validation: bad JSON, a wrong or missing field, a rule about input (400)', async () => {
    const c = client(stack.baseUrl);
    assertError(await c.post('/api/login', undefined, { raw: '{"email": ' }), 400, 'validation', /^Malformed JSON/);
    assertError(
      await c.post('/api/register', { email: 'a@b.co', password: PASSWORD, firstName: [], lastName: 'B' }),
      400,
      'validation',
      'Invalid request: expected text but found []',
    );
    assertError(await c.post('/api/verify-email', {}), 400, 'validation');
    assertError(
      await c.post('/api/register', { email: 'nobody', password: PASSWORD, firstName: 'A', lastName: 'B' }),
      400,
      'validation',
      'Please enter a valid email address',
    );
  });

  it('unauthorized and email_not_verified on sign-in, forbidden for the wrong role or a cross-site form', async () => {
    const anon = client(stack.baseUrl);
    assertError(await anon.get('/api/auth/user'), 401, 'unauthorized', 'Unauthorized');
    const fresh = await register(stack);
    assertError(
      await client(stack.baseUrl).post('/api/login', { email: fresh.email, password: fresh.password }),
      403,
      'email_not_verified',
    );
    const seeker = await signIn(stack, await createVerifiedUser(stack));
    assertError(await seeker.get('/api/admin/stats'), 403, 'forbidden');
    const evil = client(stack.baseUrl, { origin: 'https://evil.example' });
    assertError(await evil.post('/api/logout'), 403, 'forbidden', 'Cross-site requests are not allowed');
  });

  it('not_found for rows and unknown routes under /api, method_not_allowed for a wrong method', async () => {
    const seeker = await signIn(stack, await createVerifiedUser(stack));
    assertError(await seeker.get('/api/reservations/00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    assertError(await seeker.get('/api/no-such-thing'), 404, 'not_found');
    assertError(await seeker.request('DELETE', '/api/mentors'), 405, 'method_not_allowed');
  });

  it('payload_too_large for a body over the limit (413)', async () => {
    const c = client(stack.baseUrl);
    const huge = JSON.stringify({ name: 'x', message: 'y'.repeat(1024 * 1024 + 10) });
    assertError(await c.post('/api/contact', undefined, { raw: huge }), 413, 'payload_too_large');
  });

  it('rate_limited when a budget is spent (429)', async () => {
    const user = await register(stack);
    const c = client(stack.baseUrl);
    for (let i = 1; i <= 10; i += 1) {
      const res = await c.post('/api/forgot-password', { email: user.email });
      assert.equal(res.status, 200, `request ${i}: ${show(res)}`);
    }
    assertError(await c.post('/api/forgot-password', { email: user.email }), 429, 'rate_limited');
  });

  it('slot_taken for a time someone holds, hold_limit past the holds allowed (409)', async () => {
    const setup = await bookableMentor(stack);
    const first = await signIn(stack, await createVerifiedUser(stack));
    const second = await signIn(stack, await createVerifiedUser(stack));
    const at = startIn(30);
    await reserve(first, setup, at);
    const taken = await second.post('/api/reservations', {
      serviceId: setup.service.id,
      mentorId: setup.mentor.id,
      scheduledAt: at,
      totalAmount: setup.service.price,
    });
    assertError(taken, 409, 'slot_taken', 'This time is no longer available');
    const again = await first.post('/api/reservations', {
      serviceId: setup.service.id,
      mentorId: setup.mentor.id,
      scheduledAt: startIn(33),
      totalAmount: setup.service.price,
    });
    assertError(again, 409, 'hold_limit');
    // A plain conflict: a second mentor profile for one user.
    const twice = await setup.c.post('/api/mentors', {
      displayName: 'Orla Again',
      bio: 'A second profile for the same user, which the api refuses as a conflict with the first.',
      specialties: ['Astrology'],
      basePrice: '30.00',
      timeZone: 'UTC',
    });
    assertError(twice, 409, 'conflict');
  });

  it('the WebSocket refusals carry codes too', async () => {
    const anon = await fetch(`${stack.baseUrl}/api/ws`);
    assert.equal(anon.status, 401);
    assert.deepEqual(await anon.json(), { code: 'unauthorized', message: 'Unauthorized' });
    const seeker = await signIn(stack, await createVerifiedUser(stack));
    assertError(await seeker.get('/api/ws'), 400, 'validation', 'Expected a WebSocket upgrade');
  });

  it('payment_declined and payment_pending say why a payment did not go through', async () => {
    const setup = await bookableMentor(stack);
    const user = await createVerifiedUser(stack);
    const seeker = await signIn(stack, user);
    const held = await reserve(seeker, setup, startIn(40));
    const card = (number) => ({
      reservationId: held.reservation.id,
      cardNumber: number,
      expirationDate: '1230',
      cardCode: '123',
      billingInfo: { firstName: user.firstName, lastName: user.lastName, zip: '10001' },
    });
    const declined = await seeker.post('/api/process-payment-v2', card(DECLINED_CARD));
    assert.equal(declined.status, 200, show(declined));
    assert.equal(declined.body.success, false, show(declined));
    assert.equal(declined.body.code, 'payment_declined', show(declined));
    codes.push('payment_declined');

    // Another charge of this reservation is in flight (and stays so): the answer is "pending".
    await db.query(
      "INSERT INTO payments (id, booking_id, user_id, gateway, amount_cents, card_last4, status, reference) \
       SELECT gen_random_uuid(), id, user_id, 'test', total_cents, '1111', 'processing', 'in-flight-' || id FROM bookings WHERE id = $1",
      [held.reservation.id],
    );
    const pending = await seeker.post('/api/process-payment-v2', card('4111111111111111'));
    assert.equal(pending.status, 200, show(pending));
    assert.equal(pending.body.success, false, show(pending));
    assert.equal(pending.body.code, 'payment_pending', show(pending));
    codes.push('payment_pending');
  });

  it('internal: a 500 says nothing inside, and its cause is logged with the request id', async () => {
    // A query that cannot work any more (its table is gone): a fault of ours, not of the database.
    await db.query('ALTER TABLE contact_messages RENAME TO contact_messages_gone');
    try {
      const res = await fetch(`${stack.baseUrl}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-request-id': 'req-internal-500', origin: stack.baseUrl },
        body: JSON.stringify({
          name: 'Ann Example',
          email: 'ann@example.com',
          subject: 'A question',
          category: 'general',
          message: 'Hello there, this is a question long enough for the form.',
        }),
      });
      assert.equal(res.status, 500);
      assert.deepEqual(await res.json(), { code: 'internal', message: INTERNAL_ERROR });
      codes.push('internal');
      const spanField = (line, field) => (line.spans ?? []).map((s) => s[field]).find((v) => v !== undefined);
      const line = await until('the 500’s cause in the log, with its request id', async () =>
        (await readFile(stack.logs.api, 'utf8'))
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l))
          .find((l) => l.level === 'ERROR' && spanField(l, 'request_id') === 'req-internal-500'),
      );
      assert.match(JSON.stringify(line), /contact_messages/, 'the cause is in the log line');
    } finally {
      await db.query('ALTER TABLE contact_messages_gone RENAME TO contact_messages');
    }
  });

  it('drove every required code but unavailable (database-outage.test.mjs and db-restart.test.mjs drive that)', () => {
    for (const code of REQUIRED_CODES.filter((c) => c !== 'unavailable')) {
      assert.ok(codes.includes(code), `no test drove ${code}`);
    }
  });
});

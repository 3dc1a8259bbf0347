// Registration rules, login refusals and resending the verification e-mail.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser, newUser, register, verificationToken, VERIFY_SUBJECT } from '../harness/accounts.mjs';
import { client, show } from '../harness/client.mjs';
import { mailTo } from '../harness/mail.mjs';
import { startStack } from '../harness/stack.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

function assertMessage(res, status, message) {
  assert.equal(res.status, status, show(res));
  assert.equal(typeof res.body?.message, 'string', `a {message} body: ${show(res)}`);
  if (message !== undefined) assert.equal(res.body.message, message, show(res));
}

describe('register validation', () => {
  it('a password under 8 characters is a 400 with the spec text', async () => {
    const res = await client(stack.baseUrl).post('/api/register', newUser({ password: 'short12' }));
    assertMessage(res, 400, 'Password must be at least 8 characters long');
  });

  it('exactly 8 characters is enough', async () => {
    const res = await client(stack.baseUrl).post('/api/register', newUser({ password: '12345678' }));
    assert.equal(res.status, 201, show(res));
  });

  for (const field of ['firstName', 'lastName', 'email', 'password']) {
    it(`a missing ${field} is a 400 with a message`, async () => {
      const body = newUser();
      delete body[field];
      assertMessage(await client(stack.baseUrl).post('/api/register', body), 400);
    });
  }

  for (const field of ['firstName', 'lastName']) {
    it(`a blank ${field} is a 400 with a message`, async () => {
      assertMessage(await client(stack.baseUrl).post('/api/register', newUser({ [field]: '   ' })), 400);
    });
  }

  it('an invalid e-mail address is a 400', async () => {
    assertMessage(await client(stack.baseUrl).post('/api/register', newUser({ email: 'not-an-address' })), 400);
  });

  // A taken address answers like a new one (docs/accounts.md); tests/api/abuse-accounts.test.mjs
  // checks the mail to its owner and that nothing is created.
  it('a taken e-mail answers like a new one, whatever its case', async () => {
    const fresh = await client(stack.baseUrl).post('/api/register', newUser());
    const user = await register(stack);
    for (const email of [user.email, user.email.toUpperCase()]) {
      const res = await client(stack.baseUrl).post('/api/register', newUser({ email }));
      assert.equal(res.status, 201, show(res));
      assert.deepEqual(res.body, fresh.body, 'no hint whether the address exists');
    }
  });

  it('registering with a capitalised address takes the lower-case one too', async () => {
    const email = `Mixed.Case.${Date.now().toString(36)}.${process.pid}@Example.com`;
    await register(stack, { email });
    const res = await client(stack.baseUrl).post(
      '/api/register',
      newUser({ email: email.toLowerCase(), password: 'another-password-1' }),
    );
    assert.equal(res.status, 201, show(res));
    const login = await client(stack.baseUrl).post('/api/login', {
      email: email.toLowerCase(),
      password: 'another-password-1',
    });
    assertMessage(login, 401);
  });
});

describe('login refusals', () => {
  it('an unverified account gets 403', async () => {
    const user = await register(stack);
    assertMessage(await client(stack.baseUrl).post('/api/login', { email: user.email, password: user.password }), 403);
  });

  it('a wrong password and an unknown address both get the same 401', async () => {
    const user = await createVerifiedUser(stack);
    const wrong = await client(stack.baseUrl).post('/api/login', { email: user.email, password: 'wrong-password-1' });
    assertMessage(wrong, 401);
    const unknown = await client(stack.baseUrl).post('/api/login', {
      email: `nobody.${user.email}`,
      password: 'whatever-123',
    });
    assertMessage(unknown, 401);
    assert.equal(wrong.body.message, unknown.body.message, 'no hint whether the address exists');
    assert.equal(
      wrong.setCookies.find((k) => k.name === 'sid' && k.value),
      undefined,
      'no session on failure',
    );
  });

  it('a missing password is a 400, not a server error', async () => {
    assertMessage(await client(stack.baseUrl).post('/api/login', { email: 'a@example.com' }), 400);
  });
});

describe('resend verification', () => {
  it('sends a fresh link that verifies the account', async () => {
    const c = client(stack.baseUrl);
    const user = await register(stack, {}, c);
    const first = await stack.waitForMail(mailTo(user.email, VERIFY_SUBJECT));

    const res = await c.post('/api/resend-verification', { email: user.email });
    assertMessage(res, 200);
    const token = await verificationToken(stack, user.email, { after: [first] });

    const verify = await c.post('/api/verify-email', { token });
    assert.equal(verify.status, 200, show(verify));
    const login = await c.post('/api/login', { email: user.email, password: user.password });
    assert.equal(login.status, 200, show(login));
  });

  it('answers the same for unknown, unverified and verified addresses', async () => {
    const c = client(stack.baseUrl);
    const unverified = await register(stack);
    const verified = await createVerifiedUser(stack);
    const answers = [];
    for (const email of [`nobody.${Date.now()}@example.com`, unverified.email, verified.email]) {
      const res = await c.post('/api/resend-verification', { email });
      assertMessage(res, 200);
      answers.push(res.body);
    }
    assert.deepEqual(answers[1], answers[0]);
    assert.deepEqual(answers[2], answers[0]);
  });
});

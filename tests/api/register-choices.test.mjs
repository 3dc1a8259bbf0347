// Issue 30 (items 8, 10, 11): what a registration carries and what the first sign-in says.
// - `marketingEmails` on RegisterRequest: off unless the new user ticks it (default false);
// - `next`: a path of this site (exactly one leading '/') that the verification link carries, so
//   the new user lands back where they were going (the mentor wizard); a URL is refused;
// - `UserView.previousSignInAt`: null at the first sign-in, the earlier sign-in's time after.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newUser, register, signIn, VERIFY_SUBJECT } from '../harness/accounts.mjs';
import { client, show } from '../harness/client.mjs';
import { findLink, mailTo } from '../harness/mail.mjs';
import { startStack } from '../harness/stack.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

/** Registers `overrides`, verifies through the mail's link, and returns the user and that link. */
async function registerAndVerify(overrides = {}) {
  const c = client(stack.baseUrl);
  const user = await register(stack, overrides, c);
  const mail = await stack.waitForMail(mailTo(user.email, VERIFY_SUBJECT));
  const link = findLink(mail, `${stack.baseUrl}/verify-email`);
  const res = await c.post('/api/verify-email', { token: link.searchParams.get('token') });
  assert.equal(res.status, 200, show(res));
  return { user, link };
}

async function preferences(c) {
  const res = await c.get('/api/user/email-preferences');
  assert.equal(res.status, 200, show(res));
  return res.body;
}

describe('marketing e-mails at registration', () => {
  it('are off when the box is left unticked (the field absent or false), the other mails on', async () => {
    for (const overrides of [{}, { marketingEmails: false }]) {
      const { user } = await registerAndVerify(overrides);
      assert.deepEqual(await preferences(await signIn(stack, user)), {
        bookingConfirmations: true,
        bookingReminders: true,
        marketingEmails: false,
        reviewRequests: true,
      });
    }
  });

  it('are on when ticked', async () => {
    const { user } = await registerAndVerify({ marketingEmails: true });
    assert.equal((await preferences(await signIn(stack, user))).marketingEmails, true);
  });

  it('refuse a value that is not a boolean', async () => {
    const res = await client(stack.baseUrl).post('/api/register', newUser({ marketingEmails: 'yes' }));
    assert.equal(res.status, 400, show(res));
  });
});

describe('the destination carried through verification', () => {
  it('rides on the verification link as ?next=', async () => {
    const { link } = await registerAndVerify({ next: '/become-mentor' });
    assert.equal(link.searchParams.get('next'), '/become-mentor');
  });

  it('is absent from the link of a plain registration', async () => {
    const { link } = await registerAndVerify();
    assert.equal(link.searchParams.get('next'), null);
  });

  for (const next of ['//evil.example/become-mentor', 'https://evil.example/', '/\\evil.example', 'become-mentor']) {
    it(`refuses ${JSON.stringify(next)}: only a path of this site`, async () => {
      const user = newUser({ next });
      const res = await client(stack.baseUrl).post('/api/register', user);
      assert.equal(res.status, 400, show(res));
      assert.equal(res.body.message, "The destination must be a path of this site, starting with a single '/'");
    });
  }
});

describe('previousSignInAt', () => {
  it('is null at the first sign-in (for that whole session) and the earlier sign-in after', async () => {
    const { user } = await registerAndVerify();
    const login = async (c) => {
      const res = await c.post('/api/login', { email: user.email, password: user.password });
      assert.equal(res.status, 200, show(res));
      return res.body;
    };
    const me = async (c) => {
      const res = await c.get('/api/auth/user');
      assert.equal(res.status, 200, show(res));
      return res.body;
    };
    const first = client(stack.baseUrl);
    const before = Date.now();
    assert.equal((await login(first)).previousSignInAt, null);
    assert.equal((await me(first)).previousSignInAt, null, 'the first session keeps saying so');

    const second = client(stack.baseUrl);
    const at = (await login(second)).previousSignInAt;
    assert.equal(typeof at, 'string', 'the second sign-in knows the first');
    assert.ok(Date.parse(at) >= before - 5_000 && Date.parse(at) <= Date.now() + 5_000, at);
    assert.equal((await me(second)).previousSignInAt, at);
    assert.equal((await me(first)).previousSignInAt, null);
  });
});

// Forgot password, reset password and change password.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser, RESET_SUBJECT, resetToken, signIn } from '../harness/accounts.mjs';
import { client, show } from '../harness/client.mjs';
import { findLink, mailTo } from '../harness/mail.mjs';
import { startStack } from '../harness/stack.mjs';

let stack;
const unknownAddresses = [];
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

function assertMessage(res, status) {
  assert.equal(res.status, status, show(res));
  assert.equal(typeof res.body?.message, 'string', `a {message} body: ${show(res)}`);
}

async function login(user, password = user.password) {
  return client(stack.baseUrl).post('/api/login', { email: user.email, password });
}

describe('forgot password', () => {
  it('answers the same for an unknown address and a real one; only the real one gets mail', async () => {
    const user = await createVerifiedUser(stack);
    const unknown = `nobody.${Date.now().toString(36)}.${process.pid}@example.com`;
    unknownAddresses.push(unknown);
    const c = client(stack.baseUrl);

    const forUnknown = await c.post('/api/forgot-password', { email: unknown });
    assertMessage(forUnknown, 200);
    const forReal = await c.post('/api/forgot-password', { email: user.email });
    assertMessage(forReal, 200);
    assert.deepEqual(forReal.body, forUnknown.body, 'no hint whether the address exists');

    const mail = await stack.waitForMail(mailTo(user.email, RESET_SUBJECT));
    assert.ok(mail.text.trim() && mail.html.trim(), 'a plain-text and an HTML part');
    const link = findLink(mail, `${stack.baseUrl}/reset-password?token=`);
    assert.ok(mail.html.replace(/&amp;/g, '&').includes(link.href), `the HTML part has ${link}`);
    assert.ok(link.searchParams.get('token'), 'a token');
  });

  it('a reset ends every session, the new password works, the old does not, the token is single use', async () => {
    const user = await createVerifiedUser(stack);
    const a = await signIn(stack, user);
    const b = await signIn(stack, user);

    assertMessage(await client(stack.baseUrl).post('/api/forgot-password', { email: user.email }), 200);
    const token = await resetToken(stack, user.email);

    const newPassword = 'a-brand-new-secret-9';
    const reset = await client(stack.baseUrl).post('/api/reset-password', { token, newPassword });
    assertMessage(reset, 200);

    for (const [name, c] of [
      ['first', a],
      ['second', b],
    ]) {
      const me = await c.get('/api/auth/user');
      assert.equal(me.status, 401, `the ${name} session ended: ${show(me)}`);
    }
    assert.equal((await login(user)).status, 401, 'the old password no longer works');
    const fresh = await login(user, newPassword);
    assert.equal(fresh.status, 200, `the new password works: ${show(fresh)}`);

    const reuse = await client(stack.baseUrl).post('/api/reset-password', {
      token,
      newPassword: 'yet-another-secret-7',
    });
    assertMessage(reuse, 400);
    assert.equal((await login(user, newPassword)).status, 200, 'the reused token changed nothing');
  });

  it('an unknown token is a 400', async () => {
    const res = await client(stack.baseUrl).post('/api/reset-password', {
      token: 'no-such-token',
      newPassword: 'long-enough-123',
    });
    assertMessage(res, 400);
  });

  it('a short new password is a 400 and leaves the password unchanged', async () => {
    const user = await createVerifiedUser(stack);
    assertMessage(await client(stack.baseUrl).post('/api/forgot-password', { email: user.email }), 200);
    const token = await resetToken(stack, user.email);
    const res = await client(stack.baseUrl).post('/api/reset-password', { token, newPassword: 'short' });
    assertMessage(res, 400);
    assert.equal(res.body.message, 'Password must be at least 8 characters long', show(res));
    assert.equal((await login(user)).status, 200, 'the old password still works');
  });

  it('no reset mail ever went to an unknown address', async () => {
    const mails = await stack.mails();
    for (const address of unknownAddresses) {
      assert.equal(mails.filter(mailTo(address)).length, 0, `mail to ${address}`);
    }
  });
});

describe('change password', () => {
  it('needs a session', async () => {
    const res = await client(stack.baseUrl).post('/api/user/change-password', {
      currentPassword: 'whatever-123',
      newPassword: 'whatever-456',
    });
    assert.equal(res.status, 401, show(res));
    assert.deepEqual(res.body, { code: 'unauthorized', message: 'Unauthorized' });
  });

  it('refuses a wrong current password with 400', async () => {
    const user = await createVerifiedUser(stack);
    const c = await signIn(stack, user);
    const res = await c.post('/api/user/change-password', {
      currentPassword: 'not-my-password',
      newPassword: 'new-secret-123',
    });
    assertMessage(res, 400);
    assert.equal((await c.get('/api/auth/user')).status, 200, 'still signed in');
    assert.equal((await login(user)).status, 200, 'the password is unchanged');
  });

  it('refuses a short new password with 400', async () => {
    const user = await createVerifiedUser(stack);
    const c = await signIn(stack, user);
    const res = await c.post('/api/user/change-password', { currentPassword: user.password, newPassword: 'short' });
    assertMessage(res, 400);
    assert.equal((await login(user)).status, 200, 'the password is unchanged');
  });

  it('changes the password, keeps this session and ends the others', async () => {
    const user = await createVerifiedUser(stack);
    const mine = await signIn(stack, user);
    const other = await signIn(stack, user);
    const newPassword = 'changed-secret-456';

    const res = await mine.post('/api/user/change-password', { currentPassword: user.password, newPassword });
    assertMessage(res, 200);

    const me = await mine.get('/api/auth/user');
    assert.equal(me.status, 200, `this session stays: ${show(me)}`);
    const them = await other.get('/api/auth/user');
    assert.equal(them.status, 401, `the other session ended: ${show(them)}`);
    assert.equal((await login(user)).status, 401, 'the old password no longer works');
    assert.equal((await login(user, newPassword)).status, 200, 'the new password works');
  });
});

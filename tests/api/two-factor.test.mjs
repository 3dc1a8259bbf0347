// Two-factor sign-in (issue 35, section 3): set-up with an authenticator app (codes computed here,
// RFC 6238), the sign-in's second step with a code or a recovery code, codes accepted once, the
// fifth wrong code ending the attempt, and admins refused without two factors when required.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { makeAdmin } from '../harness/admin.mjs';
import { client, show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';
import { totp } from '../harness/totp.mjs';

let stack;
let strict;
let db;
before(async () => {
  stack = await startStack();
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
  await strict?.stop();
});

/** A signed-in user with two factors on: { user, c, secret, recoveryCodes }. */
async function userWithTwoFactors(s = stack) {
  const user = await createVerifiedUser(s);
  const c = await signIn(s, user);
  const setup = await c.post('/api/user/two-factor/setup', {});
  assert.equal(setup.status, 200, show(setup));
  const { secret } = setup.body;
  const enabled = await c.post('/api/user/two-factor/enable', { code: totp(secret) });
  assert.equal(enabled.status, 200, show(enabled));
  return { user, c, secret, recoveryCodes: enabled.body.recoveryCodes };
}

/** Lets the next code be accepted again (codes of a step already used are refused). */
async function forgetUsedStep(user) {
  await db.query(
    'UPDATE two_factor SET last_used_step = NULL WHERE user_id = (SELECT id FROM users WHERE lower(email) = lower($1))',
    [user.email],
  );
}

/** Signs in with the password: the 202 of a pending sign-in, on a new client. */
async function passwordStep(user) {
  const c = client(stack.baseUrl);
  const res = await c.post('/api/login', { email: user.email, password: user.password });
  assert.equal(res.status, 202, show(res));
  assert.deepEqual(res.body, { twoFactorRequired: true });
  assert.equal(c.cookies.sid, undefined, 'no session before the second factor');
  assert.ok(c.cookies.two_factor, 'the pending sign-in cookie');
  return c;
}

describe('two-factor sign-in', () => {
  it('sets up with a QR code, turns on with a code and hands out 10 recovery codes', async () => {
    const user = await createVerifiedUser(stack);
    const c = await signIn(stack, user);
    assert.equal((await c.get('/api/auth/user')).body.twoFactorEnabled, false);
    const setup = await c.post('/api/user/two-factor/setup', {});
    assert.equal(setup.status, 200, show(setup));
    assert.match(setup.body.secret, /^[A-Z2-7]{32}$/);
    assert.match(setup.body.otpauthUri, /^otpauth:\/\/totp\/.*secret=[A-Z2-7]+/);
    assert.ok(setup.body.otpauthUri.includes(`secret=${setup.body.secret}`));
    assert.match(setup.body.qrSvg, /<svg[\s\S]*<\/svg>/);

    const wrong = await c.post('/api/user/two-factor/enable', {
      code: '000000' === totp(setup.body.secret) ? '111111' : '000000',
    });
    assert.equal(wrong.status, 400, show(wrong));
    const on = await c.post('/api/user/two-factor/enable', { code: totp(setup.body.secret) });
    assert.equal(on.status, 200, show(on));
    assert.equal(on.body.recoveryCodes.length, 10);
    assert.equal(new Set(on.body.recoveryCodes).size, 10);
    assert.equal((await c.get('/api/auth/user')).body.twoFactorEnabled, true);
    assert.equal((await c.post('/api/user/two-factor/setup', {})).status, 409, 'on already');
    const { rows } = await db.query(
      "SELECT encode(code_hash, 'hex') AS h FROM two_factor_recovery_codes WHERE user_id = (SELECT id FROM users WHERE lower(email) = lower($1))",
      [user.email],
    );
    assert.equal(rows.length, 10);
    for (const code of on.body.recoveryCodes) {
      assert.ok(!rows.some((r) => r.h.includes(Buffer.from(code).toString('hex'))), 'stored hashed');
    }
  });

  it('asks for the second factor after the password (202) and signs in with a code, once', async () => {
    const { user, secret } = await userWithTwoFactors();
    const c = await passwordStep(user);
    assert.equal((await c.get('/api/auth/user')).status, 401);
    const code = totp(secret, { steps: 1 });
    const wrong = await c.post('/api/login/two-factor', { code: code === '123456' ? '654321' : '123456' });
    assert.equal(wrong.status, 401, show(wrong));
    assert.equal(wrong.body.code, 'invalid_two_factor_code');
    const ok = await c.post('/api/login/two-factor', { code });
    assert.equal(ok.status, 200, show(ok));
    assert.equal(ok.body.email.toLowerCase(), user.email.toLowerCase());
    assert.ok(c.cookies.sid, 'signed in');
    assert.equal(c.cookies.two_factor, undefined, 'the pending sign-in is cleared');
    assert.equal((await c.get('/api/auth/user')).status, 200);

    // The same code again, on a new attempt: refused.
    const again = await passwordStep(user);
    const replay = await again.post('/api/login/two-factor', { code });
    assert.equal(replay.status, 401, show(replay));
    assert.equal(replay.body.code, 'invalid_two_factor_code');
  });

  it('signs in with a recovery code, each accepted once', async () => {
    const { user, recoveryCodes } = await userWithTwoFactors();
    const c = await passwordStep(user);
    const ok = await c.post('/api/login/two-factor', { recoveryCode: recoveryCodes[0].toLowerCase() });
    assert.equal(ok.status, 200, show(ok));
    const again = await passwordStep(user);
    const reused = await again.post('/api/login/two-factor', { recoveryCode: recoveryCodes[0] });
    assert.equal(reused.status, 401, show(reused));
    assert.equal(reused.body.code, 'invalid_two_factor_code');
    assert.equal((await again.post('/api/login/two-factor', { recoveryCode: recoveryCodes[1] })).status, 200);
  });

  it('ends the attempt at the fifth wrong code, and after 5 minutes', async () => {
    const { user, secret } = await userWithTwoFactors();
    const c = await passwordStep(user);
    const right = totp(secret, { steps: 1 });
    const wrongCode = right === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++) {
      const r = await c.post('/api/login/two-factor', { code: wrongCode });
      assert.equal(r.status, 401, show(r));
      assert.equal(r.body.code, 'invalid_two_factor_code', `wrong code ${i}`);
    }
    const fifth = await c.post('/api/login/two-factor', { code: wrongCode });
    assert.equal(fifth.status, 401, show(fifth));
    assert.equal(fifth.body.code, 'two_factor_attempt_ended');
    // A right code no longer helps this attempt.
    const late = await c.post('/api/login/two-factor', { code: right });
    assert.equal(late.status, 401, show(late));
    assert.equal(late.body.code, 'two_factor_attempt_ended');

    // A new attempt, expired in SQL: ended too.
    const d = await passwordStep(user);
    await db.query(
      "UPDATE two_factor_challenges SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE lower(email) = lower($1))",
      [user.email],
    );
    const expired = await d.post('/api/login/two-factor', { code: right });
    assert.equal(expired.status, 401, show(expired));
    assert.equal(expired.body.code, 'two_factor_attempt_ended');
  });

  it('makes new recovery codes and turns off with the password and a code', async () => {
    const { user, c, secret, recoveryCodes } = await userWithTwoFactors();
    const fresh = await c.post('/api/user/two-factor/recovery-codes', { code: totp(secret, { steps: 1 }) });
    assert.equal(fresh.status, 200, show(fresh));
    assert.equal(fresh.body.recoveryCodes.length, 10);
    const stale = await passwordStep(user);
    assert.equal(
      (await stale.post('/api/login/two-factor', { recoveryCode: recoveryCodes[0] })).status,
      401,
      'the old set stopped working',
    );
    await forgetUsedStep(user);
    const badPassword = await c.post('/api/user/two-factor/disable', { password: 'not-it', code: totp(secret) });
    assert.equal(badPassword.status, 400, show(badPassword));
    assert.equal(badPassword.body.message, 'Incorrect password.');
    const off = await c.post('/api/user/two-factor/disable', { password: user.password, code: totp(secret) });
    assert.equal(off.status, 200, show(off));
    const plain = await client(stack.baseUrl).post('/api/login', { email: user.email, password: user.password });
    assert.equal(plain.status, 200, show(plain));
    assert.equal(plain.body.twoFactorEnabled, false);
  });

  it('keeps the second factor across a password change', async () => {
    const { user, c } = await userWithTwoFactors();
    const changed = await c.post('/api/user/change-password', {
      currentPassword: user.password,
      newPassword: 'another-horse-43',
    });
    assert.equal(changed.status, 200, show(changed));
    user.password = 'another-horse-43';
    await passwordStep(user);
  });

  it('refuses admin endpoints to an admin without two factors when ADMIN_TWO_FACTOR=required', async () => {
    strict = await startStack({ env: { ADMIN_TWO_FACTOR: 'required' } });
    const admin = await createVerifiedUser(strict);
    await makeAdmin(strict, admin.email);
    const c = await signIn(strict, admin);
    const refused = await c.get('/api/admin/stats');
    assert.equal(refused.status, 403, show(refused));
    assert.equal(refused.body.code, 'two_factor_required');

    const { user: second, secret } = await userWithTwoFactors(strict);
    await makeAdmin(strict, second.email);
    const pending = client(strict.baseUrl);
    assert.equal((await pending.post('/api/login', { email: second.email, password: second.password })).status, 202);
    const ok = await pending.post('/api/login/two-factor', { code: totp(secret, { steps: 1 }) });
    assert.equal(ok.status, 200, show(ok));
    const allowed = await pending.get('/api/admin/stats');
    assert.equal(allowed.status, 200, show(allowed));
  });
});

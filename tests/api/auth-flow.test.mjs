// The account life cycle through the real processes: register, the verification e-mail in the file
// outbox, verify, login, the session cookie, the current user, logout.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser, newUser, signIn, VERIFY_SUBJECT } from '../harness/accounts.mjs';
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

const UNAUTHORIZED = { code: 'unauthorized', message: 'Unauthorized' };

function assertUser(body, expected) {
  const keys = [
    'createdAt',
    // Issue 35: when the account is to be removed (null when no deletion is scheduled).
    'deletionScheduledAt',
    'email',
    'emailVerified',
    'firstName',
    'id',
    'isActive',
    'isAdmin',
    'isMentor',
    'lastName',
    // Issue 30: the sign-in before this session's (null at the first), for 'Welcome' or 'Welcome back'.
    'previousSignInAt',
    'profileImageUrl',
    'role',
    'stripeSubscriptionId',
    'twoFactorEnabled',
  ];
  assert.deepEqual(Object.keys(body ?? {}).sort(), keys, `user fields: ${JSON.stringify(body)}`);
  assert.match(body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  assert.equal(body.email.toLowerCase(), expected.email.toLowerCase());
  assert.equal(body.firstName, expected.firstName);
  assert.equal(body.lastName, expected.lastName);
  assert.equal(body.profileImageUrl, null);
  assert.equal(body.isAdmin, false);
  assert.equal(body.role, 'user');
  assert.equal(body.isActive, true);
  assert.equal(body.emailVerified, true);
  assert.equal(body.stripeSubscriptionId, null);
  assert.ok(!Number.isNaN(Date.parse(body.createdAt)), `createdAt ${body.createdAt}`);
  assert.match(body.createdAt, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
}

describe('register, verify, login, logout', () => {
  it('walks the whole life cycle', async () => {
    const user = newUser({ firstName: 'Grace', lastName: 'Hopper' });
    const c = client(stack.baseUrl);

    const reg = await c.post('/api/register', user);
    assert.equal(reg.status, 201, show(reg));
    assert.equal(reg.body.requiresVerification, true, show(reg));
    assert.equal(typeof reg.body.message, 'string', show(reg));
    assert.equal(c.cookies.sid, undefined, 'registering does not sign in');

    // Not verified yet: login refused with 403.
    const early = await c.post('/api/login', { email: user.email, password: user.password });
    assert.equal(early.status, 403, show(early));
    assert.equal(typeof early.body.message, 'string', show(early));
    assert.equal(c.cookies.sid, undefined);

    // The verification e-mail: plain text and HTML, both with the link.
    const mail = await stack.waitForMail(mailTo(user.email, VERIFY_SUBJECT));
    assert.equal(mail.subject, VERIFY_SUBJECT);
    assert.ok(mail.text.trim().length > 0, 'a plain-text part');
    assert.ok(mail.html.trim().length > 0, 'an HTML part');
    const link = findLink(mail, `${stack.baseUrl}/verify-email?token=`);
    assert.ok(mail.text.includes(link.href) || mail.text.includes(decodeURI(link.href)), `the text part has ${link}`);
    assert.ok(mail.html.replace(/&amp;/g, '&').includes(link.href), `the HTML part has ${link}`);
    const token = link.searchParams.get('token');
    assert.ok(token && token.length >= 16, `a long token: ${token}`);

    const verify = await c.post('/api/verify-email', { token });
    assert.equal(verify.status, 200, show(verify));
    assert.equal(typeof verify.body.message, 'string', show(verify));

    // Single use.
    const again = await c.post('/api/verify-email', { token });
    assert.equal(again.status, 400, show(again));
    assert.equal(typeof again.body.message, 'string', show(again));

    // Login: the user, and the sid cookie.
    const login = await c.post('/api/login', { email: user.email, password: user.password });
    assert.equal(login.status, 200, show(login));
    assertUser(login.body, user);
    const sid = login.setCookies.find((k) => k.name === 'sid');
    assert.ok(sid && sid.value, `a sid cookie: ${JSON.stringify(login.setCookies)}`);
    assert.equal(sid.attributes.httponly, true, 'HttpOnly');
    assert.equal(String(sid.attributes.samesite).toLowerCase(), 'lax', 'SameSite=Lax');
    assert.equal(sid.attributes.path, '/', 'Path=/');
    assert.equal(sid.attributes.secure, undefined, 'no Secure flag over http');
    assert.ok(sid.value.length >= 32, 'a long random token');

    const me = await c.get('/api/auth/user');
    assert.equal(me.status, 200, show(me));
    assertUser(me.body, user);
    assert.equal(me.body.id, login.body.id);

    const out = await c.post('/api/logout');
    assert.equal(out.status, 200, show(out));
    assert.equal(typeof out.body.message, 'string', show(out));
    const cleared = out.setCookies.find((k) => k.name === 'sid');
    assert.ok(cleared, 'logout sets sid to clear it');
    assert.equal(c.cookies.sid, undefined, `sid cleared: ${JSON.stringify(out.setCookies)}`);

    const gone = await c.get('/api/auth/user');
    assert.equal(gone.status, 401, show(gone));
    assert.deepEqual(gone.body, UNAUTHORIZED);

    // The session ended on the server too: replaying the old cookie does not work.
    const replay = await client(stack.baseUrl).get('/api/auth/user', { headers: { cookie: `sid=${sid.value}` } });
    assert.equal(replay.status, 401, show(replay));
  });

  it('GET /api/auth/user without a session is 401 {"message":"Unauthorized"}', async () => {
    const res = await client(stack.baseUrl).get('/api/auth/user');
    assert.equal(res.status, 401, show(res));
    assert.deepEqual(res.body, UNAUTHORIZED);
    const bogus = await client(stack.baseUrl).get('/api/auth/user', { headers: { cookie: 'sid=not-a-session' } });
    assert.equal(bogus.status, 401, show(bogus));
    assert.deepEqual(bogus.body, UNAUTHORIZED);
  });

  it('an invalid verification token is a 400', async () => {
    const res = await client(stack.baseUrl).post('/api/verify-email', { token: 'no-such-token' });
    assert.equal(res.status, 400, show(res));
    assert.equal(typeof res.body.message, 'string', show(res));
  });

  it('GET /api/logout from anywhere but the browser itself only redirects, and the session stays', async () => {
    const user = await createVerifiedUser(stack);
    const c = await signIn(stack, user);
    const sid = c.cookies.sid;
    // No Sec-Fetch-Site (not a browser's navigation), or another site's: the redirect only.
    const res = await c.get('/api/logout', { headers: { 'sec-fetch-site': 'cross-site' } });
    assert.equal(res.status, 302, show(res));
    assert.equal(res.headers.get('location'), '/auth');
    assert.equal((await c.get('/api/logout')).status, 302);
    const replay = await client(stack.baseUrl).get('/api/auth/user', { headers: { cookie: `sid=${sid}` } });
    assert.equal(replay.status, 200, `the session stays: ${show(replay)}`);
  });

  it('a cross-site POST /api/logout is refused and the session stays', async () => {
    const user = await createVerifiedUser(stack);
    const c = await signIn(stack, user);
    const evil = await c.post('/api/logout', undefined, { headers: { origin: 'https://evil.example' } });
    assert.equal(evil.status, 403, show(evil));
    const me = await c.get('/api/auth/user');
    assert.equal(me.status, 200, `still signed in: ${show(me)}`);
  });

  it('two logins are two independent sessions', async () => {
    const user = await createVerifiedUser(stack);
    const a = await signIn(stack, user);
    const b = await signIn(stack, user);
    assert.notEqual(a.cookies.sid, b.cookies.sid);
    assert.equal((await a.post('/api/logout')).status, 200);
    assert.equal((await a.get('/api/auth/user')).status, 401);
    const me = await b.get('/api/auth/user');
    assert.equal(me.status, 200, `the other session stays: ${show(me)}`);
  });
});

describe('the mentor profile of a plain user', () => {
  it('GET /api/mentor/profile is 401 signed out and 404 for a user who is not a mentor', async () => {
    const anon = await client(stack.baseUrl).get('/api/mentor/profile');
    assert.equal(anon.status, 401, show(anon));
    assert.deepEqual(anon.body, UNAUTHORIZED);
    const c = await signIn(stack, await createVerifiedUser(stack));
    const res = await c.get('/api/mentor/profile');
    assert.equal(res.status, 404, show(res));
    assert.equal(typeof res.body?.message, 'string', show(res));
  });
});

describe('behind HTTPS (APP_BASE_URL=https://...)', () => {
  const publicUrl = 'https://mentor.example';
  let https;
  before(async () => {
    https = await startStack({ env: { APP_BASE_URL: publicUrl } });
  });
  after(async () => {
    await https?.stop();
  });

  it('mail links use APP_BASE_URL and the session cookie is Secure', async () => {
    // Requests come from pages of https://mentor.example (a proxy terminates TLS).
    const c = client(https.baseUrl, { origin: publicUrl });
    const user = newUser();
    const reg = await c.post('/api/register', user);
    assert.equal(reg.status, 201, show(reg));
    const mail = await https.waitForMail(mailTo(user.email, VERIFY_SUBJECT));
    const token = findLink(mail, `${publicUrl}/verify-email?token=`).searchParams.get('token');
    assert.equal((await c.post('/api/verify-email', { token })).status, 200);

    const login = await c.post('/api/login', { email: user.email, password: user.password });
    assert.equal(login.status, 200, show(login));
    const sid = login.setCookies.find((k) => k.name === 'sid');
    assert.ok(sid?.value, `a sid cookie: ${JSON.stringify(login.setCookies)}`);
    assert.equal(sid.attributes.secure, true, 'Secure');
    assert.equal(sid.attributes.httponly, true, 'HttpOnly');
    assert.equal(String(sid.attributes.samesite).toLowerCase(), 'lax', 'SameSite=Lax');

    // A page of another site is still refused.
    const evil = client(https.baseUrl, { origin: 'https://evil.example' });
    const refused = await evil.post('/api/forgot-password', { email: user.email });
    assert.equal(refused.status, 403, show(refused));
  });
});

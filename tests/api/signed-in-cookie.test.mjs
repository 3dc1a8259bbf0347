// The `signed_in` cookie tells the web app whether asking for the user can answer anything but
// 401: set at sign-in beside the session cookie (readable by scripts, nothing secret in it),
// cleared at sign-out and when a request finds the session gone. The user's own view says whether
// they are a mentor, so the web asks for the mentor profile only then.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { client, show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

const cookie = (res, name) => res.setCookies.find((c) => c.name === name);

describe('the signed_in cookie', () => {
  it('is set at sign-in like the session (but readable by scripts) and cleared at sign-out', async () => {
    const user = await createVerifiedUser(stack);
    const c = client(stack.baseUrl);
    const login = await c.post('/api/login', { email: user.email, password: user.password });
    assert.equal(login.status, 200, show(login));
    const sid = cookie(login, 'sid');
    const signedIn = cookie(login, 'signed_in');
    assert.ok(signedIn, 'signed_in is set');
    assert.equal(signedIn.value, '1');
    assert.equal(signedIn.attributes.httponly, undefined, 'not HttpOnly: the web app reads it');
    assert.equal(signedIn.attributes.samesite?.toLowerCase(), 'lax');
    assert.equal(signedIn.attributes.path, '/');
    assert.equal(signedIn.attributes['max-age'], sid.attributes['max-age'], 'the session lifetime');
    assert.equal(sid.attributes.httponly, true, 'the session cookie stays HttpOnly');

    const me = await c.get('/api/auth/user');
    assert.equal(me.status, 200, show(me));
    assert.equal(me.body.isMentor, false);

    const out = await c.post('/api/logout', {});
    assert.equal(out.status, 200, show(out));
    assert.equal(cookie(out, 'signed_in')?.attributes['max-age'], '0');
    assert.equal(c.cookies.signed_in, undefined);
    assert.equal((await c.get('/api/auth/user')).status, 401, 'signed out: still 401');
  });

  it('is cleared by the first request that finds the session expired', async () => {
    const user = await createVerifiedUser(stack);
    const c = await signIn(stack, user);
    assert.equal(c.cookies.signed_in, '1');
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      await db.query(
        "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE email = $1)",
        [user.email],
      );
    } finally {
      await db.end();
    }
    const me = await c.get('/api/auth/user');
    assert.equal(me.status, 401, show(me));
    assert.equal(cookie(me, 'signed_in')?.attributes['max-age'], '0', 'the stale cookie is cleared');
    assert.equal(c.cookies.signed_in, undefined);
    // Without it, a signed-out request sets nothing.
    const again = await c.get('/api/auth/user');
    assert.equal(again.status, 401);
    assert.equal(cookie(again, 'signed_in'), undefined);
  });

  it("says in the user's own view whether they have a mentor profile", async () => {
    const user = await createVerifiedUser(stack);
    const c = await signIn(stack, user);
    assert.equal((await c.get('/api/auth/user')).body.isMentor, false);
    const m = await c.post('/api/mentors', {
      displayName: 'Mina Mentor',
      bio: 'A mentor for the signed-in cookie test with a bio long enough to pass.',
      specialties: ['Astrology'],
      basePrice: '40.00',
    });
    assert.equal(m.status, 201, show(m));
    assert.equal((await c.get('/api/auth/user')).body.isMentor, true);
  });
});

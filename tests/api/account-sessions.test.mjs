// Where am I signed in (issue 35, section 4): the session list, ending one (its sockets close at
// once), signing out every other device, and the e-mail about a sign-in from a browser and address
// the account has not used for 90 days.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser } from '../harness/accounts.mjs';
import { client, show } from '../harness/client.mjs';
import { mailTo } from '../harness/mail.mjs';
import { connect } from '../harness/realtime.mjs';
import { startStack } from '../harness/stack.mjs';

const NEW_SIGN_IN_SUBJECT = 'New sign-in to your account';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';
const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

let stack;
let db;
before(async () => {
  stack = await startStack({ worker: true });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

/** Signs `user` in from a browser with this User-Agent. */
async function signInAs(user, userAgent) {
  const c = client(stack.baseUrl);
  const res = await c.post(
    '/api/login',
    { email: user.email, password: user.password },
    { headers: { 'user-agent': userAgent } },
  );
  assert.equal(res.status, 200, show(res));
  return c;
}

/** The new sign-in e-mails queued for `email` (queued in the sign-in's request, so final once it answered). */
async function newSignInJobs(email) {
  const { rows } = await db.query(
    `SELECT convert_from(job, 'UTF8')::jsonb AS job FROM apalis.jobs
      WHERE job_type = 'emails' AND convert_from(job, 'UTF8')::jsonb->>'kind' = 'new_sign_in'
        AND convert_from(job, 'UTF8')::jsonb->>'user_id' = (SELECT id::text FROM users WHERE lower(email) = lower($1))`,
    [email],
  );
  return rows.map((r) => r.job);
}

describe('where am I signed in', () => {
  it('lists the sessions with the current one marked, and never shows the cookie', async () => {
    const user = await createVerifiedUser(stack);
    const laptop = await signInAs(user, FIREFOX);
    const phone = await signInAs(user, CHROME);
    const res = await laptop.get('/api/user/sessions');
    assert.equal(res.status, 200, show(res));
    assert.equal(res.body.length, 2);
    const [current, other] = res.body;
    assert.equal(current.current, true);
    assert.equal(current.userAgent, FIREFOX);
    assert.equal(other.current, false);
    assert.equal(other.userAgent, CHROME);
    for (const s of res.body) {
      assert.match(s.id, /^[0-9a-f-]{36}$/);
      assert.ok(s.address, 'the address is kept');
      assert.ok(Date.parse(s.createdAt) && Date.parse(s.lastSeenAt));
    }
    assert.ok(!res.text.includes(laptop.cookies.sid) && !res.text.includes(phone.cookies.sid), 'no secret');
    assert.equal((await client(stack.baseUrl).get('/api/user/sessions')).status, 401);
  });

  it("ends one session, closing its socket at once, and answers 404 for another user's", async () => {
    const user = await createVerifiedUser(stack);
    const laptop = await signInAs(user, FIREFOX);
    const phone = await signInAs(user, CHROME);
    const phoneSocket = await connect(stack, phone);
    const laptopSocket = await connect(stack, laptop);
    try {
      const phoneSession = (await laptop.get('/api/user/sessions')).body.find((s) => !s.current);

      const stranger = await signInAs(await createVerifiedUser(stack), FIREFOX);
      const foreign = await stranger.delete(`/api/user/sessions/${phoneSession.id}`);
      assert.equal(foreign.status, 404, show(foreign));
      assert.equal(foreign.body.code, 'not_found');
      assert.equal((await phone.get('/api/auth/user')).status, 200, "another user's delete changed nothing");
      assert.equal((await laptop.delete('/api/user/sessions/not-an-id')).status, 404);

      const ended = await laptop.delete(`/api/user/sessions/${phoneSession.id}`);
      assert.equal(ended.status, 200, show(ended));
      const closed = await phoneSocket.closed;
      assert.ok(closed.code >= 1000, JSON.stringify(closed));
      assert.equal((await phone.get('/api/auth/user')).status, 401, 'the ended session is signed out');
      laptopSocket.send('ping', {});
      await laptopSocket.next('pong');
      assert.equal((await laptop.get('/api/user/sessions')).body.length, 1);
      assert.equal((await laptop.delete(`/api/user/sessions/${phoneSession.id}`)).status, 404, 'gone already');
    } finally {
      await laptopSocket.close();
    }
  });

  it('signs out every other device and keeps this one', async () => {
    const user = await createVerifiedUser(stack);
    const laptop = await signInAs(user, FIREFOX);
    const phone = await signInAs(user, CHROME);
    const tablet = await signInAs(user, CHROME);
    const tabletSocket = await connect(stack, tablet);
    const res = await laptop.post('/api/user/sessions/revoke-others', {});
    assert.equal(res.status, 200, show(res));
    await tabletSocket.closed;
    assert.equal((await phone.get('/api/auth/user')).status, 401);
    assert.equal((await tablet.get('/api/auth/user')).status, 401);
    assert.equal((await laptop.get('/api/auth/user')).status, 200);
    const left = (await laptop.get('/api/user/sessions')).body;
    assert.deepEqual(
      left.map((s) => s.current),
      [true],
    );
  });

  it('e-mails a sign-in from a browser and address not seen for the account in 90 days', async () => {
    const user = await createVerifiedUser(stack);
    await signInAs(user, FIREFOX);
    assert.equal((await newSignInJobs(user.email)).length, 0, "the account's first sign-in is not news");
    await signInAs(user, FIREFOX);
    assert.equal((await newSignInJobs(user.email)).length, 0, 'the same browser and address again');

    await signInAs(user, CHROME);
    const mail = await stack.waitForMail(mailTo(user.email, NEW_SIGN_IN_SUBJECT));
    assert.match(mail.text, /Chrome on Windows/);
    assert.match(mail.text, /127\.0\.0\.1/);
    assert.match(mail.text, /\d{4} at \d\d:\d\d UTC/);
    assert.ok(
      mail.text.includes(`${stack.baseUrl}/profile#privacy-and-security`) ||
        /\/profile#privacy-and-security/.test(mail.text),
    );
    assert.equal((await newSignInJobs(user.email)).length, 1);

    // Firefox was last seen 91 days ago: news again.
    await db.query(
      `UPDATE sign_in_devices SET last_signed_in = now() - interval '91 days'
        WHERE user_id = (SELECT id FROM users WHERE lower(email) = lower($1)) AND user_agent = $2`,
      [user.email, FIREFOX],
    );
    await signInAs(user, FIREFOX);
    const jobs = await newSignInJobs(user.email);
    assert.equal(jobs.length, 2);
    assert.ok(jobs.some((j) => j.user_agent === FIREFOX));
  });
});

// Issue 36, §2: mentors online. A per-minute rate and modes on the profile; presence only with an
// open socket, and gone 60 s after the last one closed (time moved in SQL, never slept); the views
// carry presence as of the response; `availableNow=true` and `GET /api/mentors/presence`; live
// `presenceChanged` to the sockets that watch that mentor only; a booked session within 15 minutes.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { connect } from '../harness/realtime.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

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

const one = async (sql, params = []) => (await db.query(sql, params)).rows[0];

/** A bookable mentor with a per-minute rate. */
async function instantMentor(rate = '1.99') {
  const m = await bookableMentor(stack);
  const r = await m.c.put('/api/mentor/profile', { perMinuteRate: rate, instantModes: ['chat', 'video'] });
  assert.equal(r.status, 200, show(r));
  return m;
}

const presenceOf = async (mentorId) => (await client(stack.baseUrl).get(`/api/mentors/${mentorId}`)).body.presence;

describe('the per-minute rate on the profile', () => {
  it('is 0.99 to 20.00, "0.00" turns it off, absent leaves it; the modes are chat, video or both', async () => {
    const m = await bookableMentor(stack);
    const own = await m.c.get('/api/mentor/profile');
    assert.equal(own.body.perMinuteRate, null);
    assert.equal(own.body.presence, 'offline');
    for (const bad of ['0.98', '20.01', 'abc']) {
      const r = await m.c.put('/api/mentor/profile', { perMinuteRate: bad });
      assert.equal(r.status, 400, `${bad}: ${show(r)}`);
    }
    const set = await m.c.put('/api/mentor/profile', { perMinuteRate: '2.50', instantModes: ['video'] });
    assert.equal(set.status, 200, show(set));
    assert.equal(set.body.perMinuteRate, '2.50');
    assert.deepEqual(set.body.instantModes, ['video']);
    const kept = await m.c.put('/api/mentor/profile', {
      bio: 'A new bio that is long enough to pass the rule of fifty characters.',
    });
    assert.equal(kept.body.perMinuteRate, '2.50');
    const badMode = await m.c.put('/api/mentor/profile', { instantModes: ['phone'] });
    assert.equal(badMode.status, 400, show(badMode));
    const off = await m.c.put('/api/mentor/profile', { perMinuteRate: '0.00' });
    assert.equal(off.body.perMinuteRate, null);
    const page = await client(stack.baseUrl).get(`/api/mentors/${m.mentor.id}`);
    assert.equal(page.body.perMinuteRate, null);
  });
});

describe('presence', () => {
  it('needs a rate and an open socket', async () => {
    const noRate = await bookableMentor(stack);
    const s0 = await connect(stack, noRate.c);
    const r0 = await noRate.c.put('/api/mentor/presence', { status: 'available' });
    assert.equal(r0.status, 409, show(r0));
    await s0.close();

    const m = await instantMentor();
    const r = await m.c.put('/api/mentor/presence', { status: 'available' });
    assert.equal(r.status, 409, show(r));
    assert.equal(r.body.message, 'Open the site to go online.');
    const bad = await m.c.put('/api/mentor/presence', { status: 'busy' });
    assert.equal(bad.status, 400, show(bad));

    const socket = await connect(stack, m.c);
    const ok = await m.c.put('/api/mentor/presence', { status: 'available' });
    assert.equal(ok.status, 200, show(ok));
    assert.deepEqual(ok.body, { status: 'available' });
    assert.equal(await presenceOf(m.mentor.id), 'available');
    const own = await m.c.get('/api/mentor/profile');
    assert.equal(own.body.presence, 'available');

    const seeker = await createVerifiedUser(stack);
    const anyone = client(stack.baseUrl);
    const polled = await anyone.get(`/api/mentors/presence?ids=${m.mentor.id},${crypto.randomUUID()}`);
    assert.equal(polled.status, 200, show(polled));
    assert.deepEqual(
      polled.body.map((p) => p.status),
      ['available', 'offline'],
    );
    const now = await anyone.get('/api/mentors?availableNow=true&pageSize=50');
    assert.equal(now.status, 200, show(now));
    assert.ok(
      now.body.mentors.some((x) => x.id === m.mentor.id && x.presence === 'available' && x.perMinuteRate === '1.99'),
      show(now),
    );
    assert.ok(
      now.body.mentors.every((x) => x.presence === 'available'),
      show(now),
    );
    const listed = await anyone.get('/api/mentors?pageSize=50');
    const card = listed.body.mentors.find((x) => x.id === m.mentor.id);
    if (card) assert.equal(card.presence, 'available');
    assert.ok(seeker);

    const off = await m.c.put('/api/mentor/presence', { status: 'offline' });
    assert.equal(off.body.status, 'offline');
    assert.equal(await presenceOf(m.mentor.id), 'offline');
    const gone = await anyone.get('/api/mentors?availableNow=true&pageSize=50');
    assert.ok(!gone.body.mentors.some((x) => x.id === m.mentor.id), show(gone));
    const far = await anyone.get('/api/mentors?availableNow=true&page=9223372036854775807');
    assert.equal(far.status, 400, show(far));
    assert.equal(far.body.message, 'Page must be at most 10000');
    await socket.close();
  });

  it('ends 60 seconds after the last socket closed, not before, and not while another is open', async () => {
    const m = await instantMentor();
    const first = await connect(stack, m.c);
    const second = await connect(stack, m.c);
    assert.equal((await m.c.put('/api/mentor/presence', { status: 'available' })).status, 200);
    await first.close();
    await second.close();
    await until('the presence check to be queued', async () => {
      const row = await one(
        "SELECT count(*)::int AS n FROM apalis.jobs WHERE job_type = 'presence_checks' AND status = 'Pending' AND convert_from(job, 'UTF8') LIKE '%' || $1 || '%'",
        [m.mentor.id],
      );
      return row.n >= 1;
    });
    const due = await one(
      "SELECT extract(epoch FROM min(run_at) - now())::float AS s FROM apalis.jobs WHERE job_type = 'presence_checks' AND status = 'Pending' AND convert_from(job, 'UTF8') LIKE '%' || $1 || '%'",
      [m.mentor.id],
    );
    assert.ok(due.s > 50 && due.s <= 61, `the check is due in ${due.s} s`);
    assert.equal(await presenceOf(m.mentor.id), 'available', 'still available within the 60 seconds');
    // The minute passes: in SQL.
    await db.query(
      "UPDATE apalis.jobs SET run_at = now() WHERE job_type = 'presence_checks' AND status = 'Pending' AND convert_from(job, 'UTF8') LIKE '%' || $1 || '%'",
      [m.mentor.id],
    );
    await until('the mentor to be offline', async () => (await presenceOf(m.mentor.id)) === 'offline');
  });

  it('a socket open again when the minute is over keeps the mentor online', async () => {
    const m = await instantMentor();
    const first = await connect(stack, m.c);
    assert.equal((await m.c.put('/api/mentor/presence', { status: 'available' })).status, 200);
    await first.close();
    const back = await connect(stack, m.c);
    await until('the presence check to be queued', async () => {
      const row = await one(
        "SELECT count(*)::int AS n FROM apalis.jobs WHERE job_type = 'presence_checks' AND convert_from(job, 'UTF8') LIKE '%' || $1 || '%'",
        [m.mentor.id],
      );
      return row.n >= 1;
    });
    await db.query(
      "UPDATE apalis.jobs SET run_at = now() WHERE job_type = 'presence_checks' AND status = 'Pending' AND convert_from(job, 'UTF8') LIKE '%' || $1 || '%'",
      [m.mentor.id],
    );
    await until('the check to have run', async () => {
      const row = await one(
        "SELECT count(*)::int AS n FROM apalis.jobs WHERE job_type = 'presence_checks' AND status = 'Done' AND convert_from(job, 'UTF8') LIKE '%' || $1 || '%'",
        [m.mentor.id],
      );
      return row.n >= 1;
    });
    assert.equal(await presenceOf(m.mentor.id), 'available');
    await back.close();
  });

  it('presenceChanged reaches the sockets that watch the mentor, not the others', async () => {
    const m = await instantMentor();
    const mentorSocket = await connect(stack, m.c);
    const watcherUser = await createVerifiedUser(stack);
    const watcher = await connect(stack, await signIn(stack, watcherUser));
    const bystanderUser = await createVerifiedUser(stack);
    const bystander = await connect(stack, await signIn(stack, bystanderUser));
    watcher.send('watchPresence', { mentorIds: [m.mentor.id] });
    bystander.send('watchPresence', { mentorIds: [crypto.randomUUID()] });
    // The watch is stored before the next frame is answered.
    watcher.send('ping');
    await watcher.next('pong');
    bystander.send('ping');
    await bystander.next('pong');
    assert.equal((await m.c.put('/api/mentor/presence', { status: 'available' })).status, 200);
    const seen = await watcher.next('presenceChanged', (d) => d.mentorId === m.mentor.id);
    assert.deepEqual(seen, { mentorId: m.mentor.id, status: 'available' });
    assert.equal((await m.c.put('/api/mentor/presence', { status: 'offline' })).status, 200);
    await watcher.next('presenceChanged', (d) => d.status === 'offline');
    bystander.send('ping');
    await bystander.next('pong');
    assert.deepEqual(bystander.received('presenceChanged'), []);

    const tooMany = Array.from({ length: 101 }, () => crypto.randomUUID());
    watcher.send('watchPresence', { mentorIds: tooMany });
    const refused = await watcher.next('error', (d) => d.event === 'watchPresence');
    assert.equal(refused.message, 'At most 100 mentors at once');
    const polled = await client(stack.baseUrl).get(`/api/mentors/presence?ids=${tooMany.join(',')}`);
    assert.equal(polled.status, 400, show(polled));
    await Promise.all([mentorSocket.close(), watcher.close(), bystander.close()]);
  });

  it('a booked session within 15 minutes or in progress keeps the mentor offline', async () => {
    const m = await instantMentor();
    const seekerUser = await createVerifiedUser(stack);
    const seeker = await signIn(stack, seekerUser);
    const held = await reserve(seeker, m, startIn(48));
    const booking = await pay(seeker, held.reservation.id, seekerUser);
    const socket = await connect(stack, m.c);
    assert.equal((await m.c.put('/api/mentor/presence', { status: 'available' })).status, 200);
    assert.equal((await m.c.put('/api/mentor/presence', { status: 'offline' })).status, 200);
    await db.query(
      "UPDATE bookings SET scheduled_at = now() + interval '14 minutes', ends_at = now() + interval '74 minutes' WHERE id = $1",
      [booking.id],
    );
    const soon = await m.c.put('/api/mentor/presence', { status: 'available' });
    assert.equal(soon.status, 409, show(soon));
    await db.query(
      "UPDATE bookings SET scheduled_at = now() - interval '10 minutes', ends_at = now() + interval '50 minutes' WHERE id = $1",
      [booking.id],
    );
    const during = await m.c.put('/api/mentor/presence', { status: 'available' });
    assert.equal(during.status, 409, show(during));
    // One in 20 minutes: online now, and the check 15 minutes before it takes the mentor offline.
    await db.query(
      "UPDATE bookings SET scheduled_at = now() + interval '20 minutes', ends_at = now() + interval '80 minutes' WHERE id = $1",
      [booking.id],
    );
    assert.equal((await m.c.put('/api/mentor/presence', { status: 'available' })).status, 200);
    await db.query(
      "UPDATE bookings SET scheduled_at = now() + interval '10 minutes', ends_at = now() + interval '70 minutes' WHERE id = $1",
      [booking.id],
    );
    await db.query(
      "UPDATE apalis.jobs SET run_at = now() WHERE job_type = 'presence_checks' AND status = 'Pending' AND convert_from(job, 'UTF8') LIKE '%' || $1 || '%'",
      [m.mentor.id],
    );
    await until(
      'the mentor to be offline before the session',
      async () => (await presenceOf(m.mentor.id)) === 'offline',
    );
    await socket.close();
  });
});

/** A task id as apalis makes them: a ULID (26 characters of Crockford's base 32). */
function ulid() {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  return `01${Array.from({ length: 24 }, () => alphabet[crypto.randomInt(32)]).join('')}`;
}

describe('the presence sweep', () => {
  it('takes an available mentor offline when their socket row went stale (their api process died)', async () => {
    const m = await instantMentor();
    const socket = await connect(stack, m.c);
    assert.equal((await m.c.put('/api/mentor/presence', { status: 'available' })).status, 200);
    // The process that held the socket died: its row is no longer refreshed.
    await db.query("UPDATE realtime_sockets SET seen_at = now() - interval '10 minutes' WHERE user_id = $1", [
      m.user.id ?? (await m.c.get('/api/auth/user')).body.id,
    ]);
    // The sweep's tick, now (its cron would queue the same task within the minute).
    await db.query(
      `INSERT INTO apalis.jobs (id, job_type, job, status, attempts, max_attempts, run_at)
       VALUES ($1, 'presence_checks_sweep', convert_to('{"tick":1}', 'UTF8'), 'Pending', 0, 3, now())`,
      [ulid()],
    );
    await until('the sweep to take the mentor offline', async () => (await presenceOf(m.mentor.id)) === 'offline');
    socket.ws.close();
  });
});

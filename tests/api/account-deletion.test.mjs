// Delete my account (issue 35, section 2): on the password, every session and socket ends at once,
// upcoming bookings are cancelled and refunded, a mentor is unlisted; the user can sign in and keep
// the account for 14 days; then a job removes the person and keeps what others need.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, register, signIn, verificationToken } from '../harness/accounts.mjs';
import { APPROVED_CARD, bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { mailTo } from '../harness/mail.mjs';
import { connect } from '../harness/realtime.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const DELETION_SUBJECT = 'Your account will be deleted';
const DAY = 86_400_000;

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

async function refundsOf(bookingId) {
  const { rows } = await db.query(
    'SELECT percentage, amount_cents::int AS cents, status FROM refunds WHERE booking_id = $1',
    [bookingId],
  );
  return rows;
}

async function bookingStatus(id) {
  return (await db.query('SELECT status FROM bookings WHERE id = $1', [id])).rows[0].status;
}

/** A seeker with a paid booking of `mentor` starting in `hours` hours. */
async function paidBooking(mentor, hours, seekerUser) {
  const user = seekerUser ?? (await createVerifiedUser(stack));
  const c = await signIn(stack, user);
  const held = await reserve(c, mentor, startIn(hours));
  return { user, c, booking: await pay(c, held.reservation.id, user) };
}

/** A new task id as apalis makes them (a ULID: 48 bits of milliseconds, 80 random bits, Crockford base32). */
function ulid() {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let time = Date.now();
  let out = '';
  for (let i = 0; i < 10; i += 1) {
    out = alphabet[time % 32] + out;
    time = Math.floor(time / 32);
  }
  for (let i = 0; i < 16; i += 1) out += alphabet[Math.floor(Math.random() * 32)];
  return out;
}

/** Runs the daily removal sweep once (a tick queued by hand) and waits until it is done. */
async function sweepRemovals() {
  const id = ulid();
  await db.query(
    `INSERT INTO apalis.jobs (id, job_type, job, status, attempts, max_attempts, run_at)
     VALUES ($1, 'account_removal_sweep', convert_to('{"tick":' || $2 || '}', 'UTF8'), 'Pending', 0, 3, now())`,
    [id, String(Date.now())],
  );
  await until('the removal sweep ran', async () => {
    const { rows } = await db.query('SELECT status FROM apalis.jobs WHERE id = $1', [id]);
    return rows[0]?.status === 'Done';
  });
}

/** Moves the user's removal to now, as if 14 days had passed, and waits for the job to remove them. */
async function removalComesDue(userId) {
  await db.query("UPDATE users SET deletion_scheduled_at = now() - interval '1 second' WHERE id = $1", [userId]);
  await db.query(
    `UPDATE apalis.jobs SET run_at = now() WHERE job_type = 'account_removal' AND status = 'Pending'
       AND convert_from(job, 'UTF8')::jsonb->>'user_id' = $1`,
    [userId],
  );
  await until('the removal job ran', async () => {
    const { rows } = await db.query('SELECT deleted_at FROM users WHERE id = $1', [userId]);
    return rows[0].deleted_at !== null;
  });
}

describe('delete my account', () => {
  it('asks for the password: a wrong one is 400 Incorrect password.', async () => {
    const user = await createVerifiedUser(stack);
    const c = await signIn(stack, user);
    const res = await c.post('/api/user/delete-account', { password: 'not-my-password' });
    assert.equal(res.status, 400, show(res));
    assert.equal(res.body.message, 'Incorrect password.');
    assert.equal((await c.get('/api/auth/user')).body.deletionScheduledAt, null);
  });

  it("ends every session and socket at once, cancels the seeker's bookings by the policy and releases holds", async () => {
    const mentor = await bookableMentor(stack);
    const far = await paidBooking(mentor, 30);
    const near = await paidBooking(mentor, 10, far.user);
    const hold = await reserve(far.c, mentor, startIn(50));
    const phone = await signIn(stack, far.user);
    const socket = await connect(stack, phone);

    const res = await far.c.post('/api/user/delete-account', { password: far.user.password });
    assert.equal(res.status, 202, show(res));
    const at = Date.parse(res.body.deletionScheduledAt);
    assert.ok(Math.abs(at - (Date.now() + 14 * DAY)) < 60_000, res.body.deletionScheduledAt);

    const closed = await socket.closed;
    assert.ok(closed.code >= 1000, JSON.stringify(closed));
    assert.equal((await phone.get('/api/auth/user')).status, 401, 'the other device is signed out');
    assert.equal((await far.c.get('/api/auth/user')).status, 401, 'and this one');

    assert.equal(await bookingStatus(far.booking.id), 'cancelled');
    assert.equal(await bookingStatus(near.booking.id), 'cancelled');
    assert.deepEqual(
      (await refundsOf(far.booking.id)).map((r) => [r.percentage, r.cents]),
      [[100, 3000]],
      'more than 24 hours ahead: all of it',
    );
    assert.deepEqual(
      (await refundsOf(near.booking.id)).map((r) => [r.percentage, r.cents]),
      [[50, 1500]],
      '2 to 24 hours ahead: half',
    );
    await until('the refunds are paid back', async () =>
      (await refundsOf(far.booking.id)).concat(await refundsOf(near.booking.id)).every((r) => r.status === 'succeeded'),
    );
    assert.equal(await bookingStatus(hold.reservation.id), 'expired', 'the hold is released');
    const mail = await stack.waitForMail(mailTo(far.user.email, DELETION_SUBJECT));
    assert.ok(mail.text.includes('will be deleted on'), mail.text);
    await stack.waitForMail((m) => mailTo(mentor.user.email)(m) && /cancel/i.test(m.subject));
  });

  it('signs in during the grace period, shows the date, and Keep my account restores it', async () => {
    const user = await createVerifiedUser(stack);
    const c = await signIn(stack, user);
    const res = await c.post('/api/user/delete-account', { password: user.password });
    assert.equal(res.status, 202, show(res));
    const again = await signIn(stack, user);
    const me = await again.get('/api/auth/user');
    assert.equal(me.status, 200, show(me));
    assert.equal(me.body.deletionScheduledAt, res.body.deletionScheduledAt);
    assert.equal(me.body.isActive, true, 'not deactivated');
    const twice = await again.post('/api/user/delete-account', { password: user.password });
    assert.equal(twice.status, 409, show(twice));

    const kept = await again.post('/api/user/cancel-deletion');
    assert.equal(kept.status, 200, show(kept));
    assert.equal(kept.body.deletionScheduledAt, null);
    assert.equal((await again.get('/api/auth/user')).body.deletionScheduledAt, null);
    assert.equal((await again.post('/api/user/cancel-deletion')).status, 409, 'nothing to call off');

    // The queued removal finds the account kept and does nothing.
    await db.query(
      `UPDATE apalis.jobs SET run_at = now() WHERE job_type = 'account_removal' AND status = 'Pending'
         AND convert_from(job, 'UTF8')::jsonb->>'user_id' = $1`,
      [user.id ?? me.body.id],
    );
    await until('the removal task ran', async () => {
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM apalis.jobs WHERE job_type = 'account_removal' AND status = 'Done'
           AND convert_from(job, 'UTF8')::jsonb->>'user_id' = $1`,
        [me.body.id],
      );
      return rows[0].n === 1;
    });
    const still = await again.get('/api/auth/user');
    assert.equal(still.status, 200);
    assert.equal(still.body.email, user.email);
  });

  it("a mentor's sessions and group seats are cancelled with full refunds, the mentor unlisted, and listed again when kept", async () => {
    const mentor = await bookableMentor(stack);
    const { booking } = await paidBooking(mentor, 5);
    // A group session with a paid seat.
    const groupService = await mentor.c.post('/api/services', {
      title: 'Moon circle',
      description: 'A group reading for the deletion test.',
      serviceType: 'tarot',
      price: '20.00',
      duration: 60,
      isGroupSession: true,
      maxParticipants: 4,
    });
    assert.equal(groupService.status, 201, show(groupService));
    const session = await mentor.c.post('/api/group-sessions', {
      serviceId: groupService.body.id,
      title: 'Full moon circle',
      description: 'Together.',
      scheduledAt: startIn(60),
      maxParticipants: 4,
    });
    assert.equal(session.status, 201, show(session));
    const seatUser = await createVerifiedUser(stack);
    const seatC = await signIn(stack, seatUser);
    const held = await seatC.post('/api/reservations', { groupSessionId: session.body.id, totalAmount: 20, notes: '' });
    assert.equal(held.status, 201, show(held));
    const seat = await pay(seatC, held.body.reservation.id, seatUser);
    const anyone = client(stack.baseUrl);
    assert.equal((await anyone.get(`/api/mentors/${mentor.mentor.id}`)).status, 200);

    const res = await mentor.c.post('/api/user/delete-account', { password: mentor.user.password });
    assert.equal(res.status, 202, show(res));
    assert.equal(await bookingStatus(booking.id), 'cancelled');
    assert.deepEqual(
      (await refundsOf(booking.id)).map((r) => [r.percentage, r.cents]),
      [[100, 3000]],
      'everything back, however near the start',
    );
    const { rows: groups } = await db.query('SELECT status FROM group_sessions WHERE id = $1', [session.body.id]);
    assert.equal(groups[0].status, 'cancelled', 'the group session is cancelled');
    assert.equal(await bookingStatus(seat.id), 'cancelled');
    assert.deepEqual(
      (await refundsOf(seat.id)).map((r) => [r.percentage, r.cents]),
      [[100, 2000]],
      'the seat refunded in full',
    );
    assert.equal((await anyone.get(`/api/mentors/${mentor.mentor.id}`)).status, 404, 'unlisted');
    const seeker = await signIn(stack, await createVerifiedUser(stack));
    const r = await seeker.post('/api/reservations', {
      serviceId: mentor.service.id,
      mentorId: mentor.mentor.id,
      scheduledAt: startIn(40),
      totalAmount: mentor.service.price,
    });
    assert.equal(r.status, 404, `unbookable: ${show(r)}`);

    const back = await signIn(stack, mentor.user);
    const kept = await back.post('/api/user/cancel-deletion');
    assert.equal(kept.status, 200, show(kept));
    assert.equal((await anyone.get(`/api/mentors/${mentor.mentor.id}`)).status, 200, 'listed again');
  });

  it('on the date removes the person, keeps the conversation, reviews and payments, and frees the e-mail', async () => {
    const mentor = await bookableMentor(stack);
    const { user, c, booking } = await paidBooking(mentor, 3);
    const conv = await c.post('/api/conversations', { mentorId: mentor.mentor.id });
    assert.ok([200, 201].includes(conv.status), show(conv));
    const said = await c.post(`/api/conversations/${conv.body.id}/messages`, { content: 'Thank you for everything' });
    assert.equal(said.status, 201, show(said));
    const userId = (await c.get('/api/auth/user')).body.id;
    const admin = await createVerifiedUser(stack);
    await db.query('UPDATE users SET is_admin = true WHERE lower(email) = lower($1)', [admin.email]);
    const adminC = await signIn(stack, admin);

    const res = await c.post('/api/user/delete-account', { password: user.password });
    assert.equal(res.status, 202, show(res));
    const listed = await adminC.get('/api/admin/users');
    assert.equal(listed.status, 200, show(listed));
    assert.equal(listed.body.find((u) => u.id === userId).deletionScheduledAt, res.body.deletionScheduledAt);

    await removalComesDue(userId);

    // The mentor's conversation stays readable, its author shown as 'Deleted user'.
    const thread = await mentor.c.get(`/api/conversations/${conv.body.id}/messages`);
    assert.equal(thread.status, 200, show(thread));
    const msg = thread.body.find((m) => m.id === said.body.id);
    assert.equal(msg.content, 'Thank you for everything');
    assert.equal(`${msg.sender.firstName} ${msg.sender.lastName}`, 'Deleted user');
    assert.ok(!JSON.stringify(thread.body).includes(user.email));

    // The money records stay, linked to the anonymised row.
    const { rows: payments } = await db.query(
      'SELECT user_id, amount_cents::int AS cents FROM payments WHERE booking_id = $1',
      [booking.id],
    );
    assert.deepEqual(payments, [{ user_id: userId, cents: 3000 }]);
    assert.equal((await refundsOf(booking.id)).length, 1);
    const { rows } = await db.query(
      'SELECT email, first_name, last_name, bio, is_active, password_hash FROM users WHERE id = $1',
      [userId],
    );
    assert.match(rows[0].email, /^deleted-[0-9a-f]{32}@deleted\.invalid$/);
    assert.equal(`${rows[0].first_name} ${rows[0].last_name}`, 'Deleted user');
    assert.equal(rows[0].is_active, false);
    for (const table of ['sessions', 'notifications', 'favorites', 'push_subscriptions', 'two_factor', 'uploads']) {
      const column = table === 'uploads' ? 'owner' : 'user_id';
      const n = (await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [userId])).rows[0].n;
      assert.equal(n, 0, table);
    }

    // The old address signs in no more and is free for a new account.
    const old = await client(stack.baseUrl).post('/api/login', { email: user.email, password: user.password });
    assert.equal(old.status, 401, show(old));
    const fresh = client(stack.baseUrl);
    const before = await stack.mails();
    await register(stack, { email: user.email }, fresh);
    const token = await verificationToken(stack, user.email, { after: before });
    assert.equal((await fresh.post('/api/verify-email', { token })).status, 200);
    const newcomer = await signIn(stack, { email: user.email, password: 'correct-horse-42' });
    const me = await newcomer.get('/api/auth/user');
    assert.notEqual(me.body.id, userId, 'a new account');
    assert.equal(me.body.deletionScheduledAt, null);
  });

  it("keeps a removed mentor's payout details until nothing is owed, then the sweep deletes them", async () => {
    const mentor = await bookableMentor(stack);
    const prefs = await mentor.c.post('/api/mentor/payout-preferences', {
      method: 'paypal',
      paypalEmail: 'orla@pay.example',
      minimumPayout: '50.00',
    });
    assert.equal(prefs.status, 200, show(prefs));
    const userId = (await mentor.c.get('/api/auth/user')).body.id;
    // A completed, paid session that no payout holds yet: money still owed.
    const { rows } = await db.query(
      `WITH b AS (INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents, completed_at)
                  SELECT $1, $2, $3, 'completed', now() - interval '3 days', now() - interval '3 days' + interval '1 hour', 3000, now() - interval '1 day'
                  RETURNING id, user_id)
       INSERT INTO payments (booking_id, user_id, gateway, amount_cents, card_last4, status, reference)
       SELECT id, user_id, 'test', 3000, '1111', 'approved', left(replace(gen_random_uuid()::text, '-', ''), 20) FROM b
       RETURNING booking_id`,
      [userId, mentor.mentor.id, mentor.service.id],
    );
    const owed = rows[0].booking_id;
    const res = await mentor.c.post('/api/user/delete-account', { password: mentor.user.password });
    assert.equal(res.status, 202, show(res));
    await removalComesDue(userId);

    const details = async () =>
      (
        await db.query('SELECT minimum_payout_cents::int AS min FROM payout_preferences WHERE mentor_id = $1', [
          mentor.mentor.id,
        ])
      ).rows;
    assert.deepEqual(await details(), [{ min: 0 }], 'kept, and the next batch pays whatever is owed');
    const { rows: m } = await db.query('SELECT display_name, is_active FROM mentors WHERE id = $1', [mentor.mentor.id]);
    assert.deepEqual(m, [{ display_name: 'Deleted user', is_active: false }]);

    // The batch pays it and an admin marks it paid: nothing is owed, the sweep deletes the details.
    await db.query(
      `WITH p AS (INSERT INTO payouts (mentor_id, status, booking_count, pending_amount_cents, platform_fee_cents, mentor_net_cents, paid_at)
                  VALUES ($1, 'paid', 1, 3000, 600, 2400, now()) RETURNING id)
       INSERT INTO payout_bookings (booking_id, payout_id, amount_cents, fee_cents) SELECT $2, id, 3000, 600 FROM p`,
      [mentor.mentor.id, owed],
    );
    await sweepRemovals();
    assert.deepEqual(await details(), [], 'gone once the last payout is paid');
  });

  it('gives the wallet back to its cards at once, and what came in during the grace period at the removal', async () => {
    const user = await createVerifiedUser(stack);
    const c = await signIn(stack, user);
    const id = (await c.get('/api/auth/user')).body.id;
    const topUp = async (as, amount) => {
      const r = await as.post('/api/wallet/top-up', {
        amount,
        cardNumber: APPROVED_CARD,
        expirationDate: '1230',
        cardCode: '123',
        billingInfo: { firstName: 'Ada', lastName: 'Lovelace', zip: '10001' },
        clientRequestId: crypto.randomUUID(),
      });
      assert.equal(r.body.success, true, show(r));
    };
    await topUp(c, '40.00');
    await topUp(c, '25.50');
    const balance = async () => (await c.get('/api/wallet')).body.balance;
    const refunds = async () =>
      (
        await db.query(
          `SELECT amount_cents::int AS cents, status, reason, admin_id FROM wallet_refunds
             WHERE user_id = $1 ORDER BY amount_cents`,
          [id],
        )
      ).rows;
    assert.equal(await balance(), '65.50');

    const res = await c.post('/api/user/delete-account', { password: user.password });
    assert.equal(res.status, 202, show(res));
    // Signed out by the deletion: in again (the grace period allows it) to read the wallet.
    const again = await signIn(stack, user);
    assert.equal((await again.get('/api/wallet')).body.balance, '0.00');
    assert.deepEqual(
      (await refunds()).map((r) => [r.cents, r.reason, r.admin_id]),
      [
        [2550, 'Account deleted', null],
        [4000, 'Account deleted', null],
      ],
      'one part per top-up, no admin',
    );
    await until('both parts paid back through the gateway', async () =>
      (await refunds()).every((r) => r.status === 'succeeded'),
    );

    // A top-up during the grace period goes back at the removal.
    await topUp(again, '10.00');
    await removalComesDue(id);
    const { rows } = await db.query(
      `SELECT coalesce(sum(amount_cents), 0)::int AS sum,
              (SELECT balance_cents::int FROM wallets WHERE user_id = $1) AS balance
         FROM wallet_entries WHERE user_id = $1`,
      [id],
    );
    assert.deepEqual(rows[0], { sum: 0, balance: 0 }, 'the ledger sums to the balance, which is empty');
    assert.equal((await refunds()).length, 3);
  });
});

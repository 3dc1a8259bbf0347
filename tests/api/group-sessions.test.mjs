// Group sessions through the real api and worker: seats never oversold under 30 concurrent joins,
// a lapsed hold frees its seat, a paid seat charged once under 5 concurrent payments, a cancellation
// that refunds every paid seat once even with the worker killed during it, and the worker's
// reminder, start and completion of a session.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { APPROVED_CARD, startIn } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const SESSION_FULL = 'Session Full - This group session is already at capacity.';

let stack;
let db;
before(async () => {
  stack = await startStack({
    env: {
      // A refund's answer takes this long, so the worker can be killed while one is in flight.
      PAYMENT_TEST_REFUND_DELAY_MS: '3000',
      PAYMENT_RECONCILE_AFTER_SECONDS: '1',
    },
  });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

const one = async (sql, params = []) => (await db.query(sql, params)).rows[0];

/** A mentor in UTC with a group service at `price`; resolves to { c, mentor, service }. */
async function groupMentor(price = '25.00') {
  const user = await createVerifiedUser(stack);
  const c = await signIn(stack, user);
  const m = await c.post('/api/mentors', {
    displayName: 'Gita Group',
    bio: 'Leads circles of seekers for the black-box tests, with a bio long enough to pass.',
    specialties: ['Astrology'],
    basePrice: price,
    timeZone: 'UTC',
  });
  assert.equal(m.status, 201, show(m));
  const s = await c.post('/api/services', {
    title: 'Moon circle',
    description: 'A group reading for the black-box tests.',
    serviceType: 'tarot',
    price,
    duration: 60,
    isGroupSession: true,
    maxParticipants: 20,
  });
  assert.equal(s.status, 201, show(s));
  return { c, mentor: m.body, service: s.body };
}

async function createSession(g, scheduledAt, maxParticipants = 4) {
  const r = await g.c.post('/api/group-sessions', {
    serviceId: g.service.id,
    title: 'Full moon circle',
    description: 'Together.',
    scheduledAt,
    maxParticipants,
  });
  assert.equal(r.status, 201, show(r));
  return r.body;
}

async function seekers(n) {
  const users = await Promise.all(Array.from({ length: n }, () => createVerifiedUser(stack)));
  return Promise.all(users.map(async (user) => ({ user, c: await signIn(stack, user) })));
}

const join = (s, session, totalAmount) =>
  s.c.post('/api/reservations', { groupSessionId: session.id, totalAmount: Number(totalAmount), notes: '' });

const payment = (s, reservationId) => ({
  reservationId,
  cardNumber: APPROVED_CARD,
  expirationDate: '1230',
  cardCode: '123',
  billingInfo: { firstName: s.user.firstName, lastName: s.user.lastName, zip: '10001' },
});

async function payOnce(s, reservationId) {
  const r = await s.c.post('/api/process-payment-v2', payment(s, reservationId));
  assert.equal(r.status, 200, show(r));
  assert.equal(r.body.success, true, show(r));
}

describe('group sessions', () => {
  it(
    '30 seekers joining a 4-seat session at once: exactly 4 seats, the rest 409 Session Full',
    { timeout: 120_000 },
    async () => {
      const g = await groupMentor();
      const session = await createSession(g, startIn(48), 4);
      const all = await seekers(30);
      const answers = await Promise.all(all.map((s) => join(s, session, '25.00')));
      const won = answers.filter((r) => r.status === 201);
      const lost = answers.filter((r) => r.status === 409);
      assert.equal(won.length, 4, answers.map(show).join('\n'));
      assert.equal(lost.length, 26);
      for (const r of lost) assert.equal(r.body.message, SESSION_FULL);
      const seen = await all[0].c.get(`/api/group-sessions/${session.id}`);
      assert.equal(seen.body.currentParticipants, 4);
      const { n } = await one(
        "SELECT count(*)::int AS n FROM bookings WHERE group_session_id = $1 AND status = 'reserved'",
        [session.id],
      );
      assert.equal(n, 4);
    },
  );

  it('a lapsed hold frees its seat (the worker releases it)', { timeout: 120_000 }, async () => {
    const g = await groupMentor();
    const session = await createSession(g, startIn(48), 2);
    const [a, b, c] = await seekers(3);
    const held = await join(a, session, '25.00');
    assert.equal(held.status, 201, show(held));
    assert.equal((await join(b, session, '25.00')).status, 201);
    const full = await join(c, session, '25.00');
    assert.equal(full.status, 409, show(full));
    assert.equal(full.body.message, SESSION_FULL);
    // The hour is over (moved in the database; the worker's sweep releases it).
    await db.query("UPDATE bookings SET hold_expires_at = now() - interval '1 second' WHERE id = $1", [
      held.body.reservation.id,
    ]);
    await until(
      'the worker to release the lapsed hold',
      async () =>
        (await one('SELECT status FROM bookings WHERE id = $1', [held.body.reservation.id])).status === 'expired',
      90_000,
      250,
    );
    const r = await join(c, session, '25.00');
    assert.equal(r.status, 201, show(r));
    assert.equal((await a.c.get(`/api/reservations/${held.body.reservation.id}`)).status, 404);
  });

  it(
    'a paid seat is charged once under 5 concurrent payments, and the seeker is booked',
    { timeout: 60_000 },
    async () => {
      const g = await groupMentor();
      const session = await createSession(g, startIn(48), 4);
      const [s] = await seekers(1);
      const held = await join(s, session, '25.00');
      assert.equal(held.status, 201, show(held));
      const id = held.body.reservation.id;
      const view = await s.c.get(`/api/reservations/${id}`);
      assert.equal(view.status, 200, show(view));
      assert.equal(view.body.groupSession.title, 'Full moon circle');
      assert.equal(view.body.groupSession.maxParticipants, 4);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => s.c.post('/api/process-payment-v2', payment(s, id))),
      );
      for (const r of answers) assert.ok([200, 409].includes(r.status), show(r));
      assert.ok(
        answers.some((r) => r.body.success === true),
        answers.map(show).join('\n'),
      );
      await until(
        'the payment to settle',
        async () => (await one('SELECT status FROM bookings WHERE id = $1', [id])).status === 'confirmed',
      );
      const charges = await one(
        "SELECT count(*)::int AS n FROM test_gateway.transactions t JOIN payments p ON p.reference = t.reference WHERE p.booking_id = $1 AND t.kind = 'charge' AND t.transaction_id IS NOT NULL",
        [id],
      );
      assert.equal(charges.n, 1, 'one charge at the gateway');
      const seen = await s.c.get(`/api/group-sessions/${session.id}`);
      assert.equal(seen.body.isUserBooked, true);
      // Joining again returns the same seat.
      const again = await join(s, session, '25.00');
      assert.ok([200, 201].includes(again.status), show(again));
      assert.equal(again.body.booking.id, id);
    },
  );

  it(
    'cancelling refunds every paid seat once, even with the worker killed during it',
    { timeout: 240_000 },
    async () => {
      const g = await groupMentor();
      const session = await createSession(g, startIn(72), 4);
      const paid = await seekers(3);
      const seats = [];
      for (const s of paid) {
        const held = await join(s, session, '25.00');
        assert.equal(held.status, 201, show(held));
        await payOnce(s, held.body.reservation.id);
        seats.push(held.body.reservation.id);
      }
      const r = await g.c.put(`/api/group-sessions/${session.id}`, { status: 'cancelled' });
      assert.equal(r.status, 200, show(r));
      assert.equal(r.body.status, 'cancelled');
      // The worker dies while the first refund's answer is on its way.
      await until(
        'the gateway to make a refund',
        async () => {
          const row = await one(
            "SELECT count(*)::int AS n FROM refunds r JOIN test_gateway.transactions t ON t.reference = left(replace(r.id::text, '-', ''), 20) WHERE r.booking_id = ANY($1) AND t.kind = 'refund'",
            [seats],
          );
          return row.n > 0;
        },
        60_000,
      );
      await stack.killWorker();
      await stack.startWorker();
      await until(
        'every seat to be refunded',
        async () =>
          (
            await one("SELECT count(*)::int AS n FROM refunds WHERE booking_id = ANY($1) AND status = 'succeeded'", [
              seats,
            ])
          ).n === 3,
        180_000,
        500,
      );
      const refunds = await one(
        'SELECT count(*)::int AS n, min(percentage)::int AS pct, sum(amount_cents)::int AS cents FROM refunds WHERE booking_id = ANY($1)',
        [seats],
      );
      assert.deepEqual(refunds, { n: 3, pct: 100, cents: 7500 });
      const ledger = await one(
        "SELECT count(*)::int AS n FROM refunds r JOIN test_gateway.transactions t ON t.reference = left(replace(r.id::text, '-', ''), 20) WHERE r.booking_id = ANY($1) AND t.kind = 'refund' AND t.transaction_id IS NOT NULL",
        [seats],
      );
      assert.equal(ledger.n, 3, 'one refund per paid seat at the gateway');
      // Every participant is told.
      for (const s of paid) {
        await until('the cancellation notice', async () =>
          (await s.c.get('/api/notifications?limit=100')).body.some((n) => n.type === 'booking_cancelled'),
        );
      }
    },
  );

  it(
    'the worker reminds a participant an hour before, starts the session and completes it',
    { timeout: 120_000 },
    async () => {
      const g = await groupMentor('0.00');
      // The one-hour reminder is due a few seconds from now.
      const soon = new Date(Date.now() + 3_600_000 + 4_000).toISOString();
      const session = await createSession(g, soon, 4);
      const [s] = await seekers(1);
      const joined = await join(s, session, '0.00');
      assert.equal(joined.status, 201, show(joined));
      assert.equal(joined.body.freeBooking, true);
      await until(
        'the one-hour reminder',
        async () =>
          (await s.c.get('/api/notifications?limit=100')).body.find(
            (n) => n.type === 'booking_reminder' && n.message.includes('1 hour'),
          ),
        30_000,
      );

      // Its start and end come (moved in the database; the worker's jobs for the old start do nothing, its sweep runs the steps).
      await db.query(
        "UPDATE group_sessions SET scheduled_at = now() - interval '1 minute', ends_at = now() + interval '59 minutes' WHERE id = $1",
        [session.id],
      );
      await until(
        'the session to go live',
        async () => (await s.c.get(`/api/group-sessions/${session.id}`)).body.status === 'active',
        40_000,
        250,
      );
      await until("the 'starting now' notice", async () =>
        (await s.c.get('/api/notifications?limit=100')).body.find((n) => n.title === 'Group session starting now'),
      );
      assert.equal(
        (await s.c.get('/api/group-sessions')).body.some((x) => x.id === session.id && x.isLive),
        true,
        'listed while live',
      );
      // The mentor was in the call (a session whose mentor never joined ends cancelled and refunded instead).
      await db.query(
        `INSERT INTO group_call_joins (group_session_id, user_id, joined_at)
         SELECT gs.id, m.user_id, now() - interval '30 minutes' FROM group_sessions gs JOIN mentors m ON m.id = gs.mentor_id WHERE gs.id = $1`,
        [session.id],
      );
      await db.query(
        "UPDATE group_sessions SET scheduled_at = now() - interval '61 minutes', ends_at = now() - interval '1 minute' WHERE id = $1",
        [session.id],
      );
      await until(
        'the session to complete',
        async () => (await s.c.get(`/api/group-sessions/${session.id}`)).body.status === 'completed',
        40_000,
        250,
      );
      assert.equal(
        (await s.c.get('/api/group-sessions')).body.some((x) => x.id === session.id),
        false,
        'no longer listed',
      );
    },
  );
});

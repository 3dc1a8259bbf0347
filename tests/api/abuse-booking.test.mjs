// Booking rules that stop abuse, through the real processes: rescheduling later never raises the
// refund, a mentor cannot complete a session that has not happened, and one seeker cannot hold
// more than one unpaid slot per mentor or three in all (also when the requests race).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor, startIn } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';

const HOLD_WITH_MENTOR =
  'You already have a reservation waiting for payment with this mentor. Complete or release it first.';
const TOO_MANY_HOLDS = 'You can hold at most 3 unpaid reservations at a time. Complete or release one first.';

let stack;
let db;
let mentors;
before(async () => {
  stack = await startStack();
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  mentors = await Promise.all(Array.from({ length: 10 }, () => bookableMentor(stack)));
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

const seeker = async () => {
  const user = await createVerifiedUser(stack);
  return { user, c: await signIn(stack, user) };
};

const hold = (c, { mentor, service }, scheduledAt) =>
  c.post('/api/reservations', { serviceId: service.id, mentorId: mentor.id, scheduledAt, totalAmount: '30.00' });

async function paidBooking(s, m, scheduledAt) {
  const held = await hold(s.c, m, scheduledAt);
  assert.equal(held.status, 201, show(held));
  const paid = await s.c.post('/api/process-payment-v2', {
    reservationId: held.body.reservation.id,
    cardNumber: '4111111111111111',
    expirationDate: '1230',
    cardCode: '123',
    billingInfo: { firstName: s.user.firstName, lastName: s.user.lastName, zip: '10001' },
  });
  assert.equal(paid.body.success, true, show(paid));
  return paid.body.booking;
}

describe('refunds', () => {
  it('follow the original time: rescheduling a week later does not raise 50% to 100%', async () => {
    const s = await seeker();
    const booking = await paidBooking(s, mentors[0], startIn(3.5));
    const preview = async () => (await s.c.get(`/api/user/bookings/${booking.id}/refund-preview`)).body;
    assert.deepEqual(await preview(), { refundPercentage: 50, refundAmount: '15.00' });

    const moved = await s.c.put(`/api/user/bookings/${booking.id}/reschedule`, { scheduledAt: startIn(24 * 7) });
    assert.equal(moved.status, 200, show(moved));
    assert.deepEqual(await preview(), { refundPercentage: 50, refundAmount: '15.00' });

    const cancel = await s.c.put(`/api/user/bookings/${booking.id}/cancel`, { acknowledgePolicy: true });
    assert.equal(cancel.status, 200, show(cancel));
    assert.deepEqual(cancel.body.refundPolicy, { refundPercentage: 50, refundAmount: '15.00' });
    const { rows } = await db.query(
      'SELECT percentage, amount_cents::int AS cents FROM refunds WHERE booking_id = $1',
      [booking.id],
    );
    assert.deepEqual(rows, [{ percentage: 50, cents: 1500 }]);
  });
});

describe('completion', () => {
  it('is refused before the session has ended, and allowed after', async () => {
    const s = await seeker();
    const m = mentors[1];
    const booking = await paidBooking(s, m, startIn(24 * 6));
    const complete = () => m.c.put(`/api/mentor/bookings/${booking.id}`, { status: 'completed' });
    const early = await complete();
    assert.equal(early.status, 409, show(early));
    assert.equal(early.body.message, 'A session can be marked completed only after it has ended');
    const review = await s.c.post(`/api/bookings/${booking.id}/review`, { rating: 5 });
    assert.equal(review.status, 409, show(review));
    const { rows } = await db.query('SELECT status FROM bookings WHERE id = $1', [booking.id]);
    assert.equal(rows[0].status, 'confirmed');

    await db.query(
      "UPDATE bookings SET scheduled_at = now() - interval '2 hours', ends_at = now() - interval '1 hour' WHERE id = $1",
      [booking.id],
    );
    const done = await complete();
    assert.equal(done.status, 200, show(done));
    assert.equal(done.body.status, 'completed');
    const reviewed = await s.c.post(`/api/bookings/${booking.id}/review`, { rating: 5 });
    assert.equal(reviewed.status, 201, show(reviewed));
  });
});

describe('holds', () => {
  it('one per mentor: 10 holds on one mentor give one 201 and nine 409s', async () => {
    const s = await seeker();
    const results = [];
    for (let i = 0; i < 10; i += 1) results.push(await hold(s.c, mentors[2], startIn(30 + i)));
    assert.deepEqual(
      results.map((r) => r.status),
      [201, 409, 409, 409, 409, 409, 409, 409, 409, 409],
    );
    assert.ok(
      results.slice(1).every((r) => r.body.message === HOLD_WITH_MENTOR),
      show(results[1]),
    );
  });

  it('three in all: the fourth mentor is refused until one is released', async () => {
    const s = await seeker();
    const at = startIn(40);
    const held = [];
    for (const m of mentors.slice(3, 6)) {
      const r = await hold(s.c, m, at);
      assert.equal(r.status, 201, show(r));
      held.push(r.body.reservation.id);
    }
    const fourth = await hold(s.c, mentors[6], at);
    assert.equal(fourth.status, 409, show(fourth));
    assert.equal(fourth.body.message, TOO_MANY_HOLDS);

    const other = await seeker();
    const stranger = await other.c.delete(`/api/reservations/${held[0]}`);
    assert.equal(stranger.status, 404, show(stranger));
    const released = await s.c.delete(`/api/reservations/${held[0]}`);
    assert.equal(released.status, 200, show(released));
    assert.deepEqual(released.body, { message: 'Reservation released' });
    assert.equal((await s.c.get(`/api/reservations/${held[0]}`)).status, 404);
    const slots = await s.c.get(
      `/api/mentors/${mentors[3].mentor.id}/available-slots?date=${at.slice(0, 10)}&duration=60&timeZone=UTC`,
    );
    assert.ok(slots.body.includes(at.slice(11, 16)), 'the released time is offered again');
    const now = await hold(s.c, mentors[6], at);
    assert.equal(now.status, 201, show(now));
  });

  it('hold under a race: 10 parallel reservations on 10 mentors give exactly 3', async () => {
    const s = await seeker();
    const at = startIn(60);
    const results = await Promise.all(mentors.map((m) => hold(s.c, m, at)));
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((x) => x === 201).length, 3, JSON.stringify(statuses));
    assert.equal(statuses.filter((x) => x === 409).length, 7, JSON.stringify(statuses));
    assert.ok(results.filter((r) => r.status === 409).every((r) => r.body.message === TOO_MANY_HOLDS));
    const { rows } = await db.query(
      "SELECT count(*)::int AS n FROM bookings b JOIN users u ON u.id = b.user_id WHERE lower(u.email) = lower($1) AND b.status = 'reserved'",
      [s.user.email],
    );
    assert.equal(rows[0].n, 3);
  });
});

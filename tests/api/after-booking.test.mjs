// Time-driven rules through the real worker: reminders arrive as notification and e-mail, a
// cancelled booking's reminder never does, sessions complete after the complaint window, and a
// refund is paid once even when the worker is killed in the middle of it.
//
// Due times are hours away, so each test brings one scheduled task forward in apalis' table (and,
// for completion, moves the session into the past) and lets the worker do the rest.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';

let stack;
let db;
before(async () => {
  // Each refund takes 3 s in the test gateway, so the worker can be killed during one.
  stack = await startStack({ env: { PAYMENT_TEST_REFUND_DELAY_MS: '3000' } });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

async function until(what, check, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

let mentorSetup;
/** One mentor (UTC, around the clock) with a paid service, shared by the tests. */
async function mentor() {
  if (mentorSetup) return mentorSetup;
  const user = await createVerifiedUser(stack);
  const c = await signIn(stack, user);
  const m = await c.post('/api/mentors', {
    displayName: 'Tessa Time',
    bio: 'Always available for the after-booking tests, with a bio long enough to pass.',
    specialties: ['Astrology'],
    basePrice: '40.00',
    timeZone: 'UTC',
  });
  assert.equal(m.status, 201, show(m));
  for (let day = 0; day < 7; day += 1)
    await c.post('/api/mentor/availability', { dayOfWeek: day, startTime: '00:00', endTime: '24:00' });
  const s = await c.post('/api/services', {
    title: 'Star reading',
    description: 'A reading of the stars for the tests.',
    serviceType: 'astrology',
    price: '40.00',
    duration: 60,
  });
  assert.equal(s.status, 201, show(s));
  mentorSetup = { c, user, mentor: m.body, service: s.body };
  return mentorSetup;
}

let slot = 0;
/** A confirmed, paid booking of a new seeker some 30+ hours ahead. */
async function paidBooking() {
  const { mentor: m, service } = await mentor();
  const user = await createVerifiedUser(stack);
  const seeker = await signIn(stack, user);
  slot += 1;
  // Whole hours: a 60-minute session starting at 23:30 would cross midnight out of its day's window.
  const start = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + (30 + slot * 2) * 3_600_000).toISOString();
  const held = await seeker.post('/api/reservations', {
    serviceId: service.id,
    mentorId: m.id,
    scheduledAt: start,
    totalAmount: '40.00',
  });
  assert.equal(held.status, 201, show(held));
  const paid = await seeker.post('/api/process-payment-v2', {
    reservationId: held.body.reservation.id,
    cardNumber: '4111111111111111',
    expirationDate: '1230',
    cardCode: '123',
    billingInfo: { firstName: user.firstName, lastName: user.lastName, zip: '10001' },
  });
  assert.equal(paid.body.success, true, show(paid));
  return { seeker, user, booking: paid.body.booking };
}

/** Makes the booking's pending tasks of `queue` due now. */
async function bringForward(queue, bookingId, extra = '') {
  const { rowCount } = await db.query(
    `UPDATE apalis.jobs SET run_at = now() WHERE job_type = $1 AND status = 'Pending'
       AND convert_from(job, 'UTF8')::jsonb->>'booking_id' = $2 ${extra}`,
    [queue, bookingId],
  );
  assert.ok(rowCount > 0, `no pending ${queue} task for ${bookingId}`);
}

const notificationsOf = async (c) => (await c.get('/api/notifications?limit=100')).body;

describe('reminders', () => {
  it('arrive as a notification and an e-mail 24 hours before', async () => {
    const { seeker, user, booking } = await paidBooking();
    await bringForward('booking_reminders', booking.id, "AND convert_from(job, 'UTF8')::jsonb->>'kind' = '24h'");
    await until('the reminder notification', async () =>
      (await notificationsOf(seeker)).find((n) => n.type === 'booking_reminder'),
    );
    const mail = await stack.waitForMail((m) => m.to.includes(user.email) && m.subject.startsWith('Reminder:'));
    assert.match(mail.subject, /starts in 24 hours/);
  });

  it('never arrive for a cancelled booking', async () => {
    const { seeker, user, booking } = await paidBooking();
    const cancel = await seeker.put(`/api/user/bookings/${booking.id}/cancel`, { acknowledgePolicy: true });
    assert.equal(cancel.status, 200, show(cancel));
    await bringForward('booking_reminders', booking.id);
    await until('the reminder tasks to finish', async () => {
      const { rows } = await db.query(
        "SELECT count(*)::int AS open FROM apalis.jobs WHERE job_type = 'booking_reminders' AND status <> 'Done' AND convert_from(job, 'UTF8')::jsonb->>'booking_id' = $1",
        [booking.id],
      );
      return rows[0].open === 0;
    });
    // A reminder would have queued its notification: wait for every fan-out to be written too.
    await until('the notification fan-outs to finish', async () => {
      const { rows } = await db.query(
        "SELECT count(*)::int AS open FROM apalis.jobs WHERE job_type = 'notification_fanout' AND status <> 'Done'",
      );
      return rows[0].open === 0;
    });
    assert.ok(!(await notificationsOf(seeker)).some((n) => n.type === 'booking_reminder'));
    assert.ok(!(await stack.mails()).some((m) => m.to.includes(user.email) && m.subject.startsWith('Reminder:')));
  });
});

describe('completion', () => {
  it('completes a session 24 hours after it ended and asks for a review', async () => {
    const { seeker, user, booking } = await paidBooking();
    await db.query(
      "UPDATE bookings SET scheduled_at = now() - interval '26 hours', ends_at = now() - interval '25 hours' WHERE id = $1",
      [booking.id],
    );
    await bringForward('booking_completion', booking.id);
    await until(
      'completion',
      async () =>
        (await seeker.get('/api/user/dashboard')).body.bookings.find((b) => b.id === booking.id)?.status ===
        'completed',
    );
    await stack.waitForMail((m) => m.to.includes(user.email) && m.subject.startsWith('How was your session'));
    const review = await seeker.post(`/api/bookings/${booking.id}/review`, { rating: 5, comment: 'Wonderful' });
    assert.equal(review.status, 201, show(review));
  });
});

describe('refunds', () => {
  // The gateway's own ledger (PAYMENT_GATEWAY=test): its refunds of this booking's refund, by our reference.
  const gatewayRefunds = async (bookingId) =>
    (
      await db.query(
        `SELECT t.transaction_id FROM refunds r
         JOIN test_gateway.transactions t ON t.reference = left(replace(r.id::text, '-', ''), 20) AND t.kind = 'refund'
         WHERE r.booking_id = $1`,
        [bookingId],
      )
    ).rows;

  it('pays a refund once even when the worker is killed during it', { timeout: 120_000 }, async () => {
    const { seeker, booking } = await paidBooking();
    const cancel = await seeker.put(`/api/user/bookings/${booking.id}/cancel`, { acknowledgePolicy: true });
    assert.deepEqual(cancel.body.refundPolicy, { refundPercentage: 100, refundAmount: '40.00' });
    // The gateway has made the refund and takes PAYMENT_TEST_REFUND_DELAY_MS to answer: the worker is
    // killed before the answer reaches it.
    await until('the gateway to make the refund', async () => (await gatewayRefunds(booking.id)).length === 1);
    await stack.killWorker();
    const { rows: midway } = await db.query('SELECT status, attempts FROM refunds WHERE booking_id = $1', [booking.id]);
    assert.equal(midway[0].status, 'pending', 'nothing recorded as paid by the killed worker');
    assert.equal(midway[0].attempts, 1);
    await stack.startWorker();
    await until(
      'the refund',
      async () => {
        const { rows } = await db.query('SELECT status FROM refunds WHERE booking_id = $1', [booking.id]);
        return rows[0].status === 'succeeded';
      },
      90_000,
    );
    const { rows } = await db.query(
      'SELECT status, attempts, gateway_transaction_id FROM refunds WHERE booking_id = $1',
      [booking.id],
    );
    assert.equal(rows.length, 1);
    // The new worker asked the gateway about the lost answer instead of sending the refund again.
    assert.equal(rows[0].attempts, 1, 'one payout reached the gateway and was recorded');
    const made = await gatewayRefunds(booking.id);
    assert.equal(made.length, 1);
    assert.equal(rows[0].gateway_transaction_id, made[0].transaction_id);
  });
});

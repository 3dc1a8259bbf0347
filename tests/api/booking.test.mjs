// Booking through the real processes: 50 concurrent reservations of one slot have one winner,
// and a hold is released by the worker when it expires (never before).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor, startIn } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';

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

describe('reservations', () => {
  it('lets exactly one of 50 concurrent reservations of overlapping slots win', async () => {
    const { mentor, service } = await bookableMentor(stack);
    const seekers = await Promise.all(
      Array.from({ length: 5 }, async () => signIn(stack, await createVerifiedUser(stack))),
    );
    const base = Date.parse(startIn(50));
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        seekers[i % seekers.length].post('/api/reservations', {
          serviceId: service.id,
          mentorId: mentor.id,
          scheduledAt: new Date(base + (i % 2) * 1_800_000).toISOString(),
          totalAmount: '30.00',
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 1, JSON.stringify(statuses));
    assert.equal(statuses.filter((s) => s === 409).length, 49, JSON.stringify(statuses));
    const loser = results.find((r) => r.status === 409);
    assert.equal(loser.body.message, 'This time is no longer available');
  });

  it('releases an unpaid hold through the worker once it expires, and offers the slot again', async () => {
    const { mentor, service } = await bookableMentor(stack);
    const seeker = await signIn(stack, await createVerifiedUser(stack));
    const at = startIn(30);
    const held = await seeker.post('/api/reservations', {
      serviceId: service.id,
      mentorId: mentor.id,
      scheduledAt: at,
      totalAmount: '30.00',
    });
    assert.equal(held.status, 201, show(held));
    const id = held.body.reservation.id;
    const minutes = (Date.parse(held.body.expiresAt) - Date.now()) / 60_000;
    assert.ok(minutes > 59 && minutes <= 60, `held for 60 minutes, not ${minutes}`);

    // Bring the expiry (and its scheduled task) forward to a few seconds from now.
    await stack.stopWorker();
    const expiresAt = new Date(Date.now() + 3000);
    await db.query('UPDATE bookings SET hold_expires_at = $1 WHERE id = $2', [expiresAt, id]);
    await db.query("UPDATE apalis.jobs SET run_at = $1 WHERE job_type = 'reservation_expiry' AND status = 'Pending'", [
      new Date(Math.ceil(expiresAt.getTime() / 1000) * 1000),
    ]);
    await stack.startWorker();

    const date = at.slice(0, 10);
    const time = at.slice(11, 16);
    const slotsUrl = `/api/mentors/${mentor.id}/available-slots?date=${date}&duration=60&timeZone=UTC`;
    // Offered to nobody else while held (its holder still sees it: they may pick it again).
    const slots = async () => (await client(stack.baseUrl).get(slotsUrl)).body;
    assert.ok(!(await slots()).includes(time), 'the held slot is not offered');
    assert.ok((await seeker.get(slotsUrl)).body.includes(time), 'the holder sees the time they hold');

    const deadline = Date.now() + 20_000;
    for (;;) {
      const r = await seeker.get(`/api/reservations/${id}`);
      const { rows } = await db.query('SELECT status FROM bookings WHERE id = $1', [id]);
      if (Date.now() < expiresAt.getTime()) assert.equal(rows[0].status, 'reserved', 'released before its expiry');
      if (rows[0].status === 'expired') {
        assert.equal(r.status, 404);
        break;
      }
      assert.ok(Date.now() < deadline, `the hold was not released: ${rows[0].status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.ok((await slots()).includes(time), 'the released slot is offered again');
    const pay = await seeker.post('/api/process-payment-v2', {
      reservationId: id,
      cardNumber: '4111111111111111',
      expirationDate: '1230',
      cardCode: '123',
      billingInfo: { firstName: 'Ada', lastName: 'Lovelace', zip: '10001' },
    });
    assert.equal(pay.status, 409, show(pay));
  });
});

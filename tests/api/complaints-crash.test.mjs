// The worker killed while a resolved complaint's refund is on its way to the gateway: after a new
// worker takes the task over, the refund is paid exactly once (one refund at the test gateway, one
// refund row, one receipt), and the refund was tried once (the lost answer was found by reference).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { createAdmin } from '../harness/admin.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

let stack;
let db;
before(async () => {
  // Long enough that the worker is killed while the gateway call is in flight; the kill waits for the
  // gateway's ledger to show the refund, never for the clock.
  stack = await startStack({ env: { PAYMENT_TEST_REFUND_DELAY_MS: '8000' } });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

const one = async (sql, params = []) => (await db.query(sql, params)).rows[0];

describe('a resolved complaint refunds once whatever dies', () => {
  it('the worker killed with the refund at the gateway: paid back exactly once', { timeout: 150_000 }, async () => {
    const admin = await createAdmin(stack);
    const m = await bookableMentor(stack);
    const user = await createVerifiedUser(stack);
    const c = await signIn(stack, user);
    const held = await reserve(c, m, startIn(30));
    const booking = await pay(c, held.reservation.id, user);
    await db.query(
      "UPDATE bookings SET scheduled_at = now() - interval '2 hours', ends_at = now() - interval '1 hour', earliest_scheduled_at = now() - interval '2 hours' WHERE id = $1",
      [booking.id],
    );
    const complaint = await c.post(`/api/bookings/${booking.id}/complaint`, {
      reason: 'not_as_described',
      details: 'The session was about something else entirely.',
    });
    assert.equal(complaint.status, 201, show(complaint));
    const r = await admin.c.post(`/api/admin/complaints/${complaint.body.id}/resolve`, {
      outcome: 'full_refund',
      note: 'The session did not match its description',
    });
    assert.equal(r.status, 200, show(r));

    const refundAtGateway = () =>
      one(
        "SELECT count(*)::int AS n FROM refunds r JOIN test_gateway.transactions t ON t.reference = left(replace(r.id::text, '-', ''), 20) WHERE r.booking_id = $1 AND t.kind = 'refund'",
        [booking.id],
      ).catch(() => ({ n: 0 }));
    await until('the gateway to make the refund', async () => (await refundAtGateway()).n === 1, 60_000);
    await stack.killWorker();
    await stack.startWorker();

    await until(
      'the refund to be settled by the next worker',
      async () =>
        (
          await one("SELECT count(*)::int AS n FROM refunds WHERE booking_id = $1 AND status = 'succeeded'", [
            booking.id,
          ])
        ).n === 1,
      120_000,
      500,
    );
    const refunds = await one(
      'SELECT count(*)::int AS n, max(attempts)::int AS tries FROM refunds WHERE booking_id = $1',
      [booking.id],
    );
    assert.equal(refunds.n, 1, 'one refund row');
    assert.equal(refunds.tries, 1, 'found at the gateway, not sent again');
    assert.equal((await refundAtGateway()).n, 1, 'one refund at the gateway');
    const receipts = await one("SELECT count(*)::int AS n FROM receipts WHERE booking_id = $1 AND kind = 'refund'", [
      booking.id,
    ]);
    assert.equal(receipts.n, 1, 'one refund receipt');
    const view = (await c.get('/api/user/dashboard')).body.bookings.find((b) => b.id === booking.id);
    assert.equal(view.status, 'cancelled');
    assert.equal(view.refundedAmount, '30.00');
    assert.equal(view.complaint.resolution.outcome, 'full_refund');
  });
});

// Fault injection between us and the payment gateway, with the test gateway's test-only settings:
// the api is killed between the gateway's approval and the payment's settlement, and the worker is
// killed while a refund is in flight, 20 times each. After the restarts every attempt is settled:
// charges at the gateway = confirmed bookings, refunds at the gateway = cancellations, none twice.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { APPROVED_CARD, bookableMentor, reserve, startIn } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const ROUNDS = 20;
// Long enough that a process is always killed while the gateway call is in flight; the kill waits
// for the gateway's ledger to show the approval (or refund), never for the clock.
const GATEWAY_DELAY_MS = '8000';

let stack;
let db;
before(async () => {
  stack = await startStack({
    env: {
      PAYMENT_TEST_CHARGE_DELAY_MS: GATEWAY_DELAY_MS,
      PAYMENT_TEST_REFUND_DELAY_MS: GATEWAY_DELAY_MS,
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
const ledger = (kind) =>
  one('SELECT count(*)::int AS n FROM test_gateway.transactions WHERE kind = $1 AND transaction_id IS NOT NULL', [
    kind,
  ]);

const bookings = [];

describe('payments survive killed processes', () => {
  it(
    `the api killed after the gateway approved, ${ROUNDS} times: every charge ends in exactly one booking`,
    { timeout: 170_000 },
    async () => {
      const setup = await bookableMentor(stack);
      for (let i = 0; i < ROUNDS; i += 1) {
        const user = await createVerifiedUser(stack);
        const c = await signIn(stack, user);
        const held = await reserve(c, setup, startIn(48 + i));
        const id = held.reservation.id;
        // The answer never comes: the api dies while the gateway's answer is on its way.
        c.post('/api/process-payment-v2', {
          reservationId: id,
          cardNumber: APPROVED_CARD,
          expirationDate: '1230',
          cardCode: '123',
          billingInfo: { firstName: user.firstName, lastName: user.lastName, zip: '10001' },
        }).catch(() => {});
        await until(`the gateway to approve payment ${i}`, async () => {
          const row = await one(
            "SELECT 1 AS ok FROM payments p JOIN test_gateway.transactions t ON t.reference = p.reference WHERE p.booking_id = $1 AND t.kind = 'charge'",
            [id],
          ).catch(() => null);
          return row?.ok;
        });
        await stack.killApi();
        await stack.startApi();
        bookings.push({ id, user });
      }
      await until(
        'every payment attempt to be settled by reconciliation',
        async () => {
          const { n } = await one("SELECT count(*)::int AS n FROM payments WHERE status = 'processing'");
          return n === 0;
        },
        120_000,
        500,
      );
      const { approved } = await one("SELECT count(*)::int AS approved FROM payments WHERE status = 'approved'");
      const { confirmed } = await one("SELECT count(*)::int AS confirmed FROM bookings WHERE status = 'confirmed'");
      assert.equal((await ledger('charge')).n, ROUNDS, 'one charge per payment at the gateway');
      assert.equal(approved, ROUNDS, 'every charge recorded as approved');
      assert.equal(confirmed, ROUNDS, 'every charge confirmed its booking');
    },
  );

  it(
    `the worker killed while refunding, ${ROUNDS} times: every cancellation is refunded exactly once`,
    { timeout: 170_000 },
    async () => {
      assert.equal(bookings.length, ROUNDS, 'the bookings of the first test');
      for (const [i, { id, user }] of bookings.entries()) {
        const c = await signIn(stack, user);
        const r = await c.put(`/api/user/bookings/${id}/cancel`, { acknowledgePolicy: true, reason: 'Plans changed' });
        assert.equal(r.status, 200, show(r));
        await until(
          `the gateway to make refund ${i}`,
          async () => {
            const row = await one(
              "SELECT 1 AS ok FROM refunds r JOIN test_gateway.transactions t ON t.reference = left(replace(r.id::text, '-', ''), 20) WHERE r.booking_id = $1 AND t.kind = 'refund'",
              [id],
            ).catch(() => null);
            return row?.ok;
          },
          60_000,
        );
        await stack.killWorker();
        await stack.startWorker();
      }
      // Killed workers' tasks are taken over once their heartbeats are missed.
      await until(
        'every refund to be settled',
        async () => {
          const { n } = await one("SELECT count(*)::int AS n FROM refunds WHERE status <> 'succeeded'");
          return n === 0;
        },
        150_000,
        500,
      );
      const { refunds, tries } = await one('SELECT count(*)::int AS refunds, max(attempts)::int AS tries FROM refunds');
      assert.equal(refunds, ROUNDS, 'one refund per cancellation');
      assert.equal(tries, 1, 'a refund whose answer was lost is found at the gateway, not sent again');
      assert.equal((await ledger('refund')).n, ROUNDS, 'one refund per cancellation at the gateway');
    },
  );
});

// PostgreSQL restarts while seekers book and pay in a loop: every answer is a 2xx, a 4xx or a 503
// `unavailable` (never a 500, never a dropped connection), and once the server is back everything
// settles: no payment stays open, no reservation is paid twice, and the gateway charged exactly
// the payments that were approved.
//
// The server restarted here is a private cluster (harness/postgres.mjs), never the shared one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { APPROVED_CARD, bookableMentor, startIn } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { startPostgres } from '../harness/postgres.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const SEEKERS = 12;
const RESTARTS = 3;
const UNAVAILABLE = 'The service is temporarily unavailable. Please try again shortly.';
const INTERNALS = /sqlx|postgres|SQLSTATE|panicked|connection refused|pool timed out/i;

let server;
let stack;
let loading = false;
before(async () => {
  server = await startPostgres();
  stack = await startStack({ server: server.url, env: { PAYMENT_RECONCILE_AFTER_SECONDS: '1' } });
});
after(async () => {
  loading = false;
  await stack?.stop();
  await server?.destroy();
});

describe('PostgreSQL restarts under booking and payment load', () => {
  it(
    `${RESTARTS} restarts with ${SEEKERS} seekers paying: never a 500, and everything settles`,
    { timeout: 600_000 },
    async () => {
      // One mentor per seeker, so a hold a lost answer leaves behind never blocks another seeker.
      const seekers = await Promise.all(
        Array.from({ length: SEEKERS }, async () => {
          const user = await createVerifiedUser(stack);
          return { user, c: await signIn(stack, user), setup: await bookableMentor(stack) };
        }),
      );
      const answers = [];
      const send = async (label, call) => {
        let res;
        try {
          res = await call();
        } catch (e) {
          res = { status: 0, body: null, text: `no answer: ${e.cause?.code ?? e.message}` };
        }
        answers.push({ label, status: res.status, body: res.body, text: res.text });
        return res;
      };

      // Each seeker: hold the next free hour of its mentor, then pay until the answer is definite.
      let paid = 0;
      loading = true;
      const loops = seekers.map(async ({ user, c, setup }, i) => {
        for (let n = 0; loading; n += 1) {
          const held = await send('POST /api/reservations', () =>
            c.post('/api/reservations', {
              serviceId: setup.service.id,
              mentorId: setup.mentor.id,
              scheduledAt: startIn(2 + n * 2 + (i % 2)),
              totalAmount: setup.service.price,
            }),
          );
          if (held.status !== 201) continue;
          for (let tries = 0; tries < 50; tries += 1) {
            const res = await send('POST /api/process-payment-v2', () =>
              c.post('/api/process-payment-v2', {
                reservationId: held.body.reservation.id,
                cardNumber: APPROVED_CARD,
                expirationDate: '1230',
                cardCode: '123',
                billingInfo: { firstName: user.firstName, lastName: user.lastName, zip: '10001' },
              }),
            );
            if (res.status === 200 && res.body.success) {
              paid += 1;
              break;
            }
            if (res.status >= 400 && res.status < 500) break;
            if (!loading) break;
          }
        }
      });

      for (let r = 0; r < RESTARTS; r += 1) {
        const before = paid;
        await until(`payments before restart ${r + 1}`, () => paid >= before + SEEKERS / 2, 120_000, 100);
        await server.stop();
        await server.start();
      }
      const settledBefore = paid;
      await until('payments after the last restart', () => paid >= settledBefore + SEEKERS / 2, 120_000, 100);
      loading = false;
      await Promise.all(loops);

      // Never a 500 or a dropped connection; a 503 is the plain `unavailable` answer.
      const wrong = answers.filter(
        (a) => !(a.status >= 200 && a.status < 300) && !(a.status >= 400 && a.status < 500) && a.status !== 503,
      );
      assert.deepEqual(
        wrong.map((a) => `${a.label}: ${a.status} ${a.text}`),
        [],
        'answers other than 2xx, 4xx or 503',
      );
      for (const a of answers.filter((x) => x.status === 503)) {
        assert.deepEqual(a.body, { code: 'unavailable', message: UNAVAILABLE }, `${a.label}: ${a.text}`);
        assert.doesNotMatch(a.text, INTERNALS);
      }
      for (const a of answers.filter((x) => x.status >= 400 && x.status < 500)) {
        assert.equal(typeof a.body?.code, 'string', `${a.label}: ${show(a)}`);
      }
      const outage = answers.filter((a) => a.status === 503).length;
      console.log(`# ${answers.length} answers, ${outage} were 503 during ${RESTARTS} restarts; ${paid} payments`);

      // Everything settles: reconciliation closes every open attempt, nothing is paid twice, and
      // the gateway charged exactly the approved payments.
      const db = new pg.Client({ connectionString: stack.databaseUrl });
      await db.connect();
      try {
        const one = async (sql) => (await db.query(sql)).rows[0];
        await until(
          'every payment attempt to settle',
          async () => (await one("SELECT count(*)::int AS n FROM payments WHERE status = 'processing'")).n === 0,
          120_000,
          500,
        );
        const twice = await one(
          "SELECT count(*)::int AS n FROM (SELECT booking_id FROM payments WHERE status = 'approved' GROUP BY booking_id HAVING count(*) > 1) x",
        );
        assert.equal(twice.n, 0, 'a reservation paid twice');
        const approved = await one("SELECT count(*)::int AS n FROM payments WHERE status = 'approved'");
        const charged = await one(
          "SELECT count(*)::int AS n FROM test_gateway.transactions WHERE kind = 'charge' AND transaction_id IS NOT NULL",
        );
        // A charge that settled after its hold had gone is approved too (and refunded).
        assert.equal(charged.n, approved.n, 'charges at the gateway = approved payments');
        assert.ok(approved.n >= paid, `${approved.n} approved payments, ${paid} answered as paid`);
        const unconfirmed = await one(
          "SELECT count(*)::int AS n FROM payments p JOIN bookings b ON b.id = p.booking_id WHERE p.status = 'approved' AND b.status NOT IN ('confirmed', 'cancelled')",
        );
        assert.equal(unconfirmed.n, 0, 'an approved payment without a confirmed booking');
      } finally {
        await db.end();
      }
    },
  );
});

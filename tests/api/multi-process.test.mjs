// Two api and two worker processes on one database while the booking flow runs through both
// apis in turn: every mail goes out exactly once, every refund is paid once, and every cron tick
// becomes exactly one task that runs once, however many workers schedule it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { VERIFY_SUBJECT, createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { mailTo } from '../harness/mail.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const SEEKERS = 6;
// Every sweep queue of jobs/src (one task per cron tick, the payload names the tick).
const SWEEP_QUEUES = ['reservation_expiry_sweep', 'booking_reminders_sweep', 'booking_completion_sweep', 'cleanup'];
// reservation_expiry_sweep ticks every minute: one tick while both workers run takes at most this.
const TICK_WAIT_MS = 75_000;

let stack;
let db;
before(async () => {
  stack = await startStack({ apis: 2, workers: 2 });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

/** The stack as seen through api process `i` (mod 2). */
const via = (i) => ({ ...stack, baseUrl: stack.baseUrls[i % stack.baseUrls.length] });

describe('two api and two worker processes', () => {
  it('send every mail once, pay every refund once and run every cron tick once', { timeout: 170_000 }, async () => {
    const bothUpAt = Date.now();
    assert.deepEqual(stack.workersRunning, [true, true]);
    assert.deepEqual(stack.apisRunning, [true, true]);

    const setup = await bookableMentor(stack);
    const expected = [[setup.user.email, VERIFY_SUBJECT]];
    const cancelled = [];
    await Promise.all(
      Array.from({ length: SEEKERS }, async (_, i) => {
        const user = await createVerifiedUser(via(i));
        expected.push([user.email, VERIFY_SUBJECT]);
        // Reserve through one api, pay through the other; a day apart so subjects differ by date.
        const held = await reserve(await signIn(via(i), user), setup, startIn(30 + 24 * i));
        const booking = await pay(await signIn(via(i + 1), user), held.reservation.id, user);
        const confirmed = `Booking confirmed: ${setup.service.title} with ${setup.mentor.displayName}`;
        expected.push([user.email, confirmed]);
        const day = new Date(booking.scheduledAt).toLocaleDateString('en-US', {
          month: 'short',
          day: '2-digit',
          timeZone: 'UTC',
        });
        // The mentor hears of every new booking too (their zone is UTC).
        expected.push([
          setup.user.email,
          `New booking: ${setup.service.title} with ${user.firstName} ${user.lastName} on ${day}`,
        ]);
        if (i % 2 === 0) {
          // The confirmation goes out only while the booking stands: cancel once it has.
          await stack.waitForMail(mailTo(user.email, confirmed), 60_000);
          const c = await signIn(via(i + 1), user);
          const r = await c.put(`/api/user/bookings/${booking.id}/cancel`, {
            acknowledgePolicy: true,
            reason: 'Plans changed',
          });
          assert.equal(r.status, 200, show(r));
          const subject = `Booking cancelled: ${setup.service.title} on ${day}`;
          // A cancellation a day or more ahead is refunded in full, and the paid refund is receipted.
          expected.push(
            [user.email, subject],
            [setup.user.email, subject],
            [user.email, `Refund of $${setup.service.price} issued`],
          );
          cancelled.push(booking.id);
        }
      }),
    );

    // Wait for the expected mails, then for every mail and refund task to finish.
    const key = (to, subject) => `${to.toLowerCase()} | ${subject}`;
    const want = new Set(expected.map(([to, subject]) => key(to, subject)));
    await until(
      'every expected mail',
      async () => {
        const have = new Set((await stack.mails()).flatMap((m) => m.toList.map((to) => key(to, m.subject))));
        return [...want].every((k) => have.has(k));
      },
      60_000,
    );
    await until(
      'the mail and refund queues to drain',
      async () => {
        const { rows } = await db.query(
          "SELECT count(*)::int AS n FROM apalis.jobs WHERE job_type IN ('emails', 'refunds') AND status <> 'Done'",
        );
        return rows[0].n === 0;
      },
      60_000,
    );

    const counts = new Map();
    for (const m of await stack.mails())
      for (const to of m.toList) counts.set(key(to, m.subject), (counts.get(key(to, m.subject)) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n !== 1);
    assert.deepEqual(twice, [], 'mails sent more than once');
    assert.deepEqual([...counts.keys()].sort(), [...want].sort(), 'exactly the expected mails');

    const { rows: refunds } = await db.query(
      'SELECT booking_id, status, attempts FROM refunds WHERE booking_id = ANY($1::uuid[])',
      [cancelled],
    );
    assert.equal(refunds.length, cancelled.length, 'one refund per cancelled booking');
    for (const r of refunds)
      assert.deepEqual({ status: r.status, attempts: r.attempts }, { status: 'succeeded', attempts: 1 }, r.booking_id);

    // Cron: wait for a tick scheduled while both workers ran, then one task per tick in every sweep queue.
    const tickAfter = Math.ceil(bothUpAt / 1000);
    await until(
      'a reservation sweep tick run while both workers were up',
      async () => {
        const { rows } = await db.query(
          "SELECT 1 FROM apalis.jobs WHERE job_type = 'reservation_expiry_sweep' AND status = 'Done' AND (convert_from(job, 'UTF8')::jsonb->>'tick')::bigint >= $1",
          [tickAfter],
        );
        return rows.length > 0;
      },
      TICK_WAIT_MS,
      500,
    );
    const { rows: ticks } = await db.query(
      `SELECT job_type, convert_from(job, 'UTF8')::jsonb->>'tick' AS tick, count(*)::int AS tasks,
              count(*) FILTER (WHERE status = 'Done')::int AS done, max(attempts)::int AS attempts
         FROM apalis.jobs WHERE job_type = ANY($1) GROUP BY 1, 2 ORDER BY 1, 2`,
      [SWEEP_QUEUES],
    );
    assert.ok(ticks.length > 0, 'no cron tick at all');
    for (const t of ticks) {
      assert.equal(t.tasks, 1, `${t.job_type} tick ${t.tick} became ${t.tasks} tasks`);
      if (t.done) assert.equal(t.attempts, 1, `${t.job_type} tick ${t.tick} ran ${t.attempts} times`);
    }
    assert.deepEqual(stack.workersRunning, [true, true], 'both workers are still running');
    assert.deepEqual(stack.apisRunning, [true, true], 'both apis are still running');
  });
});

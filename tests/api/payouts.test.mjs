// Payouts through the real processes: two workers whose cron (PAYOUT_SCHEDULE every second)
// runs the batch, plus an admin's "run now" and two `api payouts run` at the same moment.
// Bookings completed in different weeks, a partial refund, a cancelled (refunded) booking and a
// mentor under the minimum: each booking ends in exactly one payout, the sums are exact to the
// cent, two admins marking one payout paid at once get one 200 and one 409, and the CSV export.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { mailTo } from '../harness/mail.mjs';
import { apiBin, startStack, workerBin } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const run = promisify(execFile);

let stack;
let db;
before(async () => {
  stack = await startStack({ workers: 2, env: { PAYOUT_SCHEDULE: '* * * * * *' } });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

/** The platform's fee on one booking: 15%, half a cent rounded up, in cents. */
const fee = (cents) => Math.floor((cents * 15 + 50) / 100);
const money = (cents) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** A mentor at `price` with `n` paid bookings (confirmed, in the future for now). */
async function mentorWithBookings(seeker, name, price, n, firstHour) {
  const m = await bookableMentor(stack, { price });
  await db.query('UPDATE mentors SET display_name = $2 WHERE id = $1', [m.mentor.id, name]);
  const s = await signIn(stack, seeker);
  const bookings = [];
  for (let i = 0; i < n; i += 1) {
    const held = await reserve(s, m, startIn(firstHour + 2 * i));
    bookings.push(await pay(s, held.reservation.id, seeker));
  }
  return { ...m, name, bookings };
}

describe('the payout batch through two workers', () => {
  it(
    'puts each booking in exactly one payout with exact sums, and mark-paid races once',
    { timeout: 170_000 },
    async () => {
      const seeker = await createVerifiedUser(stack);
      const adminUser = await createVerifiedUser(stack);
      await db.query('UPDATE users SET is_admin = true WHERE lower(email) = lower($1)', [adminUser.email]);
      const admin = await signIn(stack, adminUser);

      const a = await mentorWithBookings(seeker, 'Astra', '33.33', 3, 30);
      const b = await mentorWithBookings(seeker, 'Bram', '19.99', 5, 60);
      const c = await mentorWithBookings(seeker, 'Cyra', '40.00', 1, 90);

      // One of Bram's bookings is cancelled by the seeker: refunded in full, never paid out.
      const s = await signIn(stack, seeker);
      const cancelled = b.bookings.pop();
      const r = await s.put(`/api/user/bookings/${cancelled.id}/cancel`, {
        acknowledgePolicy: true,
        reason: 'Plans changed',
      });
      assert.equal(r.status, 200, show(r));

      // The sessions took place 3, 2 and 1 weeks ago (different weeks) and were completed; one of
      // Astra's had 10.00 refunded afterwards. All at once, so no batch sees half of it.
      const weeksAgo = (i) => `${7 * (3 - (i % 3))} days`;
      await db.query('BEGIN');
      for (const m of [a, b, c]) {
        for (const [i, bk] of m.bookings.entries()) {
          await db.query(
            `UPDATE bookings SET scheduled_at = now() - $2::interval - interval '1 hour', ends_at = now() - $2::interval,
             status = 'completed', completed_at = now() - $2::interval + interval '1 day' WHERE id = $1`,
            [bk.id, weeksAgo(i)],
          );
        }
      }
      await db.query(
        `INSERT INTO refunds (booking_id, payment_id, percentage, amount_cents, status, completed_at)
       SELECT $1, id, 50, 1000, 'succeeded', now() FROM payments WHERE booking_id = $1 AND status = 'approved'`,
        [a.bookings[0].id],
      );
      await db.query('COMMIT');

      // Overlapping runs on top of the two workers' cron: an admin's run and two operator runs.
      const env = { ...stack.env };
      const [queued, ...operator] = await Promise.all([
        admin.post('/api/admin/payouts/run', {}),
        run(apiBin, ['payouts', 'run'], { env }),
        run(apiBin, ['payouts', 'run'], { env }),
      ]);
      assert.equal(queued.status, 202, show(queued));
      assert.deepEqual(queued.body, { message: 'Payout batch queued' });
      for (const o of operator) assert.match(o.stdout, /payout batch: \d+ payouts created holding \d+ bookings/);

      const paidIds = [...a.bookings, ...b.bookings].map((bk) => bk.id).sort();
      await until(
        'both payouts',
        async () => (await db.query('SELECT count(*)::int AS n FROM payout_bookings')).rows[0].n === paidIds.length,
        30_000,
      );
      // Let more ticks pass (each worker runs some): nothing changes, and no booking is taken twice.
      const ticksBefore = (
        await db.query("SELECT count(*)::int AS n FROM apalis.jobs WHERE job_type = 'payout_batch' AND status = 'Done'")
      ).rows[0].n;
      await until(
        'three more batch runs',
        async () =>
          (
            await db.query(
              "SELECT count(*)::int AS n FROM apalis.jobs WHERE job_type = 'payout_batch' AND status = 'Done'",
            )
          ).rows[0].n >=
          ticksBefore + 3,
        30_000,
      );
      // Both worker processes serve the batch's queue meanwhile (worker names are '<queue>@<pid>-<uuid>');
      // which of them takes a given tick is up to their polling, so that is not asserted.
      const serving = await db.query(
        "SELECT count(DISTINCT split_part(split_part(id, '@', 2), '-', 1))::int AS n FROM apalis.workers WHERE worker_type = 'payout_batch'",
      );
      assert.equal(serving.rows[0].n, 2, 'both workers serve the payout batch');
      const held = await db.query(
        'SELECT booking_id::text AS id, payout_id::text AS payout FROM payout_bookings ORDER BY booking_id',
      );
      assert.deepEqual(
        held.rows.map((row) => row.id).sort(),
        paidIds,
        'exactly the paid, completed bookings, each once',
      );
      const { rows: payouts } = await db.query(
        'SELECT id::text, mentor_id::text, booking_count FROM payouts ORDER BY created_at',
      );
      assert.equal(payouts.length, 2, 'one payout per mentor over the minimum; Cyra (34.00 net) rolls over');

      const pending = await admin.get('/api/admin/payouts/pending');
      assert.equal(pending.status, 200, show(pending));
      const byName = Object.fromEntries(pending.body.map((p) => [p.mentor.displayName, p]));
      assert.deepEqual(Object.keys(byName).sort(), ['Astra', 'Bram']);
      const expect = (amounts) => {
        const total = amounts.reduce((x, y) => x + y, 0);
        const fees = amounts.reduce((x, y) => x + fee(y), 0);
        return {
          bookingCount: amounts.length,
          pendingAmount: money(total),
          platformFee: money(fees),
          mentorNet: money(total - fees),
        };
      };
      const pick = (p) => ({
        bookingCount: p.bookingCount,
        pendingAmount: p.pendingAmount,
        platformFee: p.platformFee,
        mentorNet: p.mentorNet,
      });
      // Astra: 23.33 (33.33 less the 10.00 refund) + 33.33 + 33.33 = 89.99; fees 3.50 + 5.00 + 5.00.
      assert.deepEqual(pick(byName.Astra), expect([2333, 3333, 3333]));
      assert.deepEqual(pick(byName.Astra), {
        bookingCount: 3,
        pendingAmount: '89.99',
        platformFee: '13.50',
        mentorNet: '76.49',
      });
      // Bram: four times 19.99; fee 3.00 each (2.9985 rounded up).
      assert.deepEqual(pick(byName.Bram), {
        bookingCount: 4,
        pendingAmount: '79.96',
        platformFee: '12.00',
        mentorNet: '67.96',
      });
      assert.deepEqual([...byName.Bram.bookingIds].sort(), b.bookings.map((bk) => bk.id).sort());
      assert.ok(!byName.Bram.bookingIds.includes(cancelled.id));

      // Cyra's 34.00 waits for the next batch; she sees it accrue.
      const cyra = await c.c.get('/api/mentor/earnings');
      assert.equal(cyra.status, 200, show(cyra));
      assert.deepEqual(cyra.body.nextPayout, {
        bookingCount: 1,
        pendingAmount: '40.00',
        platformFee: '6.00',
        mentorNet: '34.00',
      });
      assert.deepEqual(cyra.body.pending, {
        bookingCount: 0,
        pendingAmount: '0.00',
        platformFee: '0.00',
        mentorNet: '0.00',
      });

      // The mentors were told by e-mail.
      await stack.waitForMail(mailTo(a.user.email, 'Your payout of $76.49 is being prepared'));

      // Mark-paid: without preferences 409; then two admins at once, one 200 and one 409.
      const markA = {
        mentorId: a.mentor.id,
        bookingIds: byName.Astra.bookingIds,
        method: 'paypal',
        recipientInfo: 'astra@pay.example',
      };
      const early = await admin.post('/api/admin/payouts/mark-paid', markA);
      assert.equal(early.status, 409, show(early));
      assert.equal(early.body.message, 'This mentor has not set payout preferences yet');
      const prefs = await a.c.post('/api/mentor/payout-preferences', {
        method: 'paypal',
        paypalEmail: 'astra@pay.example',
        minimumPayout: '50.00',
      });
      assert.equal(prefs.status, 200, show(prefs));
      const admin2 = await signIn(stack, adminUser);
      const both = await Promise.all([
        admin.post('/api/admin/payouts/mark-paid', markA),
        admin2.post('/api/admin/payouts/mark-paid', markA),
      ]);
      assert.deepEqual(both.map((x) => x.status).sort(), [200, 409], both.map(show).join('\n'));
      assert.deepEqual(both.find((x) => x.status === 200).body, { message: 'Payout marked as paid' });
      assert.equal(both.find((x) => x.status === 409).body.message, 'This payout has already been marked as paid');
      await stack.waitForMail(mailTo(a.user.email, 'Your payout of $76.49 was sent'));

      const history = await admin.get('/api/admin/payouts/history');
      assert.equal(history.status, 200, show(history));
      assert.equal(history.body.length, 1);
      assert.deepEqual(
        {
          name: history.body[0].mentor.displayName,
          method: history.body[0].method,
          to: history.body[0].recipientInfo,
          amount: history.body[0].mentorAmount,
        },
        { name: 'Astra', method: 'paypal', to: 'astra@pay.example', amount: '76.49' },
      );
      const earnings = await a.c.get('/api/mentor/earnings');
      assert.equal(earnings.body.history[0].mentorAmount, '76.49');
      assert.equal(earnings.body.pending.bookingCount, 0);
      const audit = await db.query("SELECT count(*)::int AS n FROM admin_audit WHERE action = 'payout.mark_paid'");
      assert.equal(audit.rows[0].n, 1);

      // The CSV of what is still pending: Bram, whose Venmo handle starts with @ (written without it: the method column says Venmo).
      const bramPrefs = await b.c.post('/api/mentor/payout-preferences', {
        method: 'venmo',
        venmoUsername: '@bram',
        minimumPayout: '50.00',
      });
      assert.equal(bramPrefs.status, 200, show(bramPrefs));
      const csv = await admin.get('/api/admin/payouts/export?status=pending');
      assert.equal(csv.status, 200, show(csv));
      assert.match(csv.headers.get('content-type'), /^text\/csv/);
      assert.equal(csv.text, 'mentor,method,recipient,amount,adjustments\nBram,venmo,bram,67.96,0.00\n');
      const bad = await admin.get('/api/admin/payouts/export?status=paid');
      assert.equal(bad.status, 400, show(bad));

      // Refusals: anonymous 401, a seeker and a mentor 403.
      const anon = client(stack.baseUrl);
      for (const path of [
        '/api/admin/payouts/pending',
        '/api/admin/payouts/history',
        '/api/admin/payouts/export?status=pending',
      ]) {
        assert.equal((await anon.get(path)).status, 401, path);
        assert.equal((await s.get(path)).status, 403, path);
        assert.equal((await c.c.get(path)).status, 403, path);
      }
      assert.equal((await s.post('/api/admin/payouts/run', {})).status, 403);
      assert.equal((await c.c.post('/api/admin/payouts/mark-paid', markA)).status, 403);
    },
  );

  it('a worker refuses a PAYOUT_SCHEDULE that is not a cron expression, in one line', async () => {
    const failed = await run(workerBin, [], { env: { ...stack.env, PAYOUT_SCHEDULE: 'every monday' } }).then(
      () => null,
      (e) => e,
    );
    assert.ok(failed, 'the worker started');
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /PAYOUT_SCHEDULE 'every monday' is not a cron expression/);
  });
});

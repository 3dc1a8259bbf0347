// Payout batch figures (not a test): the weekly batch over 100,000 completed, paid bookings of
// 10,000 mentors, run by one worker process: seconds from "Run payout batch now" until the
// batch task is done, payouts and bookings made, and the worker's peak memory (VmHWM) and RSS.
//
//   node bench/payout-bench.mjs [--mentors 10000] [--per-mentor 10]
// Binaries: API_BIN / WORKER_BIN (scripts/bench passes its release build), else the debug build.
// A fresh database on DATABASE_URL's server (or the local cluster), dropped at the end.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { client } from '../harness/client.mjs';
import { apiBin, startStack, workerBin } from '../harness/stack.mjs';

const { values } = parseArgs({
  options: { mentors: { type: 'string', default: '10000' }, 'per-mentor': { type: 'string', default: '10' } },
});
const mentors = Number(values.mentors);
const perMentor = Number(values['per-mentor']);

/** kB of a /proc/<pid>/status field (VmRSS, VmHWM). */
function memKb(pid, field) {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}
const mib = (kb) => `${(kb / 1024).toFixed(1)} MiB`;

console.log(`api ${apiBin}\nworker ${workerBin}`);
const stack = await startStack({ worker: false, env: { RUST_LOG: 'warn,jobs::payout_batch=info' } });
const db = new pg.Client({ connectionString: stack.databaseUrl });
await db.connect();
try {
  let t = performance.now();
  // Mentors with one service each, one seeker, an admin; then the completed bookings and payments.
  await db.query(
    `
    INSERT INTO users (email, password_hash, first_name, last_name, email_verified)
    SELECT 'bench.mentor.' || i || '@example.com', 'x', 'Bench', 'Mentor ' || i, true FROM generate_series(1, $1) i;
    `.replace('$1', String(mentors)),
  );
  await db.query(`
    INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents)
    SELECT id, last_name, repeat('A mentor made by the payout benchmark. ', 2), '{Astrology}', 4000 FROM users WHERE email LIKE 'bench.mentor.%'`);
  await db.query(`
    INSERT INTO services (mentor_id, title, description, service_type, price_cents, duration_minutes)
    SELECT id, 'Bench reading', 'A reading used by the payout benchmark only.', 'astrology', 4000, 60 FROM mentors`);
  await db.query(
    `INSERT INTO users (email, password_hash, first_name, last_name, email_verified) VALUES ('bench.seeker@example.com', 'x', 'Bench', 'Seeker', true)`,
  );
  await db.query(`
    WITH s AS (SELECT id AS service_id, mentor_id, row_number() OVER (ORDER BY mentor_id) AS rn FROM services),
         b AS (
           INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents, completed_at)
           SELECT (SELECT id FROM users WHERE email = 'bench.seeker@example.com'), s.mentor_id, s.service_id, 'completed',
                  now() - make_interval(days => 2 + k) - make_interval(mins => (s.rn % 1000)::int),
                  now() - make_interval(days => 2 + k) - make_interval(mins => (s.rn % 1000)::int) + interval '1 hour',
                  1000 + ((s.rn * 10 + k) * 37) % 9000, now() - interval '1 day'
           FROM s, generate_series(1, ${perMentor}) k
           RETURNING id, user_id, total_cents)
    INSERT INTO payments (booking_id, user_id, gateway, amount_cents, card_last4, status, reference)
    SELECT id, user_id, 'test', total_cents, '1111', 'approved', left(replace(gen_random_uuid()::text, '-', ''), 20) FROM b`);
  await db.query('ANALYZE');
  const {
    rows: [{ n: bookings }],
  } = await db.query("SELECT count(*)::int AS n FROM bookings WHERE status = 'completed'");
  console.log(
    `data: ${mentors} mentors, ${bookings} completed paid bookings (${((performance.now() - t) / 1000).toFixed(1)} s to insert)`,
  );

  const admin = client(stack.baseUrl);
  const adminEmail = 'bench.admin@example.com';
  let r = await admin.post('/api/register', {
    email: adminEmail,
    password: 'bench-password-1',
    firstName: 'Bench',
    lastName: 'Admin',
  });
  if (r.status !== 201) throw new Error(`register: ${r.status} ${r.text}`);
  await db.query('UPDATE users SET is_admin = true, email_verified = true WHERE email = $1', [adminEmail]);
  r = await admin.post('/api/login', { email: adminEmail, password: 'bench-password-1' });
  if (r.status !== 200) throw new Error(`login: ${r.status} ${r.text}`);

  await stack.startWorker();
  const pid = stack.workerPids[0];
  // Idle first: the worker's own footprint before the batch.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idleRss = memKb(pid, 'VmRSS');

  let peakRss = idleRss;
  const sampler = setInterval(() => {
    try {
      peakRss = Math.max(peakRss, memKb(pid, 'VmRSS'));
    } catch {
      // the process is gone: the peak so far stands
    }
  }, 50);
  t = performance.now();
  r = await admin.post('/api/admin/payouts/run', {});
  if (r.status !== 202) throw new Error(`run: ${r.status} ${r.text}`);
  for (;;) {
    const { rows } = await db.query("SELECT status FROM apalis.jobs WHERE job_type = 'payout_batch'");
    if (rows.length && rows.every((row) => row.status === 'Done')) break;
    if (rows.some((row) => row.status === 'Failed' || row.status === 'Killed'))
      throw new Error(`the batch failed: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  const hwm = memKb(pid, 'VmHWM');
  const {
    rows: [made],
  } = await db.query(
    `SELECT count(*)::int AS payouts, coalesce(sum(booking_count), 0)::int AS bookings,
            count(*) FILTER (WHERE mentor_net_cents <> pending_amount_cents - platform_fee_cents)::int AS inexact,
            (SELECT count(*)::int FROM payout_bookings) AS held, (SELECT count(DISTINCT booking_id)::int FROM payout_bookings) AS distinct_held
     FROM payouts`,
  );
  console.log(
    `batch: ${made.payouts} payouts holding ${made.bookings} bookings in ${seconds.toFixed(1)} s (${Math.round(made.bookings / seconds)} bookings/s)`,
  );
  console.log(
    `checks: ${made.held} payout_bookings rows, ${made.distinct_held} distinct bookings, ${made.inexact} payouts with net != amount - fee`,
  );
  console.log(`worker memory: idle RSS ${mib(idleRss)}, peak RSS sampled ${mib(peakRss)}, VmHWM ${mib(hwm)}`);
  const {
    rows: [queued],
  } = await db.query(
    "SELECT count(*) FILTER (WHERE job_type = 'emails')::int AS emails, count(*) FILTER (WHERE job_type = 'notification_fanout')::int AS notices FROM apalis.jobs",
  );
  console.log(
    `queued for the mentors: ${queued.emails} e-mails, ${queued.notices} notification fan-outs (sent by the same worker meanwhile)`,
  );
} finally {
  await db.end();
  await stack.stop();
}

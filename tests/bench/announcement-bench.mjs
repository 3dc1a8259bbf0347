// Announcement figures (not a test): one admin announcement to every user of 100,000, delivered by
// one worker process: seconds from the 202 until every user has their notification, notifications
// a second, and the worker's peak memory (VmHWM) and RSS. Checks that each user has exactly one.
//
//   node bench/announcement-bench.mjs [--users 100000]
// Binaries: API_BIN / WORKER_BIN (scripts/bench passes its release build), else the debug build.
// A fresh database on DATABASE_URL's server (or the local cluster), dropped at the end.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { client } from '../harness/client.mjs';
import { apiBin, startStack, workerBin } from '../harness/stack.mjs';

const { values } = parseArgs({ options: { users: { type: 'string', default: '100000' } } });
const users = Number(values.users);

/** kB of a /proc/<pid>/status field (VmRSS, VmHWM). */
function memKb(pid, field) {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}
const mib = (kb) => `${(kb / 1024).toFixed(1)} MiB`;

console.log(`api ${apiBin}\nworker ${workerBin}`);
const stack = await startStack({ worker: false, env: { RUST_LOG: 'warn,jobs::announcement_fanout=info' } });
const db = new pg.Client({ connectionString: stack.databaseUrl });
await db.connect();
try {
  await db.query(
    `INSERT INTO users (email, password_hash, first_name, last_name, email_verified)
     SELECT 'bench.user.' || i || '@example.com', 'x', 'Bench', 'User ' || i, true FROM generate_series(1, ${users}) i`,
  );
  await db.query('ANALYZE');
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
  await new Promise((resolve) => setTimeout(resolve, 2000)); // the worker's own footprint first
  const idleRss = memKb(pid, 'VmRSS');
  let peakRss = idleRss;
  const sampler = setInterval(() => {
    try {
      peakRss = Math.max(peakRss, memKb(pid, 'VmRSS'));
    } catch {
      // the process is gone: the peak so far stands
    }
  }, 50);

  const t = performance.now();
  r = await admin.post('/api/admin/announcements', {
    audience: 'all',
    title: 'Benchmark',
    message: 'One notification for every user.',
  });
  if (r.status !== 202) throw new Error(`announce: ${r.status} ${r.text}`);
  const id = r.body.id;
  for (;;) {
    const { rows } = await db.query('SELECT completed_at IS NOT NULL AS done FROM announcements WHERE id = $1', [id]);
    if (rows[0]?.done) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - t) / 1000;
  clearInterval(sampler);
  const hwm = memKb(pid, 'VmHWM');
  const {
    rows: [made],
  } = await db.query(
    `SELECT (SELECT delivered_count FROM announcements WHERE id = $1) AS delivered,
            count(*)::int AS rows, count(DISTINCT user_id)::int AS distinct_users,
            (SELECT count(*)::int FROM users WHERE is_active) AS active_users
     FROM notifications WHERE announcement_id = $1`,
    [id],
  );
  const rate = Math.round(made.rows / seconds);
  console.log(`announcement: ${made.rows} notifications in ${seconds.toFixed(1)} s (${rate}/s)`);
  console.log(
    `checks: deliveredCount ${made.delivered}, ${made.distinct_users} distinct users of ${made.active_users} active`,
  );
  console.log(`worker memory: idle RSS ${mib(idleRss)}, peak RSS sampled ${mib(peakRss)}, VmHWM ${mib(hwm)}`);
} finally {
  await db.end();
  await stack.stop();
}

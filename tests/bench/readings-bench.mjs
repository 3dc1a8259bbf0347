// Instant readings figures (not a test; issue 36 §5): 200 readings metered at once for 5 minutes in
// real time, one worker. 200 mentors online (each with an open socket, as presence requires) and
// 200 seekers with a balance, who already had their free minutes with their mentor (so every minute
// is charged), are made in SQL; every reading is requested and accepted through the
// api, so its minute jobs are queued as in production. After BENCH_READINGS_SECONDS the seekers end
// them, and the benchmark prints: readings, minutes charged against the minutes billed, minute-index
// duplicates (by query, beside the UNIQUE constraint), wallets whose balance is not the sum of their
// ledger, the charge job's lateness p50/p95/p99/max (each minute's task done, and picked up, after
// the minute's start), and the worker's CPU.
//
//   node bench/readings-bench.mjs [--readings 200]
//   BENCH_READINGS_SECONDS=300 (default; 60 for a short try)  BENCH_RESULTS=<file> (appends the table's row)
// Binaries: API_BIN / WORKER_BIN (scripts/bench passes its release build), else the debug build.
// A fresh database on DATABASE_URL's server (or the local cluster), dropped at the end.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { client } from '../harness/client.mjs';
import { connect } from '../harness/realtime.mjs';
import { apiBin, startStack, workerBin } from '../harness/stack.mjs';

const { values } = parseArgs({ options: { readings: { type: 'string', default: '200' } } });
const READINGS = Number(values.readings);
const SECONDS = Number(process.env.BENCH_READINGS_SECONDS || 300);
/** The charge job's lateness p99 target (docs/instant-readings.md, "Measured"). */
const TARGET_P99_MS = 5000;
const RATE_CENTS = 100; // 1.00 a minute
const BALANCE_CENTS = 5000; // 50.00: far more than a 5-minute reading costs
const CONCURRENCY = 20; // api requests in flight while the readings start and end
const CLOCK_TICKS = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux

const tokenDigest = (token) => createHash('sha256').update(token).digest();
const newToken = () => randomBytes(32).toString('base64url');
const ms = (v) =>
  v === null || v === undefined || Number.isNaN(v) ? '-' : `${Math.round(v).toLocaleString('en-US')} ms`;

/** A signed-in client whose session was made in SQL. */
function signedIn(baseUrl, token) {
  const c = client(baseUrl);
  c.cookies.sid = token;
  return c;
}

/** Runs `fn` over `items`, at most `limit` at a time. */
async function pool(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next;
      next += 1;
      results[i] = await fn(items[i], i);
    }
  });
  await Promise.all(lanes);
  return results;
}

/** CPU seconds (user + system) of a process so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** The p-th percentile (0..100) of sorted numbers, nearest rank. */
function percentile(sorted, p) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function insertUsers(db, count, label) {
  const users = Array.from({ length: count }, (_, i) => ({ id: randomUUID(), token: newToken(), n: i }));
  await db.query(
    `INSERT INTO users (id, email, password_hash, first_name, last_name, email_verified)
     SELECT id, $2 || '.' || n || '@bench.test', 'not-a-password-hash', 'Bench', $2 || ' ' || n, true
     FROM unnest($1::uuid[], $3::int[]) AS t (id, n)`,
    [users.map((u) => u.id), label, users.map((u) => u.n)],
  );
  await db.query(
    `INSERT INTO sessions (token_hash, user_id, expires_at)
     SELECT h, u, now() + interval '1 day' FROM unnest($1::bytea[], $2::uuid[]) AS t (h, u)`,
    [users.map((u) => tokenDigest(u.token)), users.map((u) => u.id)],
  );
  return users;
}

console.log(`api ${apiBin}\nworker ${workerBin}`);
console.log(`${READINGS} readings for ${SECONDS} s at ${(RATE_CENTS / 100).toFixed(2)} a minute, one worker`);
const stack = await startStack({ worker: true, env: { RUST_LOG: 'warn' } });
const db = new pg.Client({ connectionString: stack.databaseUrl });
await db.connect();
const sockets = [];
try {
  // Setup in SQL: mentors with a rate (approved), seekers with a balance (one adjustment entry each:
  // the ledger's trigger moves the balance, as a top-up's entry would).
  let t = performance.now();
  const mentorUsers = await insertUsers(db, READINGS, 'mentor');
  const seekers = await insertUsers(db, READINGS, 'seeker');
  const mentorIds = mentorUsers.map(() => randomUUID());
  await db.query(
    `INSERT INTO mentors (id, user_id, display_name, bio, specialties, base_price_cents, approval_status,
                          per_minute_rate_cents, instant_modes)
     SELECT m, u, 'Bench Mentor', repeat('A mentor made by the readings benchmark. ', 2), '{Astrology}', 2000,
            'approved', $3, ARRAY['chat']
     FROM unnest($1::uuid[], $2::uuid[]) AS t (m, u)`,
    [mentorIds, mentorUsers.map((u) => u.id), RATE_CENTS],
  );
  await db.query(
    `INSERT INTO wallet_entries (user_id, kind, amount_cents, note)
     SELECT u, 'adjustment', $2, 'readings benchmark' FROM unnest($1::uuid[]) AS t (u)`,
    [seekers.map((u) => u.id), BALANCE_CENTS],
  );
  // Seekers who already had their free minutes with this mentor (a declined reading of the pair
  // claimed them), so every minute is paid and charged from minute 0: more charges, and a short try
  // charges minutes too.
  await db.query(
    `WITH r AS (
       INSERT INTO instant_sessions (seeker_id, mentor_id, mode, status, per_minute_rate_cents, free_minutes, expires_at)
       SELECT s, m, 'chat', 'declined', $3, 3, now() FROM unnest($1::uuid[], $2::uuid[]) AS t (s, m)
       RETURNING id, seeker_id, mentor_id)
     INSERT INTO instant_free_minutes (seeker_id, mentor_id, instant_session_id) SELECT seeker_id, mentor_id, id FROM r`,
    [seekers.map((u) => u.id), mentorIds, RATE_CENTS],
  );
  await db.query('ANALYZE');
  console.log(
    `setup: ${READINGS} mentors, ${READINGS} seekers in SQL (${((performance.now() - t) / 1000).toFixed(1)} s)`,
  );

  // Mentors online: presence needs an open socket of the mentor.
  t = performance.now();
  const mentors = mentorUsers.map((u, i) => ({ ...u, mentorId: mentorIds[i], c: signedIn(stack.baseUrl, u.token) }));
  await pool(mentors, CONCURRENCY, async (m) => {
    sockets.push(await connect(stack, m.token));
    const r = await m.c.put('/api/mentor/presence', { status: 'available' });
    if (r.status !== 200) throw new Error(`presence: ${r.status} ${r.text}`);
  });
  console.log(`online: ${READINGS} mentors with a socket each (${((performance.now() - t) / 1000).toFixed(1)} s)`);

  // The readings: requested by each seeker and accepted by its mentor through the api.
  t = performance.now();
  const workerPid = stack.workerPids[0];
  const readings = await pool(seekers, CONCURRENCY, async (s, i) => {
    const sc = signedIn(stack.baseUrl, s.token);
    const r = await sc.post('/api/instant-sessions', { mentorId: mentors[i].mentorId, mode: 'chat' });
    if (r.status !== 201) throw new Error(`request: ${r.status} ${r.text}`);
    const a = await mentors[i].c.post(`/api/instant-sessions/${r.body.id}/accept`);
    if (a.status !== 200) throw new Error(`accept: ${a.status} ${a.text}`);
    return { id: r.body.id, seeker: sc };
  });
  const startSpread = (performance.now() - t) / 1000;
  const {
    rows: [{ active }],
  } = await db.query("SELECT count(*)::int AS active FROM instant_sessions WHERE status = 'active'");
  console.log(
    `started: ${active} readings active at once (all ${READINGS} accepted within ${startSpread.toFixed(1)} s)`,
  );

  // Real time: the worker meters them.
  const cpuBefore = cpuSeconds(workerPid);
  const wallBefore = performance.now();
  const loadBefore = os.loadavg()[0];
  for (let left = SECONDS; left > 0; left -= 60) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(60, left) * 1000));
    const {
      rows: [{ n }],
    } = await db.query("SELECT count(*)::int AS n FROM wallet_entries WHERE kind = 'session_charge'");
    console.log(`  ${SECONDS - Math.max(0, left - 60)} s: ${n} minutes charged so far`);
  }
  const workerCpu = cpuSeconds(workerPid) - cpuBefore;
  const wall = (performance.now() - wallBefore) / 1000;
  const loadAfter = os.loadavg()[0];

  // The end: each seeker ends their reading.
  t = performance.now();
  const ended = await pool(readings, CONCURRENCY, async (r) => {
    const e = await r.seeker.post(`/api/instant-sessions/${r.id}/end`);
    if (e.status !== 200) throw new Error(`end: ${e.status} ${e.text}`);
    return e.body;
  });
  console.log(`ended: ${ended.length} readings (${((performance.now() - t) / 1000).toFixed(1)} s)`);

  // The figures.
  const one = async (sql, params = []) => (await db.query(sql, params)).rows[0];
  const billed = await one(
    `SELECT count(*)::int AS readings, sum(minutes_billed)::int AS billed,
            sum(greatest(0, minutes_billed - free_minutes))::int AS paid,
            sum(greatest(0, minutes_billed - free_minutes) * per_minute_rate_cents)::bigint AS cents
     FROM instant_sessions WHERE status = 'ended'`,
  );
  const charged = await one(
    `SELECT count(*)::int AS n, coalesce(-sum(amount_cents), 0)::bigint AS cents
     FROM wallet_entries WHERE kind = 'session_charge'`,
  );
  const duplicates = await one(
    `SELECT count(*)::int AS n FROM (
       SELECT 1 FROM wallet_entries WHERE kind = 'session_charge'
       GROUP BY instant_session_id, minute_index HAVING count(*) > 1) d`,
  );
  // Every minute after the free ones, up to the billed minutes, charged once (none missing, none extra).
  const gaps = await one(
    `SELECT count(*)::int AS n FROM instant_sessions s
     CROSS JOIN LATERAL generate_series(s.free_minutes, s.minutes_billed - 1) k
     WHERE s.status = 'ended'
       AND NOT EXISTS (SELECT 1 FROM wallet_entries e WHERE e.instant_session_id = s.id AND e.minute_index = k)`,
  );
  const ledger = await one(
    `SELECT count(*)::int AS wallets,
            count(*) FILTER (WHERE w.balance_cents <> coalesce(e.total, 0))::int AS mismatched
     FROM wallets w LEFT JOIN (SELECT user_id, sum(amount_cents) AS total FROM wallet_entries GROUP BY user_id) e
       ON e.user_id = w.user_id`,
  );
  // Lateness: each minute's task committed its charge (done_at) after the minute's start; a charge
  // entry's created_at is the minute's start by design, so the queue holds the time. Minutes that
  // started in the last 10 s before the end may have been charged by the end instead: left out.
  // `from`: the minute's start, or the task's run_at (the whole second at or after it: apalis schedules
  // in whole seconds, so up to 1 s of the first is by design).
  const lateness = async (column, from = "s.started_at + make_interval(mins => (p.job ->> 'minute')::int)") =>
    (
      await db.query(
        `SELECT extract(epoch FROM j.${column} - (${from})) * 1000 AS ms
         FROM apalis.jobs j
         CROSS JOIN LATERAL (SELECT convert_from(j.job, 'UTF8')::jsonb AS job) p
         JOIN instant_sessions s ON s.id = (p.job ->> 'instant_session_id')::uuid
         WHERE j.job_type = 'instant_session_charges' AND j.status = 'Done'
           AND s.started_at + make_interval(mins => (p.job ->> 'minute')::int) < s.ended_at - interval '10 seconds'`,
      )
    ).rows
      .map((r) => Number(r.ms))
      .sort((a, b) => a - b);
  const doneLateness = await lateness('done_at');
  const startLateness = await lateness('lock_at');
  const runAtLateness = await lateness('done_at', 'j.run_at');
  const {
    rows: [{ retried }],
  } = await db.query(
    "SELECT count(*) FILTER (WHERE attempts > 1)::int AS retried FROM apalis.jobs WHERE job_type = 'instant_session_charges'",
  );

  const summary = (xs) =>
    `p50 ${ms(percentile(xs, 50))}, p95 ${ms(percentile(xs, 95))}, p99 ${ms(percentile(xs, 99))}, max ${ms(xs.at(-1))} (${xs.length})`;
  console.log(`readings: ${billed.readings} ended`);
  console.log(
    `minutes: ${billed.billed} billed, ${billed.paid} paid after the free ones, ${charged.n} charged ` +
      `(${(Number(charged.cents) / 100).toFixed(2)} charged, ${(Number(billed.cents) / 100).toFixed(2)} owed); ` +
      `paid minutes not charged: ${gaps.n}`,
  );
  console.log(`minute-index duplicates: ${duplicates.n} (must be 0)`);
  console.log(
    `ledger: ${ledger.wallets - ledger.mismatched} of ${ledger.wallets} wallets' balances equal the sum of their entries`,
  );
  console.log(`charge lateness, the minute's task done after the minute's start: ${summary(doneLateness)}`);
  console.log(`  the task picked up after the minute's start: ${summary(startLateness)}`);
  console.log(`  the task done after its run_at (the whole second at or after the start): ${summary(runAtLateness)}`);
  console.log(`  charge tasks tried more than once: ${retried}`);
  console.log(
    `worker CPU: ${workerCpu.toFixed(1)} s over ${wall.toFixed(0)} s (${((100 * workerCpu) / wall).toFixed(1)}% of one core); ` +
      `load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}`,
  );

  const p99 = percentile(doneLateness, 99);
  const correct =
    billed.readings === READINGS &&
    duplicates.n === 0 &&
    gaps.n === 0 &&
    charged.n === billed.paid &&
    ledger.mismatched === 0 &&
    doneLateness.length > 0;
  const met = correct && p99 <= TARGET_P99_MS;
  const row = {
    figure: `Readings: ${READINGS} metered at once for ${SECONDS} s, one worker: the minute charge's lateness p99`,
    measured:
      `p99 ${ms(p99)} (p50 ${ms(percentile(doneLateness, 50))}, max ${ms(doneLateness.at(-1))}; ` +
      `${charged.n} minutes charged of ${billed.paid}, ${duplicates.n} duplicates, ${ledger.mismatched} ledgers off; ` +
      `worker ${((100 * workerCpu) / wall).toFixed(1)}% CPU)`,
    target: 'p99 ≤ 5 s, every paid minute charged once, every balance its ledger',
    health: null,
    met,
  };
  if (process.env.BENCH_RESULTS) appendFileSync(process.env.BENCH_RESULTS, JSON.stringify(row) + '\n');
  console.log(`${met ? 'met ' : 'MISS'}  ${row.figure}: ${row.measured} (target ${row.target})`);
} finally {
  for (const s of sockets) s.ws.close();
  await db.end();
  await stack.stop();
}

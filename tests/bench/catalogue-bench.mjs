// Catalogue, slots and reservations under load, measured with wrk against a running api on a
// database of 10,000 generated mentors (scripts/bench makes both), next to GET /api/health in
// the same run. Figures, not assertions.
//
//   node bench/catalogue-bench.mjs <baseUrl> <databaseUrl>
//   BENCH_SECONDS=10 (each row's duration)  BENCH_RESULTS=<file> (appends one JSON line per figure)
//   BENCH_CATALOGUE_ROWS=<regular expression> (only the rows whose figure matches, e.g. 'random|edit')
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { performance } from 'node:perf_hooks';
import pg from 'pg';

const [baseUrl, databaseUrl] = process.argv.slice(2);
if (!baseUrl || !databaseUrl) throw new Error('usage: node bench/catalogue-bench.mjs <baseUrl> <databaseUrl>');
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = 64;
// One load-generator thread: two of them compete with the api for the two cores and make a tail
// of their own (p99 510 ms instead of 4 ms on a cached listing, measured).
const THREADS = 1;
const LUA = path.join(path.dirname(fileURLToPath(import.meta.url)), 'wrk', 'requests.lua');
const work = mkdtempSync(path.join(tmpdir(), 'catalogue-bench-'));

/** Runs wrk over `requests` ([{ method, path, cookie, body }]) and returns its figures. */
async function wrk(name, requests, { connections = CONNECTIONS, seconds = SECONDS } = {}) {
  const file = path.join(work, `${name.replace(/[^a-z0-9]+/gi, '-')}.tsv`);
  writeFileSync(
    file,
    requests.map((r) => [r.method ?? 'GET', r.path, r.cookie ?? '', r.body ?? ''].join('\t')).join('\n') + '\n',
  );
  const threads = Math.min(THREADS, connections);
  const { stdout } = await promisify(execFile)(
    'wrk',
    ['-t', String(threads), '-c', String(connections), '-d', `${seconds}s`, '--timeout', '10s', '-s', LUA, baseUrl],
    {
      env: { ...process.env, WRK_REQUESTS: file, WRK_THREADS: String(threads), WRK_ORIGIN: baseUrl },
      maxBuffer: 1 << 20,
    },
  );
  const line = stdout.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (!line) throw new Error(`wrk printed no figures for ${name}:\n${stdout}`);
  const r = JSON.parse(line.slice('WRK_JSON '.length));
  const secs = r.durationUs / 1e6;
  return {
    ...r,
    rps: r.requests / secs,
    okPerSecond: r.ok / secs,
    p50: r.p50Us / 1000,
    p95: r.p95Us / 1000,
    p99: r.p99Us / 1000,
  };
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const ms = (v) => `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`;
let healthRps = NaN;
const want = (figure) => !process.env.BENCH_CATALOGUE_ROWS || new RegExp(process.env.BENCH_CATALOGUE_ROWS).test(figure);
const results = [];

function record(figure, measured, target, met) {
  const row = { figure, measured, target, health: `${fmt(healthRps)} req/s`, met };
  results.push(row);
  if (process.env.BENCH_RESULTS) appendFileSync(process.env.BENCH_RESULTS, JSON.stringify(row) + '\n');
  console.log(`${met === null ? 'info' : met ? 'met ' : 'MISS'}  ${figure}: ${measured} (target ${target})`);
}

function failures(r) {
  const bad = [r.serverErrors && `${r.serverErrors} 5xx`, r.socketErrors && `${r.socketErrors} socket errors`].filter(
    Boolean,
  );
  return bad.length ? `, ${bad.join(', ')}` : '';
}

/** A GET row: rate at 64 connections with p99, against a rate target (and optionally p99 and share of health). */
async function getRow(figure, paths, { minRps, maxP99, minShare }) {
  if (!want(figure)) return;
  const r = await wrk(
    figure,
    paths.map((p) => ({ path: p })),
  );
  const share = r.rps / healthRps;
  const met =
    r.rps >= minRps &&
    (maxP99 === undefined || r.p99 <= maxP99) &&
    (minShare === undefined || share >= minShare) &&
    !r.serverErrors &&
    !r.socketErrors &&
    !r.clientErrors;
  const target = [
    minRps && `≥ ${fmt(minRps)} req/s`,
    minShare && `≥ ${minShare * 100}% of health`,
    maxP99 && `p99 ≤ ${maxP99} ms`,
  ]
    .filter(Boolean)
    .join(', ');
  record(
    figure,
    `${fmt(r.rps)} req/s (${Math.round(share * 100)}% of health), p50 ${ms(r.p50)}, p99 ${ms(r.p99)}${failures(r)}`,
    target,
    met,
  );
}

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();

// --- /api/health: what the HTTP layer alone does in this run ---
{
  const r = await wrk('health', [{ path: '/api/health' }]);
  healthRps = r.rps;
  console.log(`GET /api/health at ${CONNECTIONS} connections: ${fmt(r.rps)} req/s, p99 ${ms(r.p99)}`);
}

// --- listings and searches ---
const LISTING = { minRps: 2000, minShare: 0.25, maxP99: 50 };
await getRow('GET /api/mentors (default order)', ['/api/mentors'], LISTING);
await getRow('GET /api/mentors?service=tarot', ['/api/mentors?service=tarot'], LISTING);
await getRow('GET /api/mentors?minPrice=20&maxPrice=60', ['/api/mentors?minPrice=20&maxPrice=60'], LISTING);
await getRow('GET /api/mentors?sort=price', ['/api/mentors?sort=price'], LISTING);
const SEARCH = { minRps: 1000, maxP99: 100 };
await getRow('GET /api/mentors?search=tarot reading (two words)', ['/api/mentors?search=tarot%20reading'], SEARCH);
await getRow('GET /api/mentors?search=astrolgy (a typo)', ['/api/mentors?search=astrolgy'], SEARCH);
await getRow(
  'GET /api/mentors?search=dream&service=mystical_practices',
  ['/api/mentors?search=dream&service=mystical_practices'],
  SEARCH,
);

// --- what the cache cannot answer: every request different (more than a run sends) ---
const UNCACHED = { minRps: 0, minShare: 0.5, maxP99: 50 };
const DISTINCT = 120_000;
const pick = (list) => list[Math.floor(Math.random() * list.length)];
if (want('random one')) {
  // Two words of the catalogue's vocabulary (every word of a listed mentor's search text) and a
  // random third word of 4 to 8 letters, which the typo tolerance looks up like any other.
  const { rows } = await db.query('SELECT word FROM search_words ORDER BY word');
  const vocabulary = rows.map((r) => r.word);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const randomWord = () =>
    Array.from({ length: 4 + Math.floor(Math.random() * 5) }, () => pick(letters.split(''))).join('');
  const searches = new Set();
  while (searches.size < DISTINCT) searches.add(`${pick(vocabulary)} ${pick(vocabulary)} ${randomWord()}`);
  const paths = [...searches].map((q) => `/api/mentors?search=${encodeURIComponent(q)}`);
  // How many of them list anyone (the third word must match too, typos included).
  let matching = 0;
  for (const p of paths.slice(0, 200)) if ((await (await fetch(baseUrl + p)).json()).total > 0) matching += 1;
  await getRow(
    `GET /api/mentors?search=… two catalogue words and a random one, never the same (${Math.round(matching / 2)}% match)`,
    paths,
    UNCACHED,
  );
}
if (want('random page')) {
  const services = [
    '',
    'astrology',
    'tarot',
    'energy_healing',
    'mystical_practices',
    'relationship_guidance',
    'meditation',
  ];
  const sorts = ['', 'rating', 'price', 'sessions'];
  const listings = new Set();
  while (listings.size < DISTINCT) {
    const q = new URLSearchParams();
    const service = pick(services);
    if (service) q.set('service', service);
    if (Math.random() < 0.5) q.set('minPrice', String(20 + Math.floor(Math.random() * 60)));
    if (Math.random() < 0.5) q.set('maxPrice', String(60 + Math.floor(Math.random() * 100)));
    if (Math.random() < 0.3) q.set('minRating', (3 + Math.floor(Math.random() * 20) / 10).toFixed(1));
    const sort = pick(sorts);
    if (sort) q.set('sort', sort);
    q.set('page', String(1 + Math.floor(Math.random() * 40)));
    listings.add(`/api/mentors?${q}`);
  }
  await getRow('GET /api/mentors with a random page and random filters, never the same', [...listings], UNCACHED);
}

// --- the default listing while mentors edit their profiles five times a second ---
if (want('while mentors edit')) {
  const EDITORS = 50;
  const { rows } = await db.query(
    `SELECT m.user_id FROM mentors m WHERE m.is_active AND m.from_price_cents IS NOT NULL
       AND m.display_name NOT LIKE 'Benchmark%' ORDER BY random() LIMIT $1`,
    [EDITORS],
  );
  const editors = rows.map((r) => ({ user: r.user_id, token: randomBytes(32).toString('base64url') }));
  await db.query(
    `INSERT INTO sessions (token_hash, user_id, expires_at) SELECT h, u, now() + interval '1 day' FROM unnest($1::bytea[], $2::uuid[]) AS t (h, u)`,
    [editors.map((e) => createHash('sha256').update(e.token).digest()), editors.map((e) => e.user)],
  );
  let editing = true;
  const statuses = {};
  const edits = (async () => {
    for (let n = 0; editing; n += 1) {
      const started = performance.now();
      const editor = pick(editors);
      const res = await fetch(`${baseUrl}/api/mentor/profile`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie: `sid=${editor.token}` },
        body: JSON.stringify({
          bio: `A reader of cards and stars, here since long ago; edit number ${n} of the benchmark.`,
        }),
      });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      await new Promise((r) => setTimeout(r, Math.max(0, 200 - (performance.now() - started))));
    }
  })();
  const r = await wrk('default listing while editing', [{ path: '/api/mentors' }]);
  editing = false;
  await edits;
  const done = Object.values(statuses).reduce((a, b) => a + b, 0);
  const share = r.rps / healthRps;
  record(
    'GET /api/mentors (default order) while mentors edit their profiles 5 times a second',
    `${fmt(r.rps)} req/s (${Math.round(share * 100)}% of health), p50 ${ms(r.p50)}, p99 ${ms(r.p99)}; ${done} edits (${Object.entries(
      statuses,
    )
      .map(([k, v]) => `${v}× ${k}`)
      .join(', ')})${failures(r)}`,
    '≥ 25% of health, p99 ≤ 50 ms',
    share >= 0.25 && r.p99 <= 50 && !r.serverErrors && !r.socketErrors && (statuses[200] ?? 0) === done,
  );
}

// --- mentor and service pages, 500 different ones in turn ---
{
  const { rows } = await db.query(
    `SELECT m.id AS mentor, (SELECT s.id FROM services s WHERE s.mentor_id = m.id AND s.is_active LIMIT 1) AS service
     FROM mentors m WHERE m.is_active AND m.from_price_cents IS NOT NULL ORDER BY m.id LIMIT 500`,
  );
  await getRow(
    'GET /api/mentors/{id} (500 mentors in turn)',
    rows.map((r) => `/api/mentors/${r.mentor}`),
    { minRps: 3000 },
  );
  await getRow(
    'GET /api/services/{id} (500 services in turn)',
    rows.map((r) => `/api/services/${r.service}`),
    { minRps: 3000 },
  );
}

// --- available-slots of a mentor whose 90-day calendar is full (scripts/bench writes it) ---
if (want('available-slots')) {
  const { rows } = await db.query(`SELECT m.id FROM mentors m WHERE m.display_name = 'Benchmark Calendar'`);
  if (!rows.length) throw new Error('the Benchmark Calendar mentor is missing: run scripts/bench');
  const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const paths = Array.from(
    { length: 89 },
    (_, i) => `/api/mentors/${rows[0].id}/available-slots?date=${day(i + 1)}&duration=30&timeZone=America/New_York`,
  );
  await getRow('available-slots, full 90-day calendar (89 days in turn)', paths, { minRps: 1500 });
  const one = await wrk(
    'slots one connection',
    paths.map((p) => ({ path: p })),
    { connections: 1 },
  );
  record(
    'available-slots at one connection',
    `p50 ${ms(one.p50)}, p99 ${ms(one.p99)}, ${fmt(one.rps)} req/s${failures(one)}`,
    'p99 ≤ 10 ms',
    one.p99 <= 10 && !one.serverErrors,
  );
}

// --- reservations: many signed-in seekers, each slot asked for once ---
if (want('reservations')) {
  const MENTORS = 12;
  const SEEKERS = 4000;
  const HOLDS_PER_SEEKER = 3; // the cap on live holds of one seeker
  const digest = (token) => createHash('sha256').update(token).digest();
  const seekers = Array.from({ length: SEEKERS }, (_, n) => ({
    id: randomUUID(),
    token: randomBytes(32).toString('base64url'),
    n,
  }));
  const mentors = Array.from({ length: MENTORS }, (_, n) => ({
    user: randomUUID(),
    id: randomUUID(),
    service: randomUUID(),
    n,
  }));
  await db.query(
    `INSERT INTO users (id, email, password_hash, first_name, last_name, email_verified)
     SELECT id, 'bench.seeker.' || n || '@bench.test', 'not-a-password-hash', 'Bench', 'Seeker ' || n, true
     FROM unnest($1::uuid[], $2::int[]) AS t (id, n)`,
    [seekers.map((s) => s.id), seekers.map((s) => s.n)],
  );
  await db.query(
    `INSERT INTO sessions (token_hash, user_id, expires_at) SELECT h, u, now() + interval '1 day' FROM unnest($1::bytea[], $2::uuid[]) AS t (h, u)`,
    [seekers.map((s) => digest(s.token)), seekers.map((s) => s.id)],
  );
  await db.query(
    `WITH u AS (INSERT INTO users (id, email, password_hash, first_name, last_name, email_verified)
                SELECT u, 'bench.open.' || n || '@bench.test', 'x', 'Bench', 'Open ' || n, true FROM unnest($1::uuid[], $4::int[]) AS t (u, n) RETURNING id),
          m AS (INSERT INTO mentors (id, user_id, display_name, bio, specialties, base_price_cents, time_zone, minimum_notice_minutes, approval_status)
                SELECT m, u, 'Benchmark Open ' || n, repeat('A mentor used by the reservation benchmark. ', 2), '{Astrology}', 2000, 'UTC', 0, 'approved'
                FROM unnest($2::uuid[], $1::uuid[], $4::int[]) AS t (m, u, n) RETURNING id),
          a AS (INSERT INTO availability_slots (mentor_id, day_of_week, start_minute, end_minute) SELECT m.id, d, 0, 1440 FROM m, generate_series(0, 6) d)
     INSERT INTO services (id, mentor_id, title, description, service_type, price_cents, duration_minutes)
     SELECT s, m, 'Half-hour reading', 'A thirty minute reading used by the benchmark.', 'astrology', 2000, 30 FROM unnest($3::uuid[], $2::uuid[]) AS t (s, m)`,
    [mentors.map((m) => m.user), mentors.map((m) => m.id), mentors.map((m) => m.service), mentors.map((m) => m.n)],
  );
  // Seeker k holds with mentors k, k+1 and k+2 (one live hold per mentor is the cap); every
  // mentor's half hours from tomorrow on are handed out in order, each once.
  const firstStart = Math.ceil((Date.now() + 86_400_000) / 1_800_000) * 1_800_000;
  const nextStart = mentors.map(() => firstStart);
  const requests = [];
  for (let round = 0; round < HOLDS_PER_SEEKER; round += 1) {
    for (const s of seekers) {
      const m = mentors[(s.n + round) % MENTORS];
      const at = new Date(nextStart[m.n]).toISOString();
      nextStart[m.n] += 1_800_000;
      requests.push({
        method: 'POST',
        path: '/api/reservations',
        cookie: `sid=${s.token}`,
        body: JSON.stringify({ serviceId: m.service, mentorId: m.id, scheduledAt: at, totalAmount: '20.00' }),
      });
    }
  }
  const r = await wrk('reservations', requests);
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM bookings WHERE mentor_id = ANY($1) AND status = 'reserved'`,
    [mentors.map((m) => m.id)],
  );
  record(
    'POST /api/reservations, distinct slots, 4,000 signed-in seekers',
    `${fmt(r.okPerSecond)} holds/s (${fmt(rows[0].n)} held, ${r.clientErrors} refused once the ${fmt(requests.length)} slots ran out), p99 ${ms(r.p99)}, ${r.serverErrors} 5xx`,
    '≥ 500/s, zero 5xx',
    r.okPerSecond >= 500 && r.serverErrors === 0 && r.socketErrors === 0,
  );
}

// --- freshness: a change made through one api process, seen by another process's next listing ---
if (process.env.API_BIN && want("A mentor's change seen")) {
  const port = Number(new URL(baseUrl).port) + 1;
  const other = spawn(process.env.API_BIN, ['serve'], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
  const otherUrl = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i += 1) {
      if ((await fetch(`${otherUrl}/api/health`).catch(() => null))?.ok) break;
      if (i > 200) throw new Error('the second api did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    const { rows } = await db.query(
      `SELECT m.id FROM mentors m WHERE m.is_active AND m.from_price_cents IS NOT NULL ORDER BY m.id LIMIT 1`,
    );
    const id = rows[0].id;
    const delays = [];
    for (let n = 0; n < 20; n += 1) {
      const name = `Freshness ${n} ${Date.now()}`;
      await fetch(`${otherUrl}/api/mentors/${id}`); // in the other process's memory now
      const t0 = performance.now();
      await db.query('UPDATE mentors SET display_name = $2 WHERE id = $1', [id, name]);
      while ((await (await fetch(`${otherUrl}/api/mentors/${id}`)).json()).displayName !== name)
        await new Promise((r) => setTimeout(r, 2));
      delays.push(performance.now() - t0);
    }
    delays.sort((a, b) => a - b);
    record(
      "A mentor's change seen by another api process's next request (20 changes)",
      `p50 ${ms(delays[10])}, max ${ms(delays.at(-1))}`,
      '≤ 1,000 ms',
      delays.at(-1) <= 1000,
    );
  } finally {
    other.kill('SIGTERM');
  }
}

await db.end();
console.log(
  `\n${results.filter((r) => r.met).length} of ${results.filter((r) => r.met !== null).length} catalogue and booking targets met`,
);

// Real-time figures (not a test): two `api serve` processes and a worker on a fresh database
// (tests/harness/stack.mjs), users seeded in SQL in pairs (a mentor and a seeker with one
// conversation, each with a session whose token the benchmark knows), then:
//   1. --clients WebSocket clients, half on each api process, every pair split across the two,
//      each sending one message per second for --seconds: delivery latency (send -> the peer's
//      messageReceived) and ack latency (send -> the sender's own messageReceived) p50/p95/p99,
//      and the CPU and RSS of each process (api, worker, the database's backends, this generator);
//   2. --idle authenticated connections that only stay open, all on the first api process: its
//      RSS before and with them.
//
//   node tests/bench/realtime-bench.mjs [--clients 2000] [--idle 10000] [--seconds 30]
//   node tests/bench/realtime-bench.mjs --clients 20 --idle 100 --seconds 3     # smoke run
//   node tests/bench/realtime-bench.mjs --clients 2000 --rate 2 --idle 0          # 4,000 messages/s
//   The backlog line tells a sustained rate from one the machine falls behind at: messages sent but
//   not yet delivered when sending stopped, and delivery p95 of the first and last third of the run.
//   more: --connect-concurrency 100, --drain-seconds 15, --synchronous-commit off (see parseArgs)
//
// The bus per process count (issue 37 §2): --matrix runs, for each bus of --buses and each count of
// --apis, that many api processes (each pair's two users on different processes) at --clients x --rate
// messages a second, and prints one table: delivery p95/p99 and the CPU each api process spends per
// message its own sockets received (acknowledgements and deliveries), mean and range over the processes,
// also with the relay thread's CPU aside (one process relays the whole cluster's events).
// --load-per-process offers --clients x --rate per two processes instead, so every process carries the
// same load at every count: what adding a process costs the others, apart from how busy each one is.
// --baseline-seconds N first measures each process idle (sockets open and joined, nothing sent) for N s
// and adds the CPU per message above that idle cost. At a low --rate, where every event is a wake-up of
// its own on every count, this is the marginal cost of a message, free of how busy the machine is
// (a busier process handles several events per wake-up and spends less per message).
//   node tests/bench/realtime-bench.mjs --matrix --clients 500 --rate 0.4 --seconds 60 --baseline-seconds 20
//   node tests/bench/realtime-bench.mjs --matrix --clients 1000 --rate 2 --seconds 20   # 2,000 messages/s
//   node tests/bench/realtime-bench.mjs --matrix --apis 2,3,4 --buses postgres,nats --clients 1000 --rate 2
// NATS runs in a private nats-server (tests/harness/nats.mjs, /usr/sbin/nats-server).
//
// Binaries as for the black-box tests (API_BIN / WORKER_BIN, else $CARGO_TARGET_DIR/debug/...);
// DATABASE_URL names the server. 10,000 idle sockets need `ulimit -n` above ~10,500 (this process
// and the api each hold one descriptor per socket; the api inherits this process's limit).
import { execFile } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs, promisify } from 'node:util';
import pg from 'pg';
import WebSocket from 'ws';
import { apiMetrics, metricValue } from '../harness/nats.mjs';
import { startStack } from '../harness/stack.mjs';

const { values: opts } = parseArgs({
  allowNegative: true,
  options: {
    clients: { type: 'string', default: '2000' },
    idle: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '30' },
    // Messages per second each client sends (2,000 clients at 2 offer 4,000 messages a second).
    rate: { type: 'string', default: '1' },
    // Connections opened at once while connecting (each one is a session lookup on the api).
    'connect-concurrency': { type: 'string', default: '100' },
    // How long to wait for messages still in flight once sending stops.
    'drain-seconds': { type: 'string', default: '15' },
    // 'off' sets synchronous_commit = off on the benchmark's database (then restarts the processes so
    // every pooled connection has it): what commits that wait for no disk flush would give.
    'synchronous-commit': { type: 'string', default: 'on' },
    matrix: { type: 'boolean', default: false },
    apis: { type: 'string', default: '2,3,4' },
    buses: { type: 'string', default: 'postgres,nats' },
    // --matrix: the offered load grows with the processes (--clients x --rate per two processes), so
    // each process carries the same share whatever their number.
    'load-per-process': { type: 'boolean', default: false },
    // --matrix: measure each api process's CPU over this many seconds with every socket open and
    // joined but nothing sent, and print the CPU per message above that idle cost as well.
    'baseline-seconds': { type: 'string', default: '0' },
  },
});
const CLIENTS = Number(opts.clients) - (Number(opts.clients) % 2);
const IDLE = opts.matrix ? 0 : Number(opts.idle);
const SECONDS = Number(opts.seconds);
const RATE = Number(opts.rate);
const INTERVAL_MS = 1000 / RATE;
const PER_CLIENT = Math.max(1, Math.round(SECONDS * RATE));
const CONNECT_CONCURRENCY = Number(opts['connect-concurrency']);
const DRAIN_MS = Number(opts['drain-seconds']) * 1000;
const PAIRS = CLIENTS / 2;
const BASELINE_SECONDS = Number(opts['baseline-seconds']);
const CLOCK_TICKS = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s on Linux
const SESSION_DAYS = 1;

const log = (...a) => console.error(...a);
const fmt = (n) => Math.round(n).toLocaleString('en-US');

/** A row of docs/figures.md's table (scripts/bench sets BENCH_RESULTS). */
function record(figure, measured, target, health, met) {
  const row = { figure, measured, target, health, met };
  if (process.env.BENCH_RESULTS) appendFileSync(process.env.BENCH_RESULTS, JSON.stringify(row) + '\n');
  console.log(`${met === null ? 'info' : met ? 'met ' : 'MISS'}  ${figure}: ${measured} (target ${target})`);
}

/** GET /api/health's rate on one api process for 3 s at 64 connections (wrk): the HTTP layer alone, this run. */
async function healthRate(baseUrl) {
  try {
    const { stdout } = await promisify(execFile)('wrk', ['-t', '2', '-c', '64', '-d', '3s', `${baseUrl}/api/health`]);
    return Number(stdout.match(/Requests\/sec:\s+([\d.]+)/)?.[1] ?? NaN);
  } catch {
    return NaN; // no wrk on this machine
  }
}

// ---------------------------------------------------------------------------------------------
// /proc figures

function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15)
}

/** CPU ticks of the threads of `pid` named `name` (the NATS bus's relay runs on "realtime-relay"). */
function threadTicks(pid, name) {
  let ticks = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      if (readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim() === name)
        ticks += cpuTicks(`${pid}/task/${tid}`);
    } catch {
      // the thread ended meanwhile
    }
  }
  return ticks;
}

/**
 * Starts metering the api processes `pids`: the returned function gives the CPU seconds each one
 * spent since, in all (`process`) and on its relay thread (`relay`).
 */
function apiCpuMeter(pids) {
  const processBefore = pids.map(cpuTicks);
  const relayBefore = pids.map((pid) => threadTicks(pid, 'realtime-relay'));
  return () => ({
    process: pids.map((pid, i) => (cpuTicks(pid) - processBefore[i]) / CLOCK_TICKS),
    relay: pids.map((pid, i) => (threadTicks(pid, 'realtime-relay') - relayBefore[i]) / CLOCK_TICKS),
  });
}

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** Nanoseconds the threads of `pid` have spent runnable but waiting for a CPU (a busy machine shows here). */
function runQueueWaitNs(pid) {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[1]);
    } catch {
      // a thread that ended
    }
  }
  return total;
}

const mb = (kb) => `${(kb / 1024).toFixed(1)} MB`;

/** CPU time of a group of processes between start() and stop(): percent of one core. */
function cpuMeter(pidsOf) {
  let t0;
  let before;
  const sum = (pids) =>
    pids.reduce((acc, pid) => {
      try {
        return acc + cpuTicks(pid);
      } catch {
        return acc; // a database backend that ended
      }
    }, 0);
  return {
    async start() {
      t0 = performance.now();
      before = new Map((await pidsOf()).map((pid) => [pid, sum([pid])]));
    },
    async stop() {
      const seconds = (performance.now() - t0) / 1000;
      let ticks = 0;
      for (const pid of await pidsOf()) ticks += sum([pid]) - (before.get(pid) ?? 0);
      return (ticks / CLOCK_TICKS / seconds) * 100;
    },
  };
}

function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const pct = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);
  return { n: sorted.length, p50: pct(50), p95: pct(95), p99: pct(99), max: sorted.at(-1) ?? NaN };
}

const ms = (v) => `${v.toFixed(1)} ms`;

// ---------------------------------------------------------------------------------------------
// Seeding: users, mentors, conversations and sessions straight into the database.

const tokenDigest = (token) => createHash('sha256').update(token).digest();
const newToken = () => randomBytes(32).toString('base64url');

async function insertUsers(db, count, label) {
  const users = Array.from({ length: count }, (_, i) => ({ id: randomUUID(), token: newToken(), n: i }));
  for (let i = 0; i < users.length; i += 5000) {
    const batch = users.slice(i, i + 5000);
    await db.query(
      `INSERT INTO users (id, email, password_hash, first_name, last_name, email_verified)
       SELECT id, $2 || '.' || n || '@bench.test', 'not-a-password-hash', 'Bench', $2 || ' ' || n, true
       FROM unnest($1::uuid[], $3::int[]) AS t (id, n)`,
      [batch.map((u) => u.id), label, batch.map((u) => u.n)],
    );
    await db.query(
      `INSERT INTO sessions (token_hash, user_id, expires_at)
       SELECT h, u, now() + make_interval(days => $3) FROM unnest($1::bytea[], $2::uuid[]) AS t (h, u)`,
      [batch.map((u) => tokenDigest(u.token)), batch.map((u) => u.id), SESSION_DAYS],
    );
  }
  return users;
}

/** Seeds `pairCount` pairs and IDLE idle users through the connected client `db`. */
async function seed(db, pairCount = PAIRS) {
  const mentors = await insertUsers(db, pairCount, 'mentor');
  const seekers = await insertUsers(db, pairCount, 'seeker');
  const mentorIds = mentors.map(() => randomUUID());
  const conversationIds = mentors.map(() => randomUUID());
  await db.query(
    `INSERT INTO mentors (id, user_id, display_name, bio, specialties, base_price_cents)
     SELECT m, u, 'Bench Mentor', repeat('A mentor made by the real-time benchmark. ', 2), '{Astrology}', 2000
     FROM unnest($1::uuid[], $2::uuid[]) AS t (m, u)`,
    [mentorIds, mentors.map((u) => u.id)],
  );
  await db.query(
    `INSERT INTO conversations (id, mentor_id, user_id)
     SELECT c, m, u FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS t (c, m, u)`,
    [conversationIds, mentorIds, seekers.map((u) => u.id)],
  );
  const idle = await insertUsers(db, IDLE, 'idle');
  const pairs = mentors.map((m, i) => ({ conversationId: conversationIds[i], a: m, b: seekers[i] }));
  return { pairs, idle };
}

// ---------------------------------------------------------------------------------------------
// WebSocket clients

/** Opens an authenticated socket; resolves once the server's `ready` frame arrives. */
function connect(baseUrl, origin, token, onFrame) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/ws`, {
      headers: { Cookie: `sid=${token}`, Origin: origin },
      perMessageDeflate: false,
      handshakeTimeout: 30_000,
    });
    let ready = false;
    ws.on('message', (raw) => {
      let frame;
      try {
        frame = JSON.parse(raw.toString());
      } catch {
        return;
      }
      if (!ready && frame.event === 'ready') {
        ready = true;
        resolve(ws);
        return;
      }
      onFrame?.(frame);
    });
    ws.on('unexpected-response', (_req, res) => reject(new Error(`upgrade answered ${res.statusCode}`)));
    ws.on('error', (e) => {
      if (!ready) reject(e);
    });
    ws.on('close', (code) => {
      if (!ready) reject(new Error(`closed (${code}) before ready`));
    });
  });
}

let upgradeRetries = 0;
/** connect(), trying again while the api answers the upgrade 503 (busy: its pool timed out). */
async function connectPatiently(...args) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await connect(...args);
    } catch (e) {
      if (!/answered 503/.test(e.message) || attempt >= 30) throw e;
      upgradeRetries += 1;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/** Runs `task(i)` for i in 0..count with at most `limit` at once; resolves to the results. */
async function inParallel(count, limit, task) {
  const results = new Array(count);
  let next = 0;
  async function lane() {
    while (next < count) {
      const i = next;
      next += 1;
      results[i] = await task(i);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, count) }, lane));
  return results;
}

function closeAll(sockets) {
  return Promise.all(
    sockets.map(
      (ws) =>
        new Promise((resolve) => {
          if (ws.readyState === WebSocket.CLOSED) return resolve();
          ws.once('close', resolve);
          ws.close();
          setTimeout(() => {
            ws.terminate();
            resolve();
          }, 5000).unref();
        }),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// --matrix: each bus at each number of api processes

/** One run of the matrix: `bus` with `apis` api processes and `pairCount` pairs; resolves to its row. */
async function matrixRun(bus, apis, pairCount = PAIRS) {
  const stack = await startStack({
    apis,
    nats: bus === 'nats',
    env: { RUST_LOG: process.env.RUST_LOG || 'warn', REALTIME_BUS: bus },
  });
  const origin = stack.env.APP_BASE_URL;
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  try {
    await db.connect();
    const { pairs } = await seed(db, pairCount);
    const sent = new Map(); // clientId -> { at, delivered }
    const delivery = [];
    const framesOn = new Array(apis).fill(0); // messageReceived frames each api process's sockets got
    const members = pairs.flatMap((p, i) => [
      { user: p.a, conversationId: p.conversationId, api: i % apis },
      { user: p.b, conversationId: p.conversationId, api: (i + 1) % apis },
    ]);
    const onFrame = (member) => (frame) => {
      if (frame.event !== 'messageReceived') return;
      framesOn[member.api] += 1;
      const entry = sent.get(frame.data.clientId);
      if (!entry || frame.data.senderId === member.user.id || entry.delivered) return;
      entry.delivered = true;
      delivery.push(performance.now() - entry.at);
    };
    const active = await inParallel(members.length, CONNECT_CONCURRENCY, (i) =>
      connectPatiently(stack.baseUrls[members[i].api], origin, members[i].user.token, onFrame(members[i])),
    );
    for (const [i, ws] of active.entries()) {
      ws.send(JSON.stringify({ event: 'joinConversation', data: { conversationId: members[i].conversationId } }));
    }
    await new Promise((r) => setTimeout(r, 1000));
    // Idle: what each process spends a second with these sockets open and nothing sent.
    let idlePerSecond = stack.apiPids.map(() => 0);
    let relayIdlePerSecond = stack.apiPids.map(() => 0);
    if (BASELINE_SECONDS > 0) {
      const idleCpu = apiCpuMeter(stack.apiPids);
      const t0 = performance.now();
      await new Promise((r) => setTimeout(r, BASELINE_SECONDS * 1000));
      const idleSeconds = (performance.now() - t0) / 1000;
      const idle = idleCpu();
      idlePerSecond = idle.process.map((c) => c / idleSeconds);
      relayIdlePerSecond = idle.relay.map((c) => c / idleSeconds);
    }
    framesOn.fill(0);
    const commits = async () => {
      const { rows } = await db.query(
        'SELECT xact_commit::float8 AS n FROM pg_stat_database WHERE datname = current_database()',
      );
      return rows[0].n;
    };
    const commitsBefore = await commits();
    // Events each process read from the bus: every process's through LISTEN, its own users' from NATS.
    const busReads = () =>
      Promise.all(
        stack.apiPids.map(async (_, i) => {
          const text = await apiMetrics(stack, i);
          return metricValue(text, 'realtime_notify_received_total') + metricValue(text, 'realtime_bus_received_total');
        }),
      );
    const readsBefore = await busReads();
    const runCpu = apiCpuMeter(stack.apiPids);
    const t = performance.now();
    await new Promise((resolve) => {
      let running = active.length;
      active.forEach((ws, i) => {
        let seq = 0;
        const tick = () => {
          if (ws.readyState !== WebSocket.OPEN || seq >= PER_CLIENT) {
            running -= 1;
            if (running === 0) resolve();
            return;
          }
          const clientId = `m${i}-${seq}`;
          seq += 1;
          sent.set(clientId, { at: performance.now(), delivered: false });
          ws.send(
            JSON.stringify({
              event: 'sendMessage',
              data: { conversationId: members[i].conversationId, content: `bench ${clientId}`, clientId },
            }),
          );
          setTimeout(tick, INTERVAL_MS);
        };
        setTimeout(tick, (INTERVAL_MS * i) / active.length);
      });
    });
    const drainUntil = performance.now() + DRAIN_MS;
    while (performance.now() < drainUntil && delivery.length < sent.size) await new Promise((r) => setTimeout(r, 100));
    const seconds = (performance.now() - t) / 1000;
    const { process: cpuSeconds, relay: relayThreadSeconds } = runCpu();
    const relaySeconds = relayThreadSeconds.reduce((a, b) => a + b, 0);
    // The statistics reach pg_stat_database within a second of each transaction.
    await new Promise((r) => setTimeout(r, 1500));
    const commitsPerMessage = ((await commits()) - commitsBefore) / sent.size;
    const readsPerMessage = (await busReads()).map((n, i) => (n - readsBefore[i]) / framesOn[i]);
    await closeAll(active);
    const d = percentiles(delivery);
    const perMessageUs = cpuSeconds.map((c, i) => (framesOn[i] ? (c / framesOn[i]) * 1e6 : NaN));
    // The relay carries the whole cluster's events on whichever process holds the lock: aside, each
    // process's figure is what its own sockets and subscriptions cost.
    const perMessageUsRelayAside = cpuSeconds.map((c, i) =>
      framesOn[i] ? ((c - relayThreadSeconds[i]) / framesOn[i]) * 1e6 : NaN,
    );
    // Above idle: the run's CPU less what the process spends idle over as long a time.
    const aboveIdleUsRelayAside = cpuSeconds.map((c, i) => {
      const work = c - relayThreadSeconds[i] - (idlePerSecond[i] - relayIdlePerSecond[i]) * seconds;
      return framesOn[i] ? (work / framesOn[i]) * 1e6 : NaN;
    });
    return {
      bus,
      apis,
      offered: pairCount * 2 * RATE,
      delivered: `${d.n}/${sent.size}`,
      p95: d.p95,
      p99: d.p99,
      perMessageUs,
      perMessageUsRelayAside,
      aboveIdleUsRelayAside,
      idlePercent: idlePerSecond.map((c) => c * 100),
      cpuPercent: cpuSeconds.map((c) => (c / seconds) * 100),
      relayUsPerMessage: (relaySeconds / sent.size) * 1e6,
      readsPerMessage,
      commitsPerMessage,
    };
  } finally {
    await db.end().catch(() => {});
    await stack.stop();
  }
}

if (opts.matrix) {
  const rows = [];
  for (const bus of opts.buses.split(',')) {
    for (const apis of opts.apis.split(',').map(Number)) {
      const pairCount = opts['load-per-process'] ? Math.round((PAIRS * apis) / 2) : PAIRS;
      log(`matrix: ${bus} bus, ${apis} api processes, ${pairCount * 2} clients x ${RATE}/s for ${SECONDS} s`);
      try {
        rows.push(await matrixRun(bus, apis, pairCount));
      } catch (e) {
        log(`matrix: ${bus} with ${apis} api processes failed: ${e.message}`);
        rows.push({ bus, apis, failed: e.message });
      }
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `\nReal-time bus by api processes: ${RATE} message/s per client, ${opts['load-per-process'] ? `${CLIENTS * RATE} messages/s offered per two processes` : `${CLIENTS} clients (${CLIENTS * RATE} messages/s offered)`} for ${SECONDS} s; ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`,
  );
  const baseline = BASELINE_SECONDS > 0;
  const columns = [
    'bus',
    'api processes',
    'offered',
    'delivered',
    'delivery p95',
    'delivery p99',
    'CPU per received message per api process, mean (range)',
    'the same, relay thread aside',
    ...(baseline ? ['the same, above idle (relay thread aside)', 'idle CPU of each api process'] : []),
    'CPU of each api process',
    'relay thread CPU per message, all processes',
    'database commits per message',
    'events read from the bus per received message, mean',
  ];
  console.log(`| ${columns.join(' | ')} |`);
  console.log(`|${columns.map(() => '---|').join('')}`);
  const spread = (us) => `${mean(us).toFixed(0)} µs (${Math.min(...us).toFixed(0)}–${Math.max(...us).toFixed(0)})`;
  const percents = (xs) => xs.map((c) => `${c.toFixed(c < 10 ? 1 : 0)} %`).join(', ');
  for (const r of rows) {
    if (r.failed) {
      console.log(`| ${r.bus} | ${r.apis} | | failed: ${r.failed} |${' |'.repeat(columns.length - 4)}`);
      continue;
    }
    const cells = [
      r.bus,
      r.apis,
      `${r.offered}/s`,
      r.delivered,
      ms(r.p95),
      ms(r.p99),
      spread(r.perMessageUs),
      spread(r.perMessageUsRelayAside),
      ...(baseline ? [spread(r.aboveIdleUsRelayAside), percents(r.idlePercent)] : []),
      percents(r.cpuPercent),
      r.bus === 'nats' ? `${r.relayUsPerMessage.toFixed(1)} µs` : '-',
      r.commitsPerMessage.toFixed(3),
      mean(r.readsPerMessage).toFixed(2),
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
  process.exit(0);
}

const stack = await startStack({ apis: 2, env: { RUST_LOG: process.env.RUST_LOG || 'warn' } });
const origin = stack.env.APP_BASE_URL; // every api serves the same site (as behind a load balancer)
try {
  log(`seeding ${PAIRS} pairs with conversations and ${IDLE} idle users in ${stack.databaseName}`);
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  let seeded;
  try {
    seeded = await seed(db);
    if (opts['synchronous-commit'] === 'off')
      await db.query(`ALTER DATABASE "${stack.databaseName}" SET synchronous_commit = off`);
  } finally {
    await db.end();
  }
  const { pairs, idle } = seeded;
  if (opts['synchronous-commit'] === 'off') {
    for (let i = 0; i < stack.baseUrls.length; i += 1) {
      await stack.stopApi(i);
      await stack.startApi(i);
    }
    await stack.stopWorker();
    await stack.startWorker();
    log('synchronous_commit = off on the benchmark database; processes restarted');
  }

  const probe = await fetch(`${stack.baseUrl}/api/auth/user`, { headers: { Cookie: `sid=${pairs[0].a.token}` } });
  if (probe.status !== 200)
    throw new Error(`a seeded session is not accepted: GET /api/auth/user answered ${probe.status}`);

  const sent = new Map(); // clientId -> { at, acked, delivered }
  const delivery = [];
  const ack = [];
  const errors = new Map();
  let duplicates = 0;

  function onFrame(me) {
    return (frame) => {
      if (frame.event === 'messageReceived') {
        const entry = sent.get(frame.data.clientId);
        if (!entry) return;
        const latency = performance.now() - entry.at;
        if (frame.data.senderId === me) {
          if (entry.acked) duplicates += 1;
          else ack.push(latency);
          entry.acked = true;
        } else {
          if (entry.delivered) duplicates += 1;
          else delivery.push(latency);
          entry.delivered = true;
          entry.deliveredAfter = latency;
        }
      } else if (frame.event === 'error') {
        const message = frame.data?.message ?? JSON.stringify(frame.data);
        errors.set(message, (errors.get(message) ?? 0) + 1);
      }
    };
  }

  // Each pair's mentor on api 0 and seeker on api 1: every delivery crosses processes.
  const members = pairs.flatMap((p, i) => [
    { user: p.a, conversationId: p.conversationId, api: 0, n: 2 * i },
    { user: p.b, conversationId: p.conversationId, api: 1, n: 2 * i + 1 },
  ]);
  log(`connecting ${CLIENTS} clients (${CONNECT_CONCURRENCY} at once)`);
  let t = performance.now();
  const active = await inParallel(members.length, CONNECT_CONCURRENCY, (i) =>
    connectPatiently(stack.baseUrls[members[i].api], origin, members[i].user.token, onFrame(members[i].user.id)),
  );
  const connectSeconds = (performance.now() - t) / 1000;
  for (const [i, ws] of active.entries()) {
    ws.send(JSON.stringify({ event: 'joinConversation', data: { conversationId: members[i].conversationId } }));
  }

  const dbPids = async () => {
    const c = new pg.Client({ connectionString: stack.databaseUrl });
    await c.connect();
    try {
      const r = await c.query(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      return r.rows.map((row) => row.pid);
    } finally {
      await c.end();
    }
  };
  const meters = [
    ...stack.apiPids.map((pid, i) => ({ name: `api ${i + 1}`, pid, cpu: cpuMeter(async () => [pid]) })),
    ...stack.workerPids.map((pid) => ({ name: 'worker', pid, cpu: cpuMeter(async () => [pid]) })),
    { name: 'PostgreSQL backends of the database', cpu: cpuMeter(dbPids) },
    { name: 'this load generator', pid: process.pid, cpu: cpuMeter(async () => [process.pid]) },
  ];

  // New database sessions during the run: a steady pool opens none; churn shows here.
  const dbSessions = async () => {
    const c = new pg.Client({ connectionString: stack.databaseUrl });
    await c.connect();
    try {
      return Number(
        (await c.query('SELECT sessions FROM pg_stat_database WHERE datname = current_database()')).rows[0].sessions,
      );
    } finally {
      await c.end();
    }
  };
  const sessionsBefore = await dbSessions();

  const health = await healthRate(stack.baseUrls[0]);
  const load = os.loadavg()[0];
  const healthCell = `${fmt(health)} req/s (load ${load.toFixed(1)})`;
  log(`sending: ${CLIENTS} clients x ${RATE} message/s for ${SECONDS} s`);
  for (const m of meters) await m.cpu.start();
  const waitBefore = meters.map((m) => (m.pid ? runQueueWaitNs(m.pid) : 0));
  t = performance.now();
  const timers = [];
  await new Promise((resolve) => {
    let running = active.length;
    active.forEach((ws, i) => {
      const { conversationId, n } = members[i];
      let seq = 0;
      const done = () => {
        running -= 1;
        if (running === 0) resolve();
      };
      const tick = () => {
        if (ws.readyState !== WebSocket.OPEN) return done();
        const clientId = `b${n}-${seq}`;
        seq += 1;
        sent.set(clientId, { at: performance.now(), acked: false, delivered: false, deliveredAfter: null });
        ws.send(
          JSON.stringify({
            event: 'sendMessage',
            data: { conversationId, content: `bench message ${clientId}`, messageType: 'text', clientId },
          }),
        );
        if (seq >= PER_CLIENT) return done();
        timers[i] = setTimeout(tick, INTERVAL_MS);
      };
      // Spread over the interval so the load is even rather than in bursts.
      timers[i] = setTimeout(tick, (INTERVAL_MS * i) / active.length);
    });
  });
  const sendSeconds = (performance.now() - t) / 1000;
  const sendStart = t;
  const backlogAtStop = sent.size - delivery.length;
  const drainUntil = performance.now() + DRAIN_MS;
  while (performance.now() < drainUntil && (delivery.length < sent.size || ack.length < sent.size)) {
    await new Promise((r) => setTimeout(r, 100));
  }
  const cpu = [];
  for (const m of meters) cpu.push(await m.cpu.stop());
  const mem = meters.map((m) => (m.pid ? memory(m.pid) : null));
  const waited = meters.map((m, i) => (m.pid ? (runQueueWaitNs(m.pid) - waitBefore[i]) / 1e9 : null));
  // Less the three this script opens meanwhile (two for the backends' CPU, one for this count).
  const sessionsOpened = Math.max(0, (await dbSessions()) - sessionsBefore - 3);
  const runSeconds = (performance.now() - t) / 1000;

  const d = percentiles(delivery);
  // Delivery latency by when the message was sent: a backlog that grows shows as a later third slower.
  const thirds = [[], [], []];
  for (const entry of sent.values()) {
    const third = Math.min(2, Math.floor(((entry.at - sendStart) / 1000 / sendSeconds) * 3));
    thirds[third].push(entry.deliveredAfter ?? Infinity);
  }
  const [first, , last] = thirds.map(percentiles);
  const a = percentiles(ack);
  console.log(
    `\nReal-time: ${CLIENTS} clients in ${PAIRS} conversations, 2 api processes, ${RATE} message/s each for ${SECONDS} s (${CLIENTS * RATE} messages/s offered)`,
  );
  if (opts['synchronous-commit'] === 'off') console.log('  synchronous_commit = off on the database');
  console.log(
    `  machine: ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (1, 5, 15 min)`,
  );
  console.log(`  GET /api/health on api 1 just before sending: ${healthCell}`);
  console.log(`  connected in ${connectSeconds.toFixed(1)} s (${(CLIENTS / connectSeconds).toFixed(0)} connections/s)`);
  console.log(
    `  sent ${sent.size} messages in ${sendSeconds.toFixed(1)} s (${(sent.size / sendSeconds).toFixed(0)}/s)`,
  );
  console.log(
    `  throughput: ${(d.n / runSeconds).toFixed(0)} deliveries/s over ${runSeconds.toFixed(1)} s (sending + drain)`,
  );
  console.log(
    `  delivered to the peer  ${d.n}/${sent.size}   p50 ${ms(d.p50)}  p95 ${ms(d.p95)}  p99 ${ms(d.p99)}  max ${ms(d.max)}`,
  );
  console.log(
    `  acknowledged (sender)  ${a.n}/${sent.size}   p50 ${ms(a.p50)}  p95 ${ms(a.p95)}  p99 ${ms(a.p99)}  max ${ms(a.max)}`,
  );
  console.log(
    `  backlog when sending stopped: ${backlogAtStop} messages (${((backlogAtStop / (CLIENTS * RATE)) * 1000).toFixed(0)} ms of the offered load); delivery p95 first third ${ms(first.p95)}, last third ${ms(last.p95)}: ${
      backlogAtStop <= CLIENTS * RATE && last.p95 <= Math.max(2 * first.p95, 200) ? 'sustained' : 'falling behind'
    }`,
  );
  if (duplicates) console.log(`  duplicate deliveries: ${duplicates}`);
  const sustained = backlogAtStop <= CLIENTS * RATE && last.p95 <= Math.max(2 * first.p95, 200) && d.n === sent.size;
  const offered = CLIENTS * RATE;
  if (RATE === 1) {
    record(
      `Chat: ${fmt(CLIENTS)} clients at 1 message/s, pairs split over two api processes`,
      `${fmt(d.n)} of ${fmt(sent.size)} delivered, p95 ${ms(d.p95)}, p99 ${ms(d.p99)} (acknowledged p99 ${ms(a.p99)})`,
      'every message delivered, p95 ≤ 50 ms, p99 ≤ 200 ms',
      healthCell,
      d.n === sent.size && d.p95 <= 50 && d.p99 <= 200,
    );
  }
  // The rate row comes from a run at more than one message a second per client (scripts/bench's second pass).
  if (RATE !== 1)
    record(
      `Chat: ${fmt(offered)} messages/s offered (${fmt(CLIENTS)} clients at ${RATE}/s) without a growing backlog`,
      `${sustained ? 'sustained' : 'falling behind'}: ${fmt(d.n / runSeconds)} deliveries/s, backlog at the end ${fmt(backlogAtStop)}, p95 ${ms(first.p95)} → ${ms(last.p95)}, p99 ${ms(d.p99)}`,
      '≥ 4,000 messages/s sustained',
      healthCell,
      sustained && offered >= 4000,
    );
  console.log(`  database connections opened during the run: ${sessionsOpened}`);
  for (const [message, count] of errors) console.log(`  error frames: ${count} x '${message}'`);
  console.log(
    `  CPU (percent of one core over ${runSeconds.toFixed(1)} s, sending + drain), RSS at the end, time runnable but waiting for a CPU (all threads):`,
  );
  meters.forEach((m, i) => {
    const rss = mem[i] ? `RSS ${mb(mem[i].rss).padStart(9)}  peak ${mb(mem[i].hwm).padStart(9)}` : '';
    const wait = waited[i] === null ? '' : `  waited for a CPU ${waited[i].toFixed(1)} s`;
    console.log(`    ${m.name.padEnd(36)} CPU ${cpu[i].toFixed(0).padStart(4)} %  ${rss}${wait}`);
  });

  await closeAll(active);

  // Idle connections on api 1 only, once the api has worked off what the active phase left behind
  // (no statement or transaction of the database in progress for 2 s, or 120 s at most).
  const apiPid = stack.apiPids[0];
  const busy = async () => {
    const c = new pg.Client({ connectionString: stack.databaseUrl });
    await c.connect();
    try {
      const r = await c.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
         AND state IN ('active', 'idle in transaction') AND query NOT ILIKE 'LISTEN%'`,
      );
      return r.rows[0].n;
    } finally {
      await c.end();
    }
  };
  for (let quiet = 0, deadline = performance.now() + 120_000; quiet < 4 && performance.now() < deadline;) {
    quiet = (await busy()) === 0 ? quiet + 1 : 0;
    await new Promise((r) => setTimeout(r, 500));
  }
  const before = memory(apiPid);
  log(`opening ${IDLE} idle authenticated connections on api 1`);
  t = performance.now();
  const idleSockets = await inParallel(IDLE, CONNECT_CONCURRENCY, (i) =>
    connectPatiently(stack.baseUrls[0], origin, idle[i].token),
  );
  const idleConnectSeconds = (performance.now() - t) / 1000;
  await new Promise((r) => setTimeout(r, 2000));
  const withIdle = memory(apiPid);
  const perConnection = IDLE ? ((withIdle.rss - before.rss) / IDLE).toFixed(1) : '-';
  console.log(
    `\nIdle: ${IDLE} authenticated connections on one api process (opened in ${idleConnectSeconds.toFixed(1)} s)`,
  );
  if (upgradeRetries) console.log(`  upgrades answered 503 and tried again: ${upgradeRetries}`);
  console.log(
    `  api 1 RSS before ${mb(before.rss)}, with them ${mb(withIdle.rss)} (${perConnection} kB per connection)`,
  );
  if (IDLE) {
    const above = (withIdle.rss - before.rss) / 1024;
    record(
      `Memory: ${fmt(IDLE)} idle authenticated sockets on one api process`,
      `${above.toFixed(1)} MB above its idle ${mb(before.rss)} (${perConnection} kB each)`,
      `≤ ${((IDLE * 12) / 1000).toFixed(0)} MB (≤ 12 kB each)`,
      '-',
      above * 1024 <= IDLE * 12,
    );
  }
  await closeAll(idleSockets);
} finally {
  await stack.stop();
}

// The chaos soak (issue 37 §4; not part of CI): through HAProxy of a running `scripts/cluster`, signed-in
// seekers browse, search, reserve, pay, cancel, chat and ring calls for SOAK_MINUTES (10), while this
// script SIGKILLs a random api every 30 s, a worker every minute, and once each NATS, the replica and
// the primary (an immediate stop: SIGQUIT to the postmaster, see below), each started again by the
// cluster's process keeper. Afterwards it checks, and prints:
//   - every charge the gateway approved matches exactly one approved payment, and every paid booking is
//     confirmed or refunded; no refund was paid twice;
//   - every acknowledged message is stored once and was delivered once to each recipient whose socket
//     was open throughout, and never twice to anyone;
//   - every job ran once, by its side effects' unique keys: each e-mail per kind and booking, each
//     notification per kind and booking, each charge and refund;
//   - the client-visible failures: only 502/503/504 from the proxy or connection resets, and only
//     during a kill (from the kill until the process answers again, plus a grace); none after;
//   - the share of requests that failed.
// Exit status 0 when every check holds, 1 otherwise. The figures also go to
// tests/artifacts/soak/result.json.
//
//   scripts/soak                                  # starts the cluster when none runs
//   (cd tests && node soak/cluster-soak.mjs)      # against the cluster scripts/cluster runs now
//
// Environment: SOAK_MINUTES (10), SOAK_SEEKERS (6: the demo seekers), SOAK_MENTORS (6: demo mentors
// who keep a socket open and answer), CLUSTER_ENV (../.data/cluster/run/cluster.env).
//
// Why the PostgreSQL servers get SIGQUIT and not SIGKILL: a postmaster killed outright leaves its
// backends holding the shared memory, and a new one refuses to start until they have gone; SIGQUIT is
// PostgreSQL's own immediate stop (`pg_ctl stop -m immediate`: no checkpoint, crash recovery at the
// next start), the nearest thing to a crash that the keeper can start again at once.
import { execFileSync } from 'node:child_process';
import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import PostalMime from 'postal-mime';
import { client } from '../harness/client.mjs';
import { connect } from '../harness/realtime.mjs';
import { until } from '../harness/wait.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');

/** Seconds between two kills of a random api process. */
export const API_KILL_EVERY_MS = 30_000;
/** Seconds between two kills of a random worker. */
export const WORKER_KILL_EVERY_MS = 60_000;
/** After a process answers again, failures still count as caused by its kill for this long (pools reconnect, HAProxy's checks need two successes). */
export const KILL_GRACE_MS = 5_000;
/** The primary's restart: clients' pools reconnect and HAProxy puts the apis back (health answers 503 meanwhile). */
export const PRIMARY_GRACE_MS = 15_000;
/** How long the settling phase waits for payments, refunds and jobs to finish after the load stops. */
export const SETTLE_TIMEOUT_MS = 240_000;
/** A recipient's socket open from this long before a message until this long after its acknowledgement must have delivered it. */
export const DELIVERY_WINDOW_MS = 3_000;

const minutes = Number(process.env.SOAK_MINUTES ?? 10);
const durationMs = minutes * 60_000;
const seekerCount = Number(process.env.SOAK_SEEKERS ?? 6);
const mentorCount = Number(process.env.SOAK_MENTORS ?? 6);

function readEnv(file) {
  const env = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Z_0-9]+)=(.*)$/.exec(line);
    if (m) env[m[1]] = m[2].replace(/^"(.*)"$/, '$1');
  }
  return env;
}
const envFile = process.env.CLUSTER_ENV ?? path.join(repo, '.data/cluster/run/cluster.env');
if (!existsSync(envFile)) {
  console.error(`no running cluster: ${envFile} is missing (start scripts/cluster, or run scripts/soak)`);
  process.exit(2);
}
const cluster = readEnv(envFile);
const base = cluster.CLUSTER_URL;
const db = new pg.Pool({ connectionString: cluster.DATABASE_URL, max: 4 });
db.on('error', () => {}); // the primary's restart drops idle connections: the pool makes new ones
const startedAt = new Date();
const t0 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1).padStart(6)} s]`, ...a);

// ---------------------------------------------------------------------------------------------
// Requests and their outcomes.

/** Every HTTP request: { at, what, status?, error? }. */
const outcomes = [];
/** Kill windows: { what, from, to } (to: when the process answered again, plus the grace). */
const windows = [];

function failureKind(o) {
  if (o.error) return o.error;
  if (o.status >= 500) return String(o.status);
  return null;
}

/** A request through the harness client, recorded; network errors become { error }. */
async function call(c, method, p, body, what = `${method} ${p.replace(/[0-9a-f-]{36}/g, '{id}').replace(/\?.*/, '')}`) {
  const at = Date.now();
  try {
    const r = await c.request(method, p, body);
    outcomes.push({ at, what, status: r.status });
    return r;
  } catch (e) {
    const code = e.cause?.code ?? e.code ?? e.message;
    outcomes.push({ at, what, error: code });
    return { status: 0, error: code, body: null };
  }
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = (list) => list[Math.floor(Math.random() * list.length)];

// ---------------------------------------------------------------------------------------------
// The people.

async function demoAccounts() {
  const seekers = await db.query(
    `SELECT u.id, u.email FROM users u WHERE u.email LIKE '%seeker@mystic-mentors.test' ORDER BY u.email LIMIT $1`,
    [seekerCount],
  );
  const mentors = await db.query(
    `SELECT u.id, u.email, m.id AS mentor_id FROM mentors m JOIN users u ON u.id = m.user_id
     WHERE u.email LIKE '%@mystic-mentors.test' AND m.approval_status = 'approved' ORDER BY u.email`,
  );
  return { seekers: seekers.rows, mentors: mentors.rows };
}

async function signIn(email, password) {
  const c = client(base);
  const r = await c.post('/api/login', { email, password });
  if (r.status !== 200) throw new Error(`login ${email}: ${r.status} ${JSON.stringify(r.body)}`);
  return c;
}

/**
 * A browser tab: one socket at a time through HAProxy, opened again whenever it closes. Keeps every
 * socket's life ({ socket, readyAt, closedAt }) for the delivery check.
 */
function tab(name, c, onFrame = () => {}) {
  const t = { name, c, lives: [], current: null, done: false };
  const open = async () => {
    const life = await until(
      `${name}'s socket`,
      async () => {
        if (t.done) return { closed: true };
        const socket = await connect({ baseUrl: base }, c.cookies.sid);
        return { socket, readyAt: Date.now(), closedAt: null };
      },
      300_000,
      500,
    );
    if (life.closed) return life;
    t.lives.push(life);
    life.socket.ws.on('message', (raw) => {
      try {
        onFrame(t, JSON.parse(raw.toString()), life);
      } catch {
        // not JSON: nothing to answer
      }
    });
    life.socket.closed.then(() => {
      life.closedAt = Date.now();
      if (!t.done) reopen();
    });
    return life;
  };
  const reopen = () => {
    t.current = open();
    t.current.catch(() => {});
  };
  reopen();
  t.close = async () => {
    t.done = true;
    const life = await t.current.catch(() => null);
    await life?.socket?.close();
  };
  return t;
}

// ---------------------------------------------------------------------------------------------
// What the seekers do.

const stats = {
  browse: 0,
  reserved: 0,
  paid: 0,
  payUnknown: 0,
  cancelled: 0,
  slotTaken: 0,
  messagesAcked: 0,
  messagesResent: 0,
  ringsPlaced: 0,
  ringsAnswered: 0,
  ringsRefused: 0,
};
/** clientId -> { id, conversationId, senderId, recipientId, sentAt, ackedAt } */
const acked = new Map();
/** Every socket's received messageReceived frames: recipient user id -> [{ id, at, life }] */
const receivedBy = new Map();

async function browse(c, mentors) {
  const terms = ['tarot', 'astrology', 'meditation', 'energy', 'luna', 'love', 'dream'];
  const step = Math.floor(Math.random() * 5);
  if (step === 0) await call(c, 'GET', `/api/mentors?page=${1 + Math.floor(Math.random() * 3)}`);
  if (step === 1) await call(c, 'GET', `/api/mentors?search=${pick(terms)}`);
  if (step === 2) await call(c, 'GET', `/api/mentors/${pick(mentors).mentor_id}`);
  if (step === 3) await call(c, 'GET', `/api/mentors/${pick(mentors).mentor_id}/reviews`);
  if (step === 4) await call(c, 'GET', '/api/highlights');
  stats.browse += 1;
}

/** `seeker|mentor|time` of every hold the soak made. */
const bookedBefore = new Set();

const CARD = { cardNumber: '4111111111111111', expirationDate: '1230', cardCode: '123' };

/** Finds a free time 3-40 days ahead with a random mentor, holds it, pays, and cancels half the time. */
async function bookOnce(c, seeker, mentors) {
  const mentor = pick(mentors);
  const m = await call(c, 'GET', `/api/mentors/${mentor.mentor_id}`);
  if (m.status !== 200) return;
  const service = (m.body.services ?? []).find((s) => !s.isGroupSession && Number(s.price) > 0);
  if (!service) return;
  const when = new Date(Date.now() + (3 + Math.floor(Math.random() * 35)) * 86_400_000);
  const month = when.toISOString().slice(0, 7);
  const days = await call(
    c,
    'GET',
    `/api/mentors/${mentor.mentor_id}/available-days?month=${month}&duration=${service.duration}&timeZone=UTC`,
  );
  const later = (days.body?.days ?? []).filter((d) => Date.parse(`${d}T00:00:00Z`) > Date.now() + 2 * 86_400_000);
  if (!later.length) return;
  const date = pick(later);
  const slots = await call(
    c,
    'GET',
    `/api/mentors/${mentor.mentor_id}/available-slots?date=${date}&duration=${service.duration}&timeZone=UTC`,
  );
  if (!Array.isArray(slots.body) || !slots.body.length) return;
  // Never the same seeker, mentor and time twice (a time booked and cancelled is free again): the
  // checks tell two bookings apart by their e-mails' and notifications' texts.
  const fresh = slots.body.filter((time) => !bookedBefore.has(`${seeker.id}|${mentor.mentor_id}|${date}T${time}`));
  if (!fresh.length) return;
  const time = pick(fresh);
  bookedBefore.add(`${seeker.id}|${mentor.mentor_id}|${date}T${time}`);
  const scheduledAt = `${date}T${time}:00Z`;
  const r = await call(c, 'POST', '/api/reservations', {
    serviceId: service.id,
    mentorId: mentor.mentor_id,
    scheduledAt,
    totalAmount: service.price,
  });
  if (r.status === 409) {
    stats.slotTaken += 1;
    // A hold of ours left by an earlier unknown outcome: release them all and go on.
    const mine = await call(c, 'GET', '/api/user/reservations');
    for (const h of Array.isArray(mine.body) ? mine.body : []) await call(c, 'DELETE', `/api/reservations/${h.id}`);
    return;
  }
  if (r.status !== 201 || !r.body?.reservation) return;
  stats.reserved += 1;
  const id = r.body.reservation.id;
  let bookingId = null;
  // An unknown outcome (the api died under the request) is asked again, as a person would press Pay
  // again: the second answer is the first charge's, or the hold is still there to pay.
  for (let attempt = 0; attempt < 4 && !bookingId; attempt += 1) {
    const p = await call(c, 'POST', '/api/process-payment-v2', {
      reservationId: id,
      ...CARD,
      billingInfo: { firstName: 'Soak', lastName: 'Seeker', zip: '10001' },
    });
    if (p.status === 200 && p.body?.success) bookingId = p.body.booking?.id ?? id;
    else if (p.status === 0 || p.status >= 500) {
      stats.payUnknown += 1;
      await pause(2_000);
    } else break; // a decline or a 409 (paid already, in progress): the checks read the outcome
  }
  if (!bookingId) return;
  stats.paid += 1;
  if (Math.random() < 0.5) {
    const x = await call(c, 'PUT', `/api/user/bookings/${bookingId}/cancel`, {
      reason: 'The soak cancels half of what it books.',
      acknowledgePolicy: true,
    });
    if (x.status === 200) stats.cancelled += 1;
  }
}

async function ensureConversation(c, mentorId) {
  for (;;) {
    const r = await call(c, 'POST', '/api/conversations', { mentorId });
    if (r.status === 200 || r.status === 201) return r.body.id;
    await pause(1_000);
  }
}

/** Sends one message over the tab's socket, again on the next socket when it closes first. */
async function sendMessage(t, conversationId, recipientId, clientId) {
  const sentAt = Date.now();
  for (let tries = 0; tries < 20; tries += 1) {
    const life = await t.current;
    if (!life?.socket) return;
    const { socket } = life;
    const ack = socket.next('messageReceived', (d) => d.clientId === clientId, 20_000);
    ack.catch(() => {});
    socket.send('sendMessage', { conversationId, content: `Soak message ${clientId}`, clientId });
    const r = await Promise.race([ack.then((d) => ({ d })), socket.closed.then(() => ({ closed: true }))]).catch(
      () => ({ timeout: true }),
    );
    if (r.d) {
      acked.set(clientId, { id: r.d.id, conversationId, recipientId, sentAt, ackedAt: Date.now() });
      stats.messagesAcked += 1;
      return;
    }
    stats.messagesResent += 1;
    if (r.closed) await until('a new socket', async () => (await t.current)?.socket !== socket, 300_000, 100);
  }
}

/** Rings the mentor of a conversation; the mentor's tab rejects or answers and ends it. */
async function ring(t, conversationId) {
  const life = await t.current;
  if (!life?.socket) return;
  const { socket } = life;
  stats.ringsPlaced += 1;
  const started = socket.next('callInitiated', (d) => d.conversationId === conversationId, 10_000);
  const refused = socket.next('error', (d) => d.event === 'initiateCall', 10_000);
  started.catch(() => {});
  refused.catch(() => {});
  socket.send('initiateCall', { conversationId });
  const r = await Promise.race([started.then((d) => ({ d })), refused.then((e) => ({ e }))]).catch(() => ({}));
  if (!r.d) {
    stats.ringsRefused += 1;
    return;
  }
  const over = await Promise.race([
    socket.next('callRejected', (d) => d.callId === r.d.callId, 15_000).then(() => true),
    socket.next('callAccepted', (d) => d.callId === r.d.callId, 15_000).then(() => true),
    socket.next('callEnded', (d) => d.callId === r.d.callId, 15_000).then(() => true),
  ]).catch(() => false);
  if (over) stats.ringsAnswered += 1;
  socket.send('endCall', { callId: r.d.callId });
}

// ---------------------------------------------------------------------------------------------
// The chaos.

function pidOf(name) {
  try {
    return Number(readFileSync(path.join(cluster.CLUSTER_RUN, `${name}.pid`), 'utf8').trim());
  } catch {
    return null;
  }
}
function postmasterPid(data) {
  try {
    return Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

async function answers(url) {
  try {
    const r = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return r.ok;
  } catch {
    return false;
  }
}
function pgReady(url) {
  try {
    execFileSync('psql', [url, '-XAtqc', 'SELECT 1'], { stdio: 'ignore', timeout: 3_000 });
    return true;
  } catch {
    return false;
  }
}

const kills = [];

/** Kills `name` (its pid file) with `signal`, waits until the keeper's new process answers `ready()`. */
async function kill(what, { pid, signal = 'SIGKILL', ready, grace = KILL_GRACE_MS, newPid }) {
  const from = Date.now();
  if (!pid) {
    log(`(no pid for ${what}: skipped)`);
    return;
  }
  try {
    process.kill(pid, signal);
  } catch (e) {
    log(`(${what} pid ${pid}: ${e.code})`);
    return;
  }
  const window = { what, from, to: Infinity };
  windows.push(window);
  await until(`${what} to come back`, async () => (newPid() && newPid() !== pid ? ready() : false), 180_000, 200);
  const back = Date.now();
  window.to = back + grace;
  kills.push({ what, signal, downMs: back - from });
  log(`killed ${what} (${signal}); back after ${((back - from) / 1000).toFixed(1)} s`);
}

function killApi() {
  const i = 1 + Math.floor(Math.random() * Number(cluster.APIS));
  const port = cluster.API_PORTS.split(' ')[i - 1];
  return kill(`api${i}`, {
    pid: pidOf(`api${i}`),
    newPid: () => pidOf(`api${i}`),
    ready: () => answers(`http://127.0.0.1:${port}/api/health`),
    // HAProxy takes it back after two good checks a second apart.
    grace: KILL_GRACE_MS,
  });
}
function killWorker() {
  const i = 1 + Math.floor(Math.random() * Number(cluster.WORKERS));
  const addr = cluster.WORKER_METRICS.split(' ')[i - 1];
  return kill(`worker${i}`, {
    pid: pidOf(`worker${i}`),
    newPid: () => pidOf(`worker${i}`),
    ready: () => answers(`http://${addr}/metrics`),
  });
}
function killNats() {
  return kill('nats', {
    pid: pidOf('nats'),
    newPid: () => pidOf('nats'),
    ready: () => answers(`${cluster.NATS_MONITOR_URL}/healthz`),
  });
}
function killReplica() {
  return kill('the replica', {
    pid: postmasterPid(cluster.REPLICA_DATA),
    signal: 'SIGQUIT',
    newPid: () => postmasterPid(cluster.REPLICA_DATA),
    ready: () => pgReady(cluster.DATABASE_READ_URL),
  });
}
function killPrimary() {
  return kill('the primary', {
    pid: postmasterPid(cluster.PRIMARY_DATA),
    signal: 'SIGQUIT',
    newPid: () => postmasterPid(cluster.PRIMARY_DATA),
    ready: () => pgReady(cluster.DATABASE_URL),
    grace: PRIMARY_GRACE_MS,
  });
}

async function chaos(until) {
  // The once-only kills at fixed points of the run; apis every 30 s and workers every minute.
  const once = [
    { at: 0.3, run: killNats },
    { at: 0.5, run: killReplica },
    { at: 0.7, run: killPrimary },
  ];
  let nextApi = t0 + API_KILL_EVERY_MS;
  let nextWorker = t0 + WORKER_KILL_EVERY_MS - 15_000;
  while (Date.now() < until) {
    const now = Date.now();
    const due = once.find((o) => !o.done && now >= t0 + o.at * durationMs);
    if (due) {
      due.done = true;
      await due.run();
    } else if (now >= nextApi) {
      nextApi += API_KILL_EVERY_MS;
      await killApi();
    } else if (now >= nextWorker) {
      nextWorker += WORKER_KILL_EVERY_MS;
      await killWorker();
    } else await pause(250);
  }
}

// ---------------------------------------------------------------------------------------------
// The checks.

async function settle() {
  // Payments whose answer was lost are reconciled by the worker, refunds paid by it: wait for both.
  await until(
    'payments and refunds to settle',
    async () => {
      const r = await db.query(
        `SELECT (SELECT count(*) FROM payments WHERE status = 'processing' AND created_at >= $1)::int AS processing,
                (SELECT count(*) FROM refunds WHERE status = 'pending' AND created_at >= $1)::int AS pending`,
        [startedAt],
      );
      return r.rows[0].processing === 0 && r.rows[0].pending === 0;
    },
    SETTLE_TIMEOUT_MS,
    1_000,
  ).catch((e) => log(`settling: ${e.message}`));
  // The mail of the last bookings: the jobs that write it are due at once.
  await until(
    'the mail queue to drain',
    async () => {
      const r = await db.query(
        `SELECT count(*)::int AS n FROM apalis.jobs WHERE status IN ('Pending', 'Queued', 'Running') AND run_at <= now()`,
      );
      return r.rows[0].n === 0;
    },
    60_000,
    1_000,
  ).catch((e) => log(`jobs: ${e.message}`));
}

async function checks() {
  const results = [];
  const check = (name, ok, detail) => results.push({ name, ok, detail });
  const since = [startedAt];

  // Charges: each one the gateway approved has exactly one approved payment with its reference.
  const charges = await db.query(
    `SELECT t.reference, t.amount_cents,
            (SELECT count(*) FROM payments p WHERE p.reference = t.reference AND p.status = 'approved')::int AS payments
     FROM test_gateway.transactions t
     WHERE t.kind = 'charge' AND t.transaction_id IS NOT NULL AND t.created_at BETWEEN $1 AND now()`,
    since,
  );
  const badCharges = charges.rows.filter((r) => r.payments !== 1);
  check('every approved charge matches exactly one payment', badCharges.length === 0, {
    charges: charges.rows.length,
    unmatched: badCharges.slice(0, 10),
  });

  // Paid bookings: confirmed, or cancelled with its refund paid (or owed nothing).
  const paid = await db.query(
    `SELECT b.id, b.status, r.status AS refund, r.amount_cents AS refunded, p.amount_cents AS charged
     FROM payments p JOIN bookings b ON b.id = p.booking_id LEFT JOIN refunds r ON r.booking_id = b.id
     WHERE p.status = 'approved' AND p.created_at BETWEEN $1 AND now() AND p.reference NOT LIKE 'seed%'`,
    since,
  );
  const badPaid = paid.rows.filter(
    (r) =>
      !(
        (r.status === 'confirmed' && r.refund === null) ||
        (r.status === 'cancelled' && (r.refund === 'succeeded' || r.refund === 'not_needed'))
      ),
  );
  check('every paid booking is confirmed or refunded', badPaid.length === 0, {
    paid: paid.rows.length,
    confirmed: paid.rows.filter((r) => r.status === 'confirmed').length,
    refunded: paid.rows.filter((r) => r.refund === 'succeeded').length,
    otherwise: badPaid.slice(0, 10),
  });

  // Refunds: one gateway refund per refund row at most, never more than the charge.
  const refunds = await db.query(
    `SELECT r.id, r.booking_id, r.amount_cents, p.amount_cents AS charged,
            (SELECT count(*) FROM test_gateway.transactions t
              WHERE t.kind = 'refund' AND t.reference = left(replace(r.id::text, '-', ''), 20))::int AS at_gateway
     FROM refunds r LEFT JOIN payments p ON p.id = r.payment_id WHERE r.created_at BETWEEN $1 AND now()`,
    since,
  );
  const perBooking = await db.query(
    `SELECT booking_id, count(*)::int AS n FROM refunds WHERE created_at BETWEEN $1 AND now() GROUP BY 1 HAVING count(*) > 1`,
    since,
  );
  const badRefunds = refunds.rows.filter(
    (r) => r.at_gateway > 1 || (r.charged !== null && Number(r.amount_cents) > Number(r.charged)),
  );
  check('no refund paid twice', badRefunds.length === 0 && perBooking.rows.length === 0, {
    refunds: refunds.rows.length,
    paidAtGateway: refunds.rows.filter((r) => r.at_gateway === 1).length,
    twice: [...badRefunds, ...perBooking.rows].slice(0, 10),
  });

  // Messages: each acknowledged one stored once, under its client id.
  const ids = [...acked.keys()];
  const stored = await db.query(
    `SELECT client_id, count(*)::int AS n FROM messages WHERE client_id = ANY($1) GROUP BY 1`,
    [ids],
  );
  const storedOnce = new Map(stored.rows.map((r) => [r.client_id, r.n]));
  const notOnce = ids.filter((id) => storedOnce.get(id) !== 1);
  check('every acknowledged message is stored once', notOnce.length === 0, {
    acknowledged: ids.length,
    notStoredOnce: notOnce.slice(0, 10),
  });

  // Delivery: never twice on one connection; to every recipient whose socket was open from before the
  // send until after the acknowledgement (plus a margin), exactly once. The bus delivers at least once
  // across processes: a recipient whose socket moved to another api process while NATS was away may
  // get an event again on the new socket (the relay publishes again what NATS did not confirm, and the
  // new process has not seen it). Clients keep messages by id, so the person sees it once; those
  // copies are counted, not failed.
  let due = 0;
  let missed = 0;
  let twice = 0;
  let againOnNewSocket = 0;
  for (const [clientId, m] of acked) {
    const got = (receivedBy.get(m.recipientId) ?? []).filter((r) => r.id === m.id);
    const lives = new Set(got.map((r) => r.life));
    if (got.length > lives.size) {
      twice += 1;
      if (twice <= 5) log(`twice on one socket: ${clientId}`);
    } else if (lives.size > 1) {
      againOnNewSocket += 1;
      if (againOnNewSocket <= 5) {
        const when = got.map((r) => `${((r.at - startedAt) / 1000).toFixed(1)} s`).join(', ');
        log(`again on a new socket after a reconnect: ${clientId} (received at ${when})`);
      }
    }
    const tabOf = recipientTabs.get(m.recipientId);
    const open = tabOf?.lives.some(
      (l) => l.readyAt <= m.sentAt - DELIVERY_WINDOW_MS && (l.closedAt ?? Infinity) >= m.ackedAt + DELIVERY_WINDOW_MS,
    );
    if (open) {
      due += 1;
      if (got.length === 0) {
        missed += 1;
        if (missed <= 5) log(`not delivered: ${clientId}`);
      }
    }
  }
  check('every message delivered once to each connected recipient', missed === 0 && twice === 0, {
    dueLive: due,
    missed,
    deliveredTwiceOnOneSocket: twice,
    deliveredAgainOnANewSocket: againOnNewSocket,
  });

  // Side effects of jobs, by their unique keys.
  // A notification names its booking by its text (the service, the mentor, the time).
  const notif = await db.query(
    `SELECT user_id, type, message, count(*)::int AS n FROM notifications
     WHERE created_at BETWEEN $1 AND now()
       AND type IN ('booking_confirmed', 'booking_cancelled', 'payment_received', 'payment_failed')
     GROUP BY 1, 2, 3 HAVING count(*) > 1`,
    since,
  );
  const mails = await mailSince(startedAt);
  // A mail names its kind (the subject) and its booking (the text: service, mentor, time); one-time
  // tokens in links differ between two sends of the same mail, so they are left out of the key.
  const byKey = new Map();
  for (const m of mails) {
    const key = `${m.to}|${m.subject}|${m.text.replace(/token=[^\s&]+/g, 'token')}`;
    byKey.set(key, (byKey.get(key) ?? 0) + 1);
  }
  const dupMails = [...byKey].filter(([, n]) => n > 1);
  check(
    'every job ran once (e-mails, notifications per kind and booking)',
    dupMails.length === 0 && notif.rows.length === 0,
    {
      mails: mails.length,
      distinct: byKey.size,
      duplicateMails: dupMails.slice(0, 10),
      duplicateNotifications: notif.rows.slice(0, 10),
    },
  );

  // Failures: only the proxy's 502/503/504 or a reset, only inside a kill's window.
  const tolerated = new Set(['502', '503', '504', 'ECONNRESET', 'UND_ERR_SOCKET', 'ECONNREFUSED', 'fetch failed']);
  const failed = outcomes.filter((o) => failureKind(o));
  const inWindow = (o) => windows.some((w) => o.at >= w.from - 1_000 && o.at <= w.to);
  const outside = failed.filter((o) => !inWindow(o));
  const wrongKind = failed.filter((o) => !tolerated.has(failureKind(o)));
  const lastWindowEnd = Math.max(0, ...windows.map((w) => w.to));
  const afterAll = failed.filter((o) => o.at > lastWindowEnd);
  const kinds = {};
  for (const o of failed) kinds[failureKind(o)] = (kinds[failureKind(o)] ?? 0) + 1;
  check(
    'client errors only 502/503/504 or resets, only during kills, none after',
    outside.length === 0 && wrongKind.length === 0,
    {
      failedByKind: kinds,
      outsideKills: outside.slice(0, 10),
      ofAnotherKind: wrongKind.slice(0, 10),
      afterTheLastKill: afterAll.length,
    },
  );
  return results;
}

async function mailSince(since) {
  const dir = cluster.MAIL_DIR;
  const out = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).mtimeMs < since.getTime()) continue;
    const m = await PostalMime.parse(readFileSync(file));
    out.push({ to: (m.to ?? []).map((a) => a.address).join(','), subject: m.subject ?? '', text: m.text ?? '' });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

const recipientTabs = new Map();

async function main() {
  log(`soak: ${minutes} min through ${base} (${cluster.APIS} apis, ${cluster.WORKERS} workers)`);
  const { seekers, mentors } = await demoAccounts();
  if (!seekers.length || !mentors.length) throw new Error('no demo accounts: was the cluster seeded?');
  const answering = mentors.slice(0, mentorCount);

  // The mentors who keep a socket open: they receive messages and answer rings.
  const mentorTabs = [];
  for (const m of answering) {
    const c = await signIn(m.email, 'mentor-password');
    const t = tab(m.email, c, (tb, frame, life) => {
      if (frame.event === 'messageReceived' && frame.data.senderId !== m.id) {
        const list = receivedBy.get(m.id) ?? [];
        list.push({ id: frame.data.id, at: Date.now(), life });
        receivedBy.set(m.id, list);
      }
      if (frame.event === 'incomingCall') {
        // Answer half, turn down the rest; an answered call ends after a moment.
        if (Math.random() < 0.5) life.socket.send('rejectCall', { callId: frame.data.callId });
        else {
          life.socket.send('acceptCall', { callId: frame.data.callId });
          setTimeout(() => life.socket.send('endCall', { callId: frame.data.callId }), 1_000).unref();
        }
      }
    });
    mentorTabs.push(t);
    recipientTabs.set(m.id, t);
  }

  const seekerClients = [];
  for (const s of seekers) {
    const c = await signIn(s.email, 'seeker-password');
    // Old holds of an earlier run: released, so that the hold limits leave room.
    const mine = await c.get('/api/user/reservations');
    for (const h of Array.isArray(mine.body) ? mine.body : []) await c.delete(`/api/reservations/${h.id}`);
    const partner = answering[seekerClients.length % answering.length];
    const conversationId = await ensureConversation(c, partner.mentor_id);
    seekerClients.push({ s, c, partner, conversationId, t: tab(s.email, c) });
  }
  await Promise.all([...mentorTabs, ...seekerClients.map((x) => x.t)].map((t) => t.current));
  log(`${seekerClients.length} seekers and ${mentorTabs.length} mentors signed in, sockets open`);

  const end = t0 + durationMs;
  let n = 0;
  const seekerLoop = async ({ s, c, partner, conversationId, t }) => {
    while (Date.now() < end) {
      const r = Math.random();
      if (r < 0.45) await browse(c, mentors);
      else if (r < 0.6) await bookOnce(c, s, mentors);
      else if (r < 0.95) {
        n += 1;
        await sendMessage(t, conversationId, partner.id, `soak-${t0}-${s.id.slice(0, 8)}-${n}`);
      } else await ring(t, conversationId);
      await pause(100 + Math.random() * 400);
    }
  };
  await Promise.all([chaos(end - 20_000), ...seekerClients.map(seekerLoop)]);
  log('load stopped; settling');
  // Deliveries of the last messages arrive before the sockets close.
  await pause(DELIVERY_WINDOW_MS);
  await Promise.all([...mentorTabs, ...seekerClients.map((x) => x.t)].map((t) => t.close()));
  await settle();

  const results = await checks();
  const total = outcomes.length;
  const failed = outcomes.filter((o) => failureKind(o)).length;
  const summary = {
    date: new Date().toISOString(),
    minutes,
    requests: total,
    failed,
    failedShare: total ? failed / total : 0,
    kills,
    stats,
    checks: results,
  };
  console.log('\n== soak summary ==');
  console.log(`requests ${total}, failed ${failed} (${((100 * failed) / Math.max(total, 1)).toFixed(2)} %)`);
  console.log(`kills: ${kills.map((k) => `${k.what} ${(k.downMs / 1000).toFixed(1)} s`).join(', ')}`);
  console.log(`activity: ${JSON.stringify(stats)}`);
  for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name}: ${JSON.stringify(r.detail)}`);
  const out = path.join(repo, 'tests/artifacts/soak');
  await mkdir(out, { recursive: true });
  await writeFile(path.join(out, 'result.json'), JSON.stringify(summary, null, 2));
  const passed = results.filter((r) => r.ok).length;
  console.log(`${passed} passed, ${results.length - passed} failed`);
  await db.end();
  process.exit(results.every((r) => r.ok) ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

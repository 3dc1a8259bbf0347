// Starts the real product for a black-box test: a fresh database, `api migrate`, `api serve` on a
// free port and (optionally) `worker`, all with the file mail transport in a fresh temp folder.
//
//   const stack = await startStack({ worker: true, env: { LOGIN_MAX_FAILURES_PER_ADDRESS: '5' } });
//   stack.baseUrl, stack.mailDir, stack.uploadDir, stack.databaseUrl
//   await stack.waitForMail(mailTo(email, 'Verify your email address'))
//   await stack.stop()    // SIGTERM to both processes, waits for them, drops the database
//
// Binaries: API_BIN / WORKER_BIN / TOOLS_BIN (the developer commands: `tools seed`, `tools bench-worker`),
// defaulting to ${CARGO_TARGET_DIR:-<repo>/target}/debug/{api,worker,tools}.
// Database server: DATABASE_URL (any database on the server; the stack makes its own). When it is
// unset, scripts/lib/db.sh's ensure_database provides one (the local cluster under .data/pg).
// Process output goes to tests/artifacts/logs/<test file>-<database>-<process>.log.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { readMails, waitForMail } from './mail.mjs';
import { registerStack, unregisterStack } from './vetting.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const targetDir = process.env.CARGO_TARGET_DIR || path.join(repoRoot, 'target');
export const apiBin = process.env.API_BIN || path.join(targetDir, 'debug', 'api');
export const workerBin = process.env.WORKER_BIN || path.join(targetDir, 'debug', 'worker');
export const toolsBin = process.env.TOOLS_BIN || path.join(targetDir, 'debug', 'tools');
export const artifactsDir = path.join(repoRoot, 'tests', 'artifacts');
export const logsDir = path.join(artifactsDir, 'logs');
export const webDist = path.join(repoRoot, 'web', 'dist');

const STARTUP_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

// Children still running; killed if the test process exits without stopping its stacks.
const live = new Set();
process.on('exit', () => {
  for (const child of live) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already exited
    }
  }
});

let serverUrlMemo;
/** The DATABASE_URL of the server the stacks use (ensuring a local cluster when it is unset). */
export function serverUrl() {
  if (serverUrlMemo) return serverUrlMemo;
  if (process.env.DATABASE_URL) {
    serverUrlMemo = process.env.DATABASE_URL;
  } else {
    const script = 'source scripts/lib/db.sh && ensure_database >&2 && printf %s "$DATABASE_URL"';
    serverUrlMemo = execFileSync('bash', ['-c', script], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  }
  return serverUrlMemo;
}

function urlWithDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin(sql, server = serverUrl()) {
  const c = new pg.Client({ connectionString: urlWithDatabase(server, 'postgres') });
  await c.connect();
  try {
    return await c.query(sql);
  } finally {
    await c.end();
  }
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function tail(file, lines = 40) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function requireBinary(bin, envName) {
  if (!existsSync(bin)) {
    throw new Error(`${bin} does not exist: build it (SQLX_OFFLINE=true cargo build --workspace) or set ${envName}`);
  }
}

/** Spawns a process with stdout and stderr appended to `logFile`; `exited` resolves to { code, signal }. */
function launch(bin, args, env, logFile) {
  const fd = openSync(logFile, 'a');
  let child;
  try {
    child = spawn(bin, args, { env, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  live.add(child);
  const exited = new Promise((resolve) => {
    child.once('error', (error) => {
      live.delete(child);
      resolve({ code: null, signal: null, error });
    });
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
  return { child, exited, logFile, exit: null };
}

/** SIGTERM, then wait; SIGKILL after `timeoutMs`. Resolves to { code, signal, timedOut }. */
async function terminate(proc, timeoutMs = STOP_TIMEOUT_MS) {
  if (!proc) return null;
  if (proc.exit) return proc.exit;
  proc.child.kill('SIGTERM');
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  let result = await Promise.race([proc.exited, timeout]);
  clearTimeout(timer);
  if (result === 'timeout') {
    proc.child.kill('SIGKILL');
    result = { ...(await proc.exited), timedOut: true };
  }
  proc.exit = result;
  return result;
}

async function waitHealthy(baseUrl, proc) {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  let last = 'no answer';
  let exit = null;
  proc.exited.then((e) => {
    exit = e;
  });
  while (Date.now() < deadline) {
    if (exit) {
      throw new Error(
        `api serve exited (${JSON.stringify(exit)}) before it was healthy; log ${proc.logFile}:\n${tail(proc.logFile)}`,
      );
    }
    try {
      const res = await fetch(`${baseUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
      const text = await res.text();
      if (res.status === 200) return;
      last = `${res.status} ${text}`;
    } catch (e) {
      last = e.cause?.code ?? e.message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `GET ${baseUrl}/api/health did not answer 200 within ${STARTUP_TIMEOUT_MS} ms (last: ${last}); log ${proc.logFile}:\n${tail(proc.logFile)}`,
  );
}

function label() {
  if (/playwright/.test(process.argv[1] ?? '')) return 'browser';
  const main = process.argv[1] ? path.basename(process.argv[1]).replace(/\.(test|spec)?\.?m?js$/, '') : 'stack';
  return main.replace(/[^A-Za-z0-9_.-]/g, '_') || 'stack';
}

/**
 * Starts a stack. Options:
 *   worker  start `worker` too (default true); startWorker() starts it later
 *   env     extra environment for every process (overrides the defaults below)
 *   apis    how many `api serve` processes (default 1), each on its own port, one database
 *   workers how many `worker` processes when `worker` is true (default 1)
 *   server  a DATABASE_URL naming the PostgreSQL server to use instead of serverUrl()
 *           (for example a private cluster from harness/postgres.mjs)
 *   readServer  a replica of `server` (harness/replica.mjs): every api gets DATABASE_READ_URL naming
 *           the stack's database there
 *   janus   start a private Janus (harness/janus.mjs) and give the api its JANUS_* settings
 *           (stack.janus; stopped with the stack)
 *   turn    start a private coturn (harness/turn.mjs) and give the api RTC_TURN_URL/RTC_TURN_SECRET
 *           (stack.turn; stopped with the stack); with `janus` too, Janus relays through it as well and
 *           it relays from the machine's own address, the only one Janus offers (harness/turn.mjs).
 *           Without it the api gets whatever RTC_TURN_* the environment has (scripts/test exports
 *           its own coturn's).
 *   nats    start a private nats-server (harness/nats.mjs) and put every process on the NATS bus
 *           (REALTIME_BUS=nats, its NATS_URL; stack.nats; stopped with the stack). By default when
 *           REALTIME_BUS=nats is asked for (in `env` or the environment) without a NATS_URL, so any
 *           test runs on the NATS bus with `REALTIME_BUS=nats node --test ...`.
 */
export async function startStack({
  worker = true,
  env = {},
  apis = 1,
  workers = 1,
  server = serverUrl(),
  readServer = null,
  janus: withJanus = false,
  turn: withTurn = false,
  nats: withNats = (env.REALTIME_BUS ?? process.env.REALTIME_BUS) === 'nats' && !(env.NATS_URL ?? process.env.NATS_URL),
} = {}) {
  requireBinary(apiBin, 'API_BIN');
  if (worker) requireBinary(workerBin, 'WORKER_BIN');
  mkdirSync(logsDir, { recursive: true });

  // Janus offers only the machine's own non-loopback address: a coturn beside it relays from there.
  const turnModule = withTurn ? await import('./turn.mjs') : null;
  const turn = turnModule
    ? await turnModule.startTurn({ relayIp: withJanus ? turnModule.relayAddress() : '127.0.0.1' })
    : null;
  let janus = null;
  try {
    janus = withJanus ? await (await import('./janus.mjs')).startJanus({ turn }) : null;
  } catch (e) {
    await turn?.stop();
    throw e;
  }
  let nats = null;
  try {
    nats = withNats ? await (await import('./nats.mjs')).startNats() : null;
  } catch (e) {
    await janus?.stop();
    await turn?.stop();
    throw e;
  }
  const dbName = `bb_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const databaseUrl = urlWithDatabase(server, dbName);
  await admin(`CREATE DATABASE "${dbName}"`, server);

  const dir = await mkdtemp(path.join(os.tmpdir(), 'mentor-stack-'));
  const mailDir = path.join(dir, 'mail');
  const uploadDir = path.join(dir, 'uploads');
  await mkdir(mailDir);
  await mkdir(uploadDir);
  const ports = [];
  for (let i = 0; i < apis; i += 1) ports.push(await freePort());
  const [port] = ports;
  const baseUrl = `http://127.0.0.1:${port}`;
  const baseUrls = ports.map((p) => `http://127.0.0.1:${p}`);
  registerStack(baseUrls, databaseUrl);
  const fullEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    APP_BASE_URL: baseUrl,
    MAIL_TRANSPORT: 'file',
    MAIL_DIR: mailDir,
    UPLOAD_DIR: uploadDir,
    EXPORT_DIR: path.join(dir, 'exports'),
    WEB_DIST: webDist,
    PAYMENT_GATEWAY: 'test',
    RUST_LOG: process.env.RUST_LOG || 'info',
    RUST_BACKTRACE: '1',
    NO_COLOR: '1',
    // Tests sign up many accounts from one address; abuse-accounts.test.mjs checks the real limit.
    REGISTRATIONS_PER_ADDRESS: '1000',
    // Secrets at rest (CalDAV passwords): required with the production profile (an https APP_BASE_URL).
    SECRETS_KEY: randomBytes(32).toString('base64'),
    // Group calls stay on this machine: no public STUN server.
    ...(janus ? { ...janus.env, RTC_STUN_URLS: '' } : {}),
    ...(turn ? turn.env : {}),
    ...(readServer ? { DATABASE_READ_URL: urlWithDatabase(readServer, dbName) } : {}),
    ...(nats ? nats.env : {}),
    ...env,
  };
  const logPrefix = path.join(logsDir, `${label()}-${dbName}`);

  // apiProcs[0] and workerProcs[0] are "the" api and worker of a one-process stack.
  const apiProcs = [];
  const workerProcs = [];
  let stopped = null;
  // Process i > 0 logs to <prefix>-api2.log, <prefix>-worker2.log, ...
  const logOf = (kind, i) => `${logPrefix}-${kind}${i === 0 ? '' : i + 1}.log`;

  async function dropDatabase() {
    await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`, server);
  }

  // `tools: true` runs `tools <args>` (the benchmark's worker, `bench-worker`) in the worker's place.
  async function startWorker(i = 0, { args = [], tools = false } = {}) {
    if (workerProcs[i] && !workerProcs[i].exit) return;
    const [bin, name] = tools ? [toolsBin, 'TOOLS_BIN'] : [workerBin, 'WORKER_BIN'];
    requireBinary(bin, name);
    workerProcs[i] = launch(bin, args, fullEnv, logOf('worker', i));
  }

  async function stopWorker(i = 0, { timeoutMs } = {}) {
    const result = await terminate(workerProcs[i], timeoutMs);
    return result;
  }

  async function startApi(i) {
    // Every api shares APP_BASE_URL (links in mail point at the first, like a load balancer's address).
    const proc = launch(apiBin, ['serve'], { ...fullEnv, PORT: String(ports[i]) }, logOf('api', i));
    apiProcs[i] = proc;
    await waitHealthy(baseUrls[i], proc);
  }

  async function stop() {
    if (stopped) return stopped;
    stopped = (async () => {
      unregisterStack(baseUrls);
      const exits = await Promise.all([...workerProcs, ...apiProcs].map((p) => terminate(p)));
      const workerExit = workerProcs.length ? exits[0] : null;
      const apiExit = apiProcs.length ? exits[workerProcs.length] : null;
      await janus?.stop();
      await turn?.stop();
      await nats?.stop();
      try {
        await dropDatabase();
      } catch (e) {
        console.error(`could not drop database ${dbName}: ${e.message}`);
      }
      if (!process.env.KEEP_STACK) await rm(dir, { recursive: true, force: true });
      return { api: apiExit, worker: workerExit };
    })();
    return stopped;
  }

  try {
    const migrate = launch(apiBin, ['migrate'], fullEnv, `${logPrefix}-migrate.log`);
    const migrated = await migrate.exited;
    if (migrated.code !== 0) {
      throw new Error(
        `api migrate failed (${JSON.stringify(migrated)}); log ${migrate.logFile}:\n${tail(migrate.logFile)}`,
      );
    }
    for (let i = 0; i < apis; i += 1) await startApi(i);
    if (worker) for (let i = 0; i < workers; i += 1) await startWorker(i);
  } catch (e) {
    await stop();
    throw e;
  }

  const running = (proc) => Boolean(proc && !proc.exit && proc.child.exitCode === null);

  return {
    baseUrl,
    /** Every api process's address, baseUrls[0] === baseUrl. */
    baseUrls,
    port,
    mailDir,
    uploadDir,
    databaseUrl,
    databaseName: dbName,
    env: fullEnv,
    /** The private Janus of `janus: true` ({ env, log, pid, stop }), else null. */
    janus,
    /** The private coturn of `turn: true` ({ env, host, port, url, secret, credentials, log, stop }), else null. */
    turn,
    /** The private nats-server of `nats: true` ({ url, port, env, stop, start }), else null. */
    nats,
    logs: { api: logOf('api', 0), worker: logOf('worker', 0), migrate: `${logPrefix}-migrate.log` },
    /** Stops worker and api (SIGTERM, waits), drops the database. Resolves to { api, worker } exits. */
    stop,
    /** Starts the worker (number i, default 0) when it is not running; `args` are its command line. */
    startWorker,
    /**
     * SIGTERM to the worker (number i, default 0), SIGKILL after `timeoutMs` (default 15 s); resolves
     * to its exit { code, signal, timedOut? } (null when none ran).
     */
    stopWorker,
    /** SIGKILL to the worker (number i, default 0: a crash, nothing finishes); resolves to its exit. */
    killWorker: async (i = 0) => {
      const proc = workerProcs[i];
      if (!proc || proc.exit) return null;
      proc.child.kill('SIGKILL');
      proc.exit = await proc.exited;
      return proc.exit;
    },
    /** SIGTERM to api serve (number i, default 0) only; resolves to its exit { code, signal, timedOut? }. */
    stopApi: (i = 0) => terminate(apiProcs[i]),
    /** SIGKILL to api serve (number i, default 0: a crash, nothing finishes); resolves to its exit. */
    killApi: async (i = 0) => {
      const proc = apiProcs[i];
      if (!proc || proc.exit) return null;
      proc.child.kill('SIGKILL');
      proc.exit = await proc.exited;
      return proc.exit;
    },
    /** Starts api serve (number i, default 0) again on its port; resolves once it is healthy. */
    startApi: (i = 0) => startApi(i),
    /** Drops the stack's database while the processes run (to simulate an outage). */
    dropDatabase,
    /** Whether the worker process (number 0) is running. */
    get workerRunning() {
      return running(workerProcs[0]);
    },
    /** Whether each worker process is running, in order. */
    get workersRunning() {
      return workerProcs.map(running);
    },
    /** The process id of each api process, in order (benchmarks read /proc/<pid>). */
    get apiPids() {
      return apiProcs.map((p) => p.child.pid);
    },
    /** The process id of each worker process, in order. */
    get workerPids() {
      return workerProcs.map((p) => p.child.pid);
    },
    /** Whether each api process is running, in order. */
    get apisRunning() {
      return apiProcs.map(running);
    },
    /** Every complete message in the outbox, oldest first: { to, subject, text, html, path, ... }. */
    mails: () => readMails(mailDir),
    /** Polls the outbox until a message satisfies `predicate`. */
    waitForMail: (predicate, timeoutMs = 15000) => waitForMail(mailDir, predicate, timeoutMs),
  };
}

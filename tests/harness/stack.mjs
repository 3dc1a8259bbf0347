// Starts the real product for a black-box test: a fresh database, `api migrate`, `api serve` on a
// free port and (optionally) `worker`, all with the file mail transport in a fresh temp folder.
//
//   const stack = await startStack({ worker: true, env: { LOGIN_MAX_FAILURES_PER_ADDRESS: '5' } });
//   stack.baseUrl, stack.mailDir, stack.uploadDir, stack.databaseUrl
//   await stack.waitForMail(mailTo(email, 'Verify your email address'))
//   await stack.stop()    // SIGTERM to both processes, waits for them, drops the database
//
// Binaries: API_BIN / WORKER_BIN, defaulting to ${CARGO_TARGET_DIR:-<repo>/target}/debug/{api,worker}.
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

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const targetDir = process.env.CARGO_TARGET_DIR || path.join(repoRoot, 'target');
export const apiBin = process.env.API_BIN || path.join(targetDir, 'debug', 'api');
export const workerBin = process.env.WORKER_BIN || path.join(targetDir, 'debug', 'worker');
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
    } catch {}
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
    serverUrlMemo = execFileSync('bash', ['-c', script], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  }
  return serverUrlMemo;
}

function urlWithDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin(sql) {
  const c = new pg.Client({ connectionString: urlWithDatabase(serverUrl(), 'postgres') });
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
      throw new Error(`api serve exited (${JSON.stringify(exit)}) before it was healthy; log ${proc.logFile}:\n${tail(proc.logFile)}`);
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
  throw new Error(`GET ${baseUrl}/api/health did not answer 200 within ${STARTUP_TIMEOUT_MS} ms (last: ${last}); log ${proc.logFile}:\n${tail(proc.logFile)}`);
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
 */
export async function startStack({ worker = true, env = {} } = {}) {
  requireBinary(apiBin, 'API_BIN');
  if (worker) requireBinary(workerBin, 'WORKER_BIN');
  mkdirSync(logsDir, { recursive: true });

  const dbName = `bb_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const databaseUrl = urlWithDatabase(serverUrl(), dbName);
  await admin(`CREATE DATABASE "${dbName}"`);

  const dir = await mkdtemp(path.join(os.tmpdir(), 'mentor-stack-'));
  const mailDir = path.join(dir, 'mail');
  const uploadDir = path.join(dir, 'uploads');
  await mkdir(mailDir);
  await mkdir(uploadDir);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const fullEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    APP_BASE_URL: baseUrl,
    MAIL_TRANSPORT: 'file',
    MAIL_DIR: mailDir,
    UPLOAD_DIR: uploadDir,
    WEB_DIST: webDist,
    PAYMENT_GATEWAY: 'test',
    RUST_LOG: process.env.RUST_LOG || 'info',
    RUST_BACKTRACE: '1',
    NO_COLOR: '1',
    // Tests sign up many accounts from one address; abuse-accounts.test.mjs checks the real limit.
    REGISTRATIONS_PER_ADDRESS: '1000',
    ...env,
  };
  const logPrefix = path.join(logsDir, `${label()}-${dbName}`);

  let api = null;
  let workerProc = null;
  let stopped = null;

  async function dropDatabase() {
    await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  }

  async function startWorker() {
    if (workerProc && !workerProc.exit) return;
    requireBinary(workerBin, 'WORKER_BIN');
    workerProc = launch(workerBin, [], fullEnv, `${logPrefix}-worker.log`);
  }

  async function stopWorker() {
    const result = await terminate(workerProc);
    return result;
  }

  async function stop() {
    if (stopped) return stopped;
    stopped = (async () => {
      const [workerExit, apiExit] = await Promise.all([terminate(workerProc), terminate(api)]);
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
      throw new Error(`api migrate failed (${JSON.stringify(migrated)}); log ${migrate.logFile}:\n${tail(migrate.logFile)}`);
    }
    api = launch(apiBin, ['serve'], fullEnv, `${logPrefix}-api.log`);
    await waitHealthy(baseUrl, api);
    if (worker) await startWorker();
  } catch (e) {
    await stop();
    throw e;
  }

  return {
    baseUrl,
    port,
    mailDir,
    uploadDir,
    databaseUrl,
    databaseName: dbName,
    env: fullEnv,
    logs: { api: `${logPrefix}-api.log`, worker: `${logPrefix}-worker.log`, migrate: `${logPrefix}-migrate.log` },
    /** Stops worker and api (SIGTERM, waits), drops the database. Resolves to { api, worker } exits. */
    stop,
    /** Starts the worker when it is not running. */
    startWorker,
    /** SIGTERM to the worker; resolves to its exit { code, signal, timedOut? } (null when none ran). */
    stopWorker,
    /** SIGKILL to the worker (a crash: nothing finishes); resolves to its exit. */
    killWorker: async () => {
      if (!workerProc || workerProc.exit) return null;
      workerProc.child.kill('SIGKILL');
      workerProc.exit = await workerProc.exited;
      return workerProc.exit;
    },
    /** SIGTERM to api serve only; resolves to its exit { code, signal, timedOut? }. */
    stopApi: () => terminate(api),
    /** Drops the stack's database while the processes run (to simulate an outage). */
    dropDatabase,
    /** Whether the worker process is running. */
    get workerRunning() {
      return Boolean(workerProc && !workerProc.exit && workerProc.child.exitCode === null);
    },
    /** Every complete message in the outbox, oldest first: { to, subject, text, html, path, ... }. */
    mails: () => readMails(mailDir),
    /** Polls the outbox until a message satisfies `predicate`. */
    waitForMail: (predicate, timeoutMs = 15000) => waitForMail(mailDir, predicate, timeoutMs),
  };
}

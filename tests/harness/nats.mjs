// A private NATS server (Debian's nats-server) for a test, on 127.0.0.1 and a free port, log under
// tests/artifacts/logs/. It can be stopped and started again on the same port (the api's client
// reconnects there).
//
//   const nats = await startNats();
//   nats.url                 // nats://127.0.0.1:<port>, the api's NATS_URL
//   nats.env                 // { REALTIME_BUS: 'nats', NATS_URL }
//   await nats.subscriptions('rt.room.<id>') // [{ subject, msgs }] of every client, from its monitoring port
//   await nats.stop();       // SIGTERM, waits for it to exit
//   await nats.start();      // again, same port
import { spawn } from 'node:child_process';
import { mkdirSync, openSync, closeSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort, logsDir } from './stack.mjs';

export const NATS_SERVER = process.env.NATS_SERVER_BIN || '/usr/sbin/nats-server';
const STARTUP_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;

function listening(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startNats({ port } = {}) {
  port ??= await freePort();
  const monitorPort = await freePort();
  mkdirSync(logsDir, { recursive: true });
  const log = path.join(logsDir, `nats-${port}.log`);
  let child = null;
  let exited = null;

  async function start() {
    if (child) return;
    const fd = openSync(log, 'a');
    try {
      child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-m', String(monitorPort)], {
        stdio: ['ignore', fd, fd],
      });
    } finally {
      closeSync(fd);
    }
    const proc = child;
    exited = new Promise((resolve) => {
      proc.once('exit', (code, signal) => resolve({ code, signal }));
      proc.once('error', (error) => resolve({ code: null, signal: null, error }));
    });
    const deadline = Date.now() + STARTUP_TIMEOUT_MS;
    while (!(await listening(port))) {
      if (proc.exitCode !== null || Date.now() > deadline) {
        child = null;
        throw new Error(`nats-server did not listen on ${port}; log ${log}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function stop() {
    if (!child) return null;
    const proc = child;
    child = null;
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_TIMEOUT_MS);
    const result = await exited;
    clearTimeout(timer);
    return result;
  }

  await start();
  const url = `nats://127.0.0.1:${port}`;
  return {
    port,
    url,
    log,
    env: { REALTIME_BUS: 'nats', NATS_URL: url },
    start,
    stop,
    subscriptions: (subject) => subscriptions(monitorPort, subject),
    get running() {
      return Boolean(child);
    },
  };
}

/** The value of the unlabelled series `name` in a Prometheus text body (0 when absent). */
export function metricValue(text, name) {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

/** The `/metrics` text of api process `i` of `stack` now (`/metrics` answers loopback callers). */
export async function apiMetrics(stack, i) {
  const res = await fetch(`${stack.baseUrls[i]}/metrics`);
  if (res.status !== 200) throw new Error(`GET /metrics on api ${i}: ${res.status}`);
  return res.text();
}

/** `name` on api process `i` of `stack` now. */
export async function apiMetric(stack, i, name) {
  return metricValue(await apiMetrics(stack, i), name);
}

/** The clients' subscriptions to `subject`, from the server's monitoring endpoint: [{ subject, msgs }]. */
async function subscriptions(monitorPort, subject) {
  const r = await fetch(`http://127.0.0.1:${monitorPort}/connz?subs=detail&limit=1000`);
  const { connections = [] } = await r.json();
  return connections.flatMap((c) => (c.subscriptions_list_detail ?? []).filter((s) => s.subject === subject));
}

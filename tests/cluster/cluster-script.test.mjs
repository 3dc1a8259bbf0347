// scripts/cluster as an operator runs it (issue 37 §1), with the built binaries and without the web:
// two api processes behind HAProxy on the NATS bus with a streaming replica, a worker, Janus and
// coturn. Through HAProxy the product answers with its demo data, every api is healthy, the replica
// is read; a SIGKILLed api is started again while HAProxy keeps answering through the other; SIGTERM
// stops every process it started. Not in the black-box glob: it runs alone (scripts/test), since a
// cluster is the heaviest thing the tests start.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { logsDir } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const run = path.join(repo, '.data/cluster/run');
const envFile = path.join(run, 'cluster.env');
/** A first start makes the primary (initdb), copies the replica, migrates and seeds. */
const STARTUP_TIMEOUT_MS = 300_000;
const STOP_TIMEOUT_MS = 60_000;

let cluster; // the scripts/cluster child process
let exited; // resolves with its exit code
let env; // cluster.env, parsed

/** cluster.env's KEY=value lines (values may be quoted). */
function readEnv() {
  const out = {};
  for (const line of readFileSync(envFile, 'utf8').split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) out[line.slice(0, at)] = line.slice(at + 1).replace(/^"|"$/g, '');
  }
  return out;
}

const pidOf = (name) => {
  const file = path.join(run, `${name}.pid`);
  return existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : null;
};
const postmasterPid = (data) => Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const health = async (base) => {
  const res = await fetch(`${base}/api/health`);
  return { status: res.status, body: await res.json() };
};

before(async () => {
  mkdirSync(logsDir, { recursive: true });
  const log = path.join(logsDir, 'cluster-script.log');
  const fd = openSync(log, 'w');
  try {
    cluster = spawn(path.join(repo, 'scripts/cluster'), [], {
      cwd: repo,
      env: { ...process.env, APIS: '2', WORKERS: '1', CLUSTER_WEB: '0' },
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
  exited = new Promise((resolve) => cluster.once('exit', (code) => resolve(code)));
  await until(
    `scripts/cluster to be up (log: ${log})`,
    async () => {
      if (cluster.exitCode !== null) throw new Error(`scripts/cluster ended (${cluster.exitCode}); log: ${log}`);
      return existsSync(envFile) && readEnv().CLUSTER_PID === String(cluster.pid);
    },
    STARTUP_TIMEOUT_MS,
    500,
  );
  env = readEnv();
});

after(async () => {
  if (cluster && cluster.exitCode === null) {
    cluster.kill('SIGTERM');
    await exited;
  }
});

describe('scripts/cluster', () => {
  it('serves the product through HAProxy over every api, on the NATS bus with the replica', async () => {
    const ports = env.API_PORTS.split(' ');
    assert.equal(ports.length, 2);
    for (const port of ports) assert.equal((await health(`http://127.0.0.1:${port}`)).status, 200, port);
    const through = await until('the replica to be read', async () => {
      const h = await health(env.CLUSTER_URL);
      return h.status === 200 && h.body.replica?.state === 'ok' ? h : false;
    });
    assert.equal(through.body.realtimeBus.kind, 'nats');
    assert.equal(through.body.realtimeBus.natsConnected, true);
    const mentors = await fetch(`${env.CLUSTER_URL}/api/mentors`).then((r) => r.json());
    assert.ok(mentors.mentors.length > 0, 'the demo mentors are listed');
  });

  it('starts a killed api again while HAProxy answers through the other', async () => {
    const pid = pidOf('api1');
    assert.ok(pid && alive(pid));
    process.kill(pid, 'SIGKILL');
    // Every request meanwhile is answered: refused connections are retried on the other api.
    for (let i = 0; i < 20; i += 1) assert.equal((await health(env.CLUSTER_URL)).status, 200, `request ${i}`);
    const port = env.API_PORTS.split(' ')[0];
    await until('api1 to be started again', async () => {
      const again = pidOf('api1');
      if (!again || again === pid) return false;
      return (await health(`http://127.0.0.1:${port}`).catch(() => ({ status: 0 }))).status === 200;
    });
    assert.match(readFileSync(path.join(env.CLUSTER_LOGS, 'restarts.log'), 'utf8'), /api1/);
  });

  it('stops every process it started on SIGTERM', { timeout: STOP_TIMEOUT_MS + 10_000 }, async () => {
    const names = readdirSync(run).filter((f) => f.endsWith('.pid'));
    const pids = names.map((f) => pidOf(f.slice(0, -4))).filter(Boolean);
    pids.push(postmasterPid(env.PRIMARY_DATA), postmasterPid(env.REPLICA_DATA));
    assert.ok(pids.length >= 7, `api, worker, nats, haproxy, the postmasters: ${names}`);
    cluster.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), STOP_TIMEOUT_MS))]);
    assert.equal(code, 0, 'scripts/cluster ended on its own');
    assert.deepEqual(pids.filter(alive), [], 'nothing it started is left running');
    assert.equal(existsSync(envFile), false, 'cluster.env is gone');
  });
});

// SIGTERM to a worker in the middle of a backlog of 10,000 tasks: it fetches nothing more, lets
// the tasks it runs finish, hands back the ones it fetched but had not started, and exits 0 within
// its grace; the workers that take over (one started as it stops, one after) run the rest, and every
// task runs exactly once.
//
// The tasks are the benchmark's no-op queue (`tools bench-worker <runs file>`: the production
// worker plus the queue `bench_noop`), whose process writes every task it started to its runs file
// when it exits, so a task started twice, in one process or in two, is seen.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const BACKLOG = 10_000;
const QUEUE = 'bench_noop';
/** Each task takes this long, so the SIGTERM finds tasks running and a backlog left. */
const HOLD_MS = 4;
/** The first worker is stopped once this many tasks are done. */
const STOP_AFTER = 1_500;
/** jobs::runtime::SHUTDOWN_GRACE: running tasks get this long after SIGTERM. */
const SHUTDOWN_GRACE_MS = 30_000;
/** The process exits this soon after its grace at the latest (closing its pool, writing its runs). */
const EXIT_MARGIN_MS = 5_000;

let stack;
let db;
let dir;

before(async () => {
  // Worker 0, the production worker, creates the job storage; the bench workers come later.
  stack = await startStack();
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  dir = await mkdtemp(path.join(os.tmpdir(), 'worker-restart-'));
});
after(async () => {
  await db?.end();
  await stack?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function statuses() {
  const { rows } = await db.query(
    'SELECT status, count(*)::int AS n FROM apalis.jobs WHERE job_type = $1 GROUP BY status',
    [QUEUE],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** `BACKLOG` no-op tasks with ULID ids (the supervisor sets aside any other), in one transaction. */
async function queueBacklog() {
  await db.query(
    `INSERT INTO apalis.jobs (id, job_type, job, status, attempts, max_attempts, run_at)
     SELECT upper('01' || lpad(to_hex(i), 8, '0') || substr(md5(random()::text), 1, 16)), $1,
            convert_to(json_build_object('seq', i, 'hold_ms', $3::int)::text, 'UTF8'), 'Pending', 0, 1, now()
     FROM generate_series(0, $2::int - 1) AS i`,
    [QUEUE, BACKLOG, HOLD_MS],
  );
}

/** The sequence numbers of the tasks a bench worker started, from its runs file. */
async function runsOf(file) {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => Number(l.split(' ')[0]));
}

describe('a worker restarted during a backlog', () => {
  it(
    'stops within its grace and, with the workers after it, runs every task exactly once',
    { timeout: 170_000 },
    async () => {
      // The storage exists before the worker runs (`api migrate` makes it): wait for the worker itself,
      // or the SIGTERM can arrive before its process has a handler and kill it by signal.
      await until('the worker to start', async () =>
        (await readFile(stack.logs.worker, 'utf8').catch(() => '')).includes('worker started'),
      );
      const idle = await stack.stopWorker(0);
      assert.deepEqual(idle, { code: 0, signal: null }, 'an idle worker stops at once and cleanly');

      await queueBacklog();
      const runs = [1, 2, 3].map((i) => path.join(dir, `worker${i}.runs`));
      await stack.startWorker(1, { args: ['bench-worker', runs[0]], tools: true });
      await until(
        'the first worker to be well into the backlog',
        async () => ((await statuses()).Done ?? 0) >= STOP_AFTER,
        60_000,
      );

      // A second worker starts as the first is told to stop, and a third once it has exited.
      const stoppedAt = Date.now();
      const [first] = await Promise.all([
        stack.stopWorker(1, { timeoutMs: SHUTDOWN_GRACE_MS + EXIT_MARGIN_MS }),
        stack.startWorker(2, { args: ['bench-worker', runs[1]], tools: true }),
      ]);
      const stopTookMs = Date.now() - stoppedAt;
      assert.deepEqual(first, { code: 0, signal: null }, `the first worker's exit after ${stopTookMs} ms`);
      const left = await statuses();
      assert.ok(
        (left.Done ?? 0) < BACKLOG,
        `a backlog was left when the first worker stopped: ${JSON.stringify(left)}`,
      );
      await stack.startWorker(3, { args: ['bench-worker', runs[2]], tools: true });

      await until('every task to be done', async () => ((await statuses()).Done ?? 0) === BACKLOG, 120_000, 250);
      for (const i of [2, 3]) {
        assert.deepEqual(await stack.stopWorker(i), { code: 0, signal: null }, `worker ${i} stops cleanly`);
      }

      const started = await Promise.all(runs.map(runsOf));
      const times = new Map();
      for (const seq of started.flat()) times.set(seq, (times.get(seq) ?? 0) + 1);
      const twice = [...times].filter(([, n]) => n > 1).map(([seq]) => seq);
      const never = Array.from({ length: BACKLOG }, (_, i) => i).filter((seq) => !times.has(seq));
      assert.deepEqual(
        { twice: twice.slice(0, 20), never: never.slice(0, 20) },
        { twice: [], never: [] },
        `tasks started more than once: ${twice.length}; never: ${never.length}`,
      );
      assert.equal(started.flat().length, BACKLOG);
      assert.ok(started[0].length >= STOP_AFTER, 'the first worker ran what it had done before SIGTERM');
      assert.ok(started[1].length + started[2].length > 0, 'the workers after it took over the rest');
      assert.deepEqual(await statuses(), { Done: BACKLOG });
      // Handing a task back is not a try (jobs' storage test pins the trigger). A fetch cut short by the
      // SIGTERM as it commits leaves its tasks locked to the stopped worker; the silent-heartbeat rule
      // re-queues them as a try, since such a task may have run. So at most one try more, never used up.
      const { rows } = await db.query(
        'SELECT attempts, count(*)::int AS n FROM apalis.jobs WHERE job_type = $1 GROUP BY attempts ORDER BY attempts',
        [QUEUE],
      );
      assert.ok(
        rows.every((r) => r.attempts >= 1 && r.attempts <= 2),
        `attempts: ${JSON.stringify(rows)}`,
      );
    },
  );
});

// Catalogue reads from a real streaming replica (DATABASE_READ_URL, docs/operations.md "The read
// replica"): two api processes on a private primary whose replica the test starts
// (harness/replica.mjs). Catalogue reads go to the replica; a mentor's own change is read back at
// once by its author through either process while the replica has not replayed it (the
// `read_after` cookie), and by the other process within a second (its cache refills from the
// primary); a replica stopped, or more than 5 s behind, is skipped: reads still answer, from the
// primary, and health and metrics say so.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { startReplicated } from '../harness/replica.mjs';
import { freePort, startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

/** api/src/replica/mod.rs MAX_LAG: a replica further behind is skipped. */
const MAX_LAG_SECONDS = 5;
/** How soon another process shows a change (as without a replica). */
const FRESHNESS_MS = 1000;

let cluster;
let stack;
let workerMetrics;
before(async () => {
  cluster = await startReplicated();
  workerMetrics = `127.0.0.1:${await freePort()}`;
  stack = await startStack({
    server: cluster.primary.url,
    readServer: cluster.replica.url,
    apis: 2,
    env: { WORKER_METRICS_ADDR: workerMetrics },
  });
});
after(async () => {
  await stack?.stop();
  await cluster?.destroy();
});

/** The value of one series of `/metrics` of api `i`, or of the worker (`'worker'`); 0 when absent. */
async function metric(i, series) {
  const url = i === 'worker' ? `http://${workerMetrics}` : stack.baseUrls[i];
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

const REPLICA_READS = 'catalogue_reads_total{source="replica"}';
const primaryReads = (reason) => `catalogue_primary_reads_total{reason="${reason}"}`;

async function replicaHealth(i) {
  const res = await client(stack.baseUrls[i]).get('/api/health');
  assert.equal(res.status, 200, show(res));
  assert.equal(res.body.status, 'ok');
  return res.body.replica;
}

/** Waits until every api process uses the replica again. */
async function replicaInUse() {
  for (let i = 0; i < stack.baseUrls.length; i += 1) {
    await until(`api ${i} to use the replica`, async () => (await replicaHealth(i))?.state === 'ok', 30_000);
  }
}

/** A search nobody made before: never in the cache, so it reads the database. */
const freshSearch = (word = `w${randomBytes(4).toString('hex')}`) => `/api/mentors?search=${word}`;

/** The free days of this month of a mentor (`bookableMentor`'s). */
const availableDays = ({ mentor }) =>
  `/api/mentors/${mentor.id}/available-days?month=${new Date().toISOString().slice(0, 7)}`;

/** The same user's cookies on another api process (a load balancer without sticky sessions). */
function sameUserOn(i, c) {
  const other = client(stack.baseUrls[i]);
  Object.assign(other.cookies, c.cookies);
  return other;
}

describe('catalogue reads from a streaming replica', () => {
  let mentor;
  before(async () => {
    mentor = await bookableMentor(stack);
    await replicaInUse();
  });

  it('health names the replica; catalogue reads are served by it once it has every change', async () => {
    const health = await replicaHealth(0);
    assert.equal(health.state, 'ok');
    assert.ok(health.lagSeconds >= 0 && health.lagSeconds <= MAX_LAG_SECONDS, JSON.stringify(health));
    assert.equal(await metric(0, 'replica_skipped'), 0);
    const anonymous = client(stack.baseUrls[1]);
    const before = await metric(1, REPLICA_READS);
    await until('a catalogue read served by the replica', async () => {
      const res = await anonymous.get(freshSearch());
      assert.equal(res.status, 200, show(res));
      return (await metric(1, REPLICA_READS)) > before;
    });
    const slots = await anonymous.get(availableDays(mentor));
    assert.equal(slots.status, 200, show(slots));
  });

  it("a mentor's change is read back at once by its author on either process, and by others within a second", async () => {
    await replicaInUse();
    await cluster.replica.pauseReplay();
    try {
      const word = `Zq${randomBytes(4).toString('hex')}`;
      const bio = `A changed bio that says ${word} and is long enough for the profile rules.`;
      const ownWritesBefore = await metric(1, primaryReads('own_write'));
      const put = await mentor.c.put('/api/mentor/profile', { bio });
      assert.equal(put.status, 200, show(put));
      const changedAt = Date.now();
      assert.ok(mentor.c.cookies.read_after, 'the write set the read_after cookie');

      // The replica has not replayed the change: it still holds the old bio.
      const { rows } = await cluster.replica.query(stack.databaseName, 'SELECT bio FROM mentors WHERE id = $1', [
        mentor.mentor.id,
      ]);
      assert.notEqual(rows[0].bio, bio, 'the replica is behind the change');

      // The author, through the process that wrote and through the other one.
      for (const c of [mentor.c, sameUserOn(1, mentor.c)]) {
        const page = await c.get(`/api/mentors/${mentor.mentor.id}`);
        assert.equal(page.status, 200, show(page));
        assert.equal(page.body.bio, bio, `the author reads their change on ${c.baseUrl}`);
        const found = await c.get(freshSearch(word));
        assert.equal(found.status, 200, show(found));
        assert.deepEqual(
          found.body.mentors.map((m) => m.id),
          [mentor.mentor.id],
          `the author finds their new words on ${c.baseUrl}`,
        );
      }
      assert.ok(
        (await metric(1, primaryReads('own_write'))) > ownWritesBefore,
        "the other process read the author's search from the primary because of their cookie",
      );

      // Someone else, on the other process, without a cookie.
      const anonymous = client(stack.baseUrls[1]);
      await until(
        'the other process to show the change',
        async () => (await anonymous.get(`/api/mentors/${mentor.mentor.id}`)).body?.bio === bio,
        FRESHNESS_MS,
        25,
      );
      assert.ok(Date.now() - changedAt < FRESHNESS_MS, `seen within ${FRESHNESS_MS} ms`);
      const found = await anonymous.get(freshSearch(word));
      assert.deepEqual(
        found.body.mentors.map((m) => m.id),
        [mentor.mentor.id],
        'a search right after the change reads the primary',
      );
    } finally {
      await cluster.replica.resumeReplay();
    }
    await replicaInUse();
  });

  it("a seeker's booking leaves their slots at once on either process; others are served by the replica", async () => {
    const user = await createVerifiedUser(stack);
    const seeker = await signIn(stack, user);
    const at = startIn(3);
    const slots = `/api/mentors/${mentor.mentor.id}/available-slots?date=${at.slice(0, 10)}`;
    const time = at.slice(11, 16);
    const anonymous = client(stack.baseUrls[1]);
    assert.ok((await anonymous.get(slots)).body.includes(time), 'the hour is free');
    await replicaInUse();
    await cluster.replica.pauseReplay();
    try {
      const reservation = await reserve(seeker, mentor, at);
      await pay(seeker, reservation.reservation.id, user);
      for (const c of [seeker, sameUserOn(1, seeker)]) {
        const mine = await c.get(slots);
        assert.equal(mine.status, 200, show(mine));
        assert.ok(!mine.body.includes(time), `the seeker's booked hour is gone on ${c.baseUrl}: ${show(mine)}`);
      }
      // Bookings are not catalogue changes: someone else reads the replica, which has not replayed it.
      const theirs = await anonymous.get(slots);
      assert.ok(theirs.body.includes(time), `served by the replica, still free there: ${show(theirs)}`);
    } finally {
      await cluster.replica.resumeReplay();
    }
    await until('the replica to replay the booking', async () => !(await anonymous.get(slots)).body.includes(time));
  });

  it(`a replica more than ${MAX_LAG_SECONDS} s behind is skipped: reads answer from the primary`, async () => {
    await replicaInUse();
    await cluster.replica.pauseReplay();
    try {
      const bio = `Written while the replica stands still, ${randomBytes(4).toString('hex')}, long enough to pass.`;
      const put = await mentor.c.put('/api/mentor/profile', { bio });
      assert.equal(put.status, 200, show(put));
      for (let i = 0; i < 2; i += 1) {
        const health = await until(
          `api ${i} to skip the lagging replica`,
          async () => {
            const h = await replicaHealth(i);
            return h?.state === 'lagging' && h;
          },
          30_000,
        );
        assert.ok(health.lagSeconds > MAX_LAG_SECONDS, JSON.stringify(health));
        assert.equal(await metric(i, 'replica_skipped'), 1);
        assert.ok((await metric(i, 'replica_lag_seconds')) > MAX_LAG_SECONDS);
        const skippedBefore = await metric(i, primaryReads('skipped'));
        const anonymous = client(stack.baseUrls[i]);
        const found = await anonymous.get(freshSearch());
        assert.equal(found.status, 200, show(found));
        const page = await anonymous.get(`/api/mentors/${mentor.mentor.id}`);
        assert.equal(page.body.bio, bio, 'read from the primary');
        assert.ok((await metric(i, primaryReads('skipped'))) > skippedBefore);
      }
      await until(
        'the worker to show the lag',
        async () => (await metric('worker', 'replica_lag_seconds')) > MAX_LAG_SECONDS,
      );
      assert.equal(await metric('worker', 'replica_up'), 1);
    } finally {
      await cluster.replica.resumeReplay();
    }
    await replicaInUse();
  });

  it('a stopped replica is skipped: reads still answer, from the primary, and health and metrics say so', async () => {
    await replicaInUse();
    await cluster.replica.stop();
    try {
      // At once, before any check has noticed: a read the replica fails is done on the primary.
      for (let i = 0; i < 2; i += 1) {
        const anonymous = client(stack.baseUrls[i]);
        for (const path of [
          freshSearch(),
          `/api/mentors/${mentor.mentor.id}/reviews`,
          availableDays(mentor),
          `/api/mentors/${mentor.mentor.id}/available-slots?date=${new Date().toISOString().slice(0, 10)}`,
        ]) {
          const res = await anonymous.get(path);
          assert.equal(res.status, 200, `${path}: ${show(res)}`);
        }
      }
      for (let i = 0; i < 2; i += 1) {
        await until(`api ${i} to report the replica down`, async () => (await replicaHealth(i))?.state === 'down');
        assert.equal(await metric(i, 'replica_skipped'), 1);
        const res = await client(stack.baseUrls[i]).get(freshSearch());
        assert.equal(res.status, 200, show(res));
      }
      await until('the worker to show the replica down', async () => (await metric('worker', 'replica_up')) === 0);
    } finally {
      await cluster.replica.start();
    }
    await replicaInUse();
  });
});

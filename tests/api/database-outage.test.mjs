// The database server stops for 10 s under load: every api answer in that window is a quick 503
// with a plain {message}, never a 500 or a hang; once the server is back the api answers 200 by
// itself, and the worker (which stays up) runs jobs enqueued after the outage.
//
// The server stopped here is a private cluster (harness/postgres.mjs), never the shared one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { VERIFY_SUBJECT, createVerifiedUser, register, signIn } from '../harness/accounts.mjs';
import { bookableMentor, reserve, startIn } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { mailTo } from '../harness/mail.mjs';
import { startPostgres } from '../harness/postgres.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const UNAVAILABLE = 'The service is temporarily unavailable. Please try again shortly.';
const OUTAGE_MS = 10_000;
// domain::db::ACQUIRE_TIMEOUT is 3 s; allow for a slow, shared machine on top.
const MAX_ANSWER_MS = 7_000;
const LOAD_CLIENTS = 4;
/** Requests the catalogue cache answers (api/src/catalogue_cache). */
const CATALOGUE_READS = ['GET /api/mentors', 'GET /api/mentors/{id}'];
const INTERNALS = /sqlx|postgres|SQLSTATE|panicked|connection refused|pool timed out/i;

let server;
let stack;
let loading = false;
before(async () => {
  server = await startPostgres();
  stack = await startStack({ server: server.url });
});
after(async () => {
  loading = false; // ends the load loops of a failed test
  await stack?.stop();
  await server?.destroy();
});

/** One request with a client-side limit well above MAX_ANSWER_MS, timed. */
async function timed(label, send) {
  const startedAt = Date.now();
  let res;
  try {
    res = await send();
  } catch (e) {
    res = { status: 0, body: null, text: `no answer: ${e.cause?.code ?? e.message}` };
  }
  return {
    label,
    startedAt,
    endedAt: Date.now(),
    ms: Date.now() - startedAt,
    status: res.status,
    body: res.body,
    text: res.text,
  };
}

describe('database outage', () => {
  it(
    'answers 503 while the database is down, recovers by itself, and the worker resumes',
    { timeout: 170_000 },
    async () => {
      const seekerUser = await createVerifiedUser(stack); // also proves the worker runs
      const seeker = await signIn(stack, seekerUser);
      const setup = await bookableMentor(stack);
      const anonymous = client(stack.baseUrl);
      const requests = [
        ['GET /api/mentors', () => anonymous.get('/api/mentors')],
        ['GET /api/auth/user', () => seeker.get('/api/auth/user')],
        ['POST /api/user/favorites/{id}', () => seeker.post(`/api/user/favorites/${setup.mentor.id}`)],
        ['GET /api/mentors/{id}', () => anonymous.get(`/api/mentors/${setup.mentor.id}`)],
      ];

      // Load: LOAD_CLIENTS loops of requests until told to stop; every answer is kept.
      const answers = [];
      loading = true;
      const loops = Array.from({ length: LOAD_CLIENTS }, async (_, i) => {
        let n = i;
        while (loading) {
          const [label, send] = requests[n % requests.length];
          n += 1;
          answers.push(
            await timed(label, () =>
              Promise.race([send(), new Promise((_, no) => setTimeout(() => no(new Error('client timeout')), 15_000))]),
            ),
          );
        }
      });

      await until(
        'some answers before the outage',
        () => answers.filter((a) => a.status === 200).length >= LOAD_CLIENTS,
      );
      await server.stop();
      const downAt = Date.now();
      // The deliberate outage; the load keeps running meanwhile.
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      const outage = answers.filter((a) => a.startedAt >= downAt && a.endedAt <= Date.now());
      // A registration during the outage is refused the same way (and sends no mail later).
      const lost = {
        email: `outage.${Date.now()}@example.com`,
        password: 'correct-horse-42',
        firstName: 'Out',
        lastName: 'Age',
      };
      const refused = await timed('POST /api/register', () => client(stack.baseUrl).post('/api/register', lost));
      assert.ok(stack.workersRunning[0], 'the worker exited during the outage');
      await server.start();
      const upAt = Date.now();

      assert.ok(outage.length >= LOAD_CLIENTS, `too few answers during the outage: ${outage.length}`);
      // A public catalogue page may still come from an api process's memory in the moment before
      // it notices its change listener has lost the database; nothing can change while the database
      // is down, so such an answer must be exactly the one given before the outage.
      const before = new Map(
        answers.filter((a) => a.endedAt < downAt && a.status === 200).map((a) => [a.label, a.text]),
      );
      const fromMemory = (a) => CATALOGUE_READS.includes(a.label) && a.status === 200 && a.text === before.get(a.label);
      for (const a of [...outage, refused].filter((x) => !fromMemory(x))) {
        assert.equal(a.status, 503, `${a.label} during the outage: ${a.status} ${a.text}`);
        assert.deepEqual(a.body, { code: 'unavailable', message: UNAVAILABLE }, `${a.label}: ${a.text}`);
        assert.ok(a.ms <= MAX_ANSWER_MS, `${a.label} took ${a.ms} ms during the outage`);
      }

      // Recovery: the api answers 200 by itself, within a bounded time.
      await until(
        'GET /api/mentors to answer 200 after the restart',
        async () => (await anonymous.get('/api/mentors')).status === 200,
        30_000,
        200,
      );
      await until(
        'a signed-in call to answer 200 after the restart',
        async () => (await seeker.get('/api/auth/user')).status === 200,
        30_000,
        200,
      );
      const recoveredAt = Date.now();
      loading = false;
      await Promise.all(loops);

      // Nothing was ever a 500, a non-JSON error or a dropped connection; nothing hung.
      for (const a of answers) {
        assert.ok([200, 503].includes(a.status), `${a.label}: ${a.status} ${a.text}`);
        if (a.status === 503) {
          assert.equal(a.body?.message, UNAVAILABLE, `${a.label}: ${a.text}`);
          assert.doesNotMatch(a.text, INTERNALS);
        }
        assert.ok(a.ms <= MAX_ANSWER_MS, `${a.label} took ${a.ms} ms`);
      }
      // Answers that started well after recovery are all fine.
      const lateFailures = answers.filter((a) => a.startedAt > recoveredAt && a.status !== 200);
      assert.deepEqual(lateFailures, [], 'failures after recovery');
      assert.ok(recoveredAt - upAt < 30_000);

      // The worker resumes: a registration after the outage gets its verification mail...
      const fresh = await register(stack);
      await stack.waitForMail(mailTo(fresh.email, VERIFY_SUBJECT), 30_000);
      assert.equal((await stack.mails()).filter(mailTo(lost.email)).length, 0, 'the refused registration sent mail');

      // ...and a reservation's expiry, brought forward to now, releases the hold.
      const held = await reserve(seeker, setup, startIn(40));
      const db = new pg.Client({ connectionString: stack.databaseUrl });
      await db.connect();
      try {
        await db.query("UPDATE bookings SET hold_expires_at = now() - interval '1 second' WHERE id = $1", [
          held.reservation.id,
        ]);
        const { rowCount } = await db.query(
          "UPDATE apalis.jobs SET run_at = now() WHERE job_type = 'reservation_expiry' AND status = 'Pending' AND convert_from(job, 'UTF8') LIKE '%' || $1 || '%'",
          [held.reservation.id],
        );
        assert.equal(rowCount, 1, 'one pending expiry task for the hold');
        await until(
          'the worker to release the hold',
          async () => {
            const { rows } = await db.query('SELECT status FROM bookings WHERE id = $1', [held.reservation.id]);
            return rows[0].status === 'expired';
          },
          30_000,
        );
      } finally {
        await db.end();
      }
      const gone = await seeker.get(`/api/reservations/${held.reservation.id}`);
      assert.equal(gone.status, 404, show(gone));
      assert.ok(stack.workersRunning[0], 'the worker is still running');
      assert.ok(stack.apisRunning[0], 'the api is still running');
    },
  );
});

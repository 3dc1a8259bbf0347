// Each e-mail goes out once per task (issue 37, §4), although apalis runs a task at least once: a
// worker killed or cut off from the database before it marked a task done runs it again. The chaos
// soak saw a "Booking cancelled" mail twice that way. Here the e-mail task of a cancellation is run
// again after it was done (its row in `apalis.jobs` set back to Pending, as a re-queued task is):
// no second mail. A mail claimed but never marked sent (the worker died between the two) is sent
// by the next run, with the first one's Message-ID. And a second request (two password resets) is
// another task: two mails.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, RESET_SUBJECT, signIn } from '../harness/accounts.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

let stack;
let db;

before(async () => {
  stack = await startStack();
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

/** The e-mail tasks of `kind` whose payload has `field` = `value`, oldest first. */
async function emailTasks(kind, field, value) {
  const { rows } = await db.query(
    `SELECT id, status, done_at FROM apalis.jobs
     WHERE job_type = 'emails' AND convert_from(job, 'UTF8')::jsonb->>'kind' = $1
       AND convert_from(job, 'UTF8')::jsonb->>$2 = $3
     ORDER BY id`,
    [kind, field, value],
  );
  return rows;
}

async function doneTask(kind, field, value) {
  return until(`the ${kind} task to be done`, async () => {
    const [task] = await emailTasks(kind, field, value);
    return task?.status === 'Done' ? task : null;
  });
}

/** Runs the task `id` again, as apalis does with a task whose worker died before marking it done. */
async function runAgain(id) {
  const { rowCount } = await db.query(
    `UPDATE apalis.jobs SET status = 'Pending', lock_by = NULL, lock_at = NULL, done_at = NULL,
            run_at = now() - interval '1 second'
     WHERE id = $1 AND status = 'Done'`,
    [id],
  );
  assert.equal(rowCount, 1);
  await until('the task to run again and be done', async () => {
    const { rows } = await db.query('SELECT status, done_at FROM apalis.jobs WHERE id = $1', [id]);
    return rows[0].status === 'Done' && rows[0].done_at !== null;
  });
}

const messageId = (mail) => mail.headers.find((h) => h.key === 'message-id')?.value;
const mailsTo = async (email, subject) =>
  (await stack.mails()).filter(
    (m) => m.toList.some((to) => to.toLowerCase() === email.toLowerCase()) && m.subject.startsWith(subject),
  );
const workerSays = async (text) => (await readFile(stack.logs.worker, 'utf8')).split(text).length - 1;

describe('each e-mail once per task', () => {
  it('a cancellation whose task runs again sends no second mail; an unmarked one goes again with its Message-ID', async () => {
    const m = await bookableMentor(stack);
    const user = await createVerifiedUser(stack);
    const seeker = await signIn(stack, user);
    const held = await reserve(seeker, m, startIn(72));
    const booking = await pay(seeker, held.reservation.id, user);
    const cancel = await seeker.put(`/api/user/bookings/${booking.id}/cancel`, { acknowledgePolicy: true });
    assert.equal(cancel.status, 200, show(cancel));

    const task = await doneTask('booking_cancelled', 'booking_id', booking.id);
    const subject = 'Booking cancelled';
    const [toSeeker] = await until('both cancellation mails', async () => {
      const [s, mm] = [await mailsTo(user.email, subject), await mailsTo(m.user.email, subject)];
      return s.length && mm.length ? [s, mm] : null;
    });
    assert.equal((await mailsTo(user.email, subject)).length, 1);
    assert.equal((await mailsTo(m.user.email, subject)).length, 1);
    const { rows: sends } = await db.query(
      'SELECT kind, seq, sent_at IS NOT NULL AS sent FROM email_sends WHERE task_id = $1 ORDER BY seq',
      [task.id],
    );
    assert.deepEqual(sends, [
      { kind: 'booking_cancelled', seq: 0, sent: true },
      { kind: 'booking_cancelled', seq: 0, sent: true },
    ]);

    const skippedBefore = await workerSays('already sent');
    await runAgain(task.id);
    assert.equal((await mailsTo(user.email, subject)).length, 1, 'no second mail to the seeker');
    assert.equal((await mailsTo(m.user.email, subject)).length, 1, 'no second mail to the mentor');
    await until(
      'the worker to log both skipped mails',
      async () => (await workerSays('already sent')) >= skippedBefore + 2,
    );

    // The seeker's mail claimed by a run that died before marking it sent, its claim over: the next
    // run sends it (the mentor's is still marked sent), with the same Message-ID as before.
    const unmarked = await db.query(
      `UPDATE email_sends SET sent_at = NULL, claimed_until = now() - interval '1 second'
       WHERE task_id = $1 AND recipient_digest = sha256(convert_to(lower($2), 'UTF8'))`,
      [task.id, user.email],
    );
    assert.equal(unmarked.rowCount, 1);
    await runAgain(task.id);
    const again = await mailsTo(user.email, subject);
    assert.equal(again.length, 2, 'the unmarked mail is sent again');
    assert.equal(messageId(again[1]), messageId(toSeeker[0]), 'with the same Message-ID');
    assert.equal((await mailsTo(m.user.email, subject)).length, 1);
    const { rows } = await db.query(
      'SELECT count(*)::int AS n FROM email_sends WHERE task_id = $1 AND sent_at IS NULL',
      [task.id],
    );
    assert.equal(rows[0].n, 0, 'every mail of the task is marked sent');
  });

  it('a second password-reset request sends a second mail, each with its own Message-ID', async () => {
    const user = await createVerifiedUser(stack);
    const c = client(stack.baseUrl);
    for (let i = 0; i < 2; i++) {
      const res = await c.post('/api/forgot-password', { email: user.email });
      assert.equal(res.status, 200, show(res));
    }
    const mails = await until('two reset mails', async () => {
      const found = await mailsTo(user.email, RESET_SUBJECT);
      return found.length === 2 ? found : null;
    });
    assert.notEqual(messageId(mails[0]), messageId(mails[1]));
    const { rows } = await db.query(
      `SELECT count(DISTINCT task_id)::int AS tasks, count(*)::int AS mails FROM email_sends
       WHERE kind = 'reset_password' AND recipient_digest = sha256(convert_to(lower($1), 'UTF8')) AND sent_at IS NOT NULL`,
      [user.email],
    );
    assert.deepEqual(rows[0], { tasks: 2, mails: 2 });
  });
});

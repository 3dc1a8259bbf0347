// Mails per recipient, over real SMTP: at most 3 password-reset mails an hour go to one account
// (domain::accounts::email_links::MAX_RESET_MAILS_PER_RECIPIENT), and at most 3 re-sent verification
// mails (MAX_VERIFICATION_MAILS_PER_RECIPIENT), whatever addresses ask. Every request is answered the
// same, so the limit tells nobody whether the account exists.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { register } from '../harness/accounts.mjs';
import { client, show } from '../harness/client.mjs';
import { smtpFake } from '../harness/smtp.mjs';
import { freePort, startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const MAX_PER_RECIPIENT = 3;
const REQUESTS = 6;

let stack;
let smtp;
let db;

before(async () => {
  smtp = smtpFake(await freePort());
  await smtp.start();
  stack = await startStack({ env: { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url, TRUST_PROXY: 'true' } });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
  await smtp?.stop();
});

/** Every e-mail task has run: nothing queued, waiting or running. */
async function mailDrained() {
  await until('every e-mail task to finish', async () => {
    const { rows } = await db.query(
      "SELECT count(*)::int AS n FROM apalis.jobs WHERE job_type = 'emails' AND status NOT IN ('Done', 'Failed', 'Killed', 'Discarded')",
    );
    return rows[0].n === 0;
  });
}

const mailsTo = (email) => smtp.messages.filter((m) => m.to.some((to) => to.includes(email)));

async function askFromManyAddresses(path, email) {
  const c = client(stack.baseUrl);
  const answers = [];
  for (let i = 1; i <= REQUESTS; i++) {
    const res = await c.post(path, { email }, { headers: { 'x-forwarded-for': `203.0.113.${i}` } });
    assert.equal(res.status, 200, `request ${i}: ${show(res)}`);
    answers.push(res.body);
  }
  for (const a of answers) assert.deepEqual(a, answers[0], 'every answer is the same');
}

describe('mails per recipient', () => {
  it(`forgot-password sends at most ${MAX_PER_RECIPIENT} reset mails to one account, answering every request the same`, async () => {
    const user = await register(stack);
    await db.query('UPDATE users SET email_verified = true WHERE lower(email) = lower($1)', [user.email]);
    await mailDrained();
    const before = mailsTo(user.email).length;
    await askFromManyAddresses('/api/forgot-password', user.email);
    await mailDrained();
    const resets = mailsTo(user.email).slice(before);
    assert.equal(resets.length, MAX_PER_RECIPIENT, `reset mails delivered: ${resets.length}`);
    for (const m of resets) assert.match(m.raw, /Reset your password/);
  });

  it(`resend-verification sends at most ${MAX_PER_RECIPIENT} verification mails to one account`, async () => {
    const user = await register(stack);
    await mailDrained();
    const before = mailsTo(user.email).length;
    assert.equal(before, 1, 'the sign-up mail');
    await askFromManyAddresses('/api/resend-verification', user.email);
    await mailDrained();
    assert.equal(mailsTo(user.email).length - before, MAX_PER_RECIPIENT);
  });
});

// The job console in the browser, against the real api and worker sending mail over SMTP: while the
// SMTP server is down, a password-reset e-mail uses all its attempts and shows on /admin/jobs as
// failed with its error; once the server is back, the admin retries it from the page (with a
// confirmation) and the mail arrives, the task done. Screenshots: tests/artifacts/job-console-*.png.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect } from '@playwright/test';
import pg from 'pg';
import { register, signIn } from '../harness/accounts.mjs';
import { client } from '../harness/client.mjs';
import { smtpFake } from '../harness/smtp.mjs';
import { freePort, startStack } from '../harness/stack.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

/** An e-mail task tries 5 times with backoff from 2 s (jobs::email::MAX_ATTEMPTS, Settings). */
const ALL_ATTEMPTS_MS = 120_000;

const test = base.extend({
  smtp: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const smtp = smtpFake(await freePort());
      await use(smtp);
      await smtp.stop();
    },
    { scope: 'worker' },
  ],
  stack: [
    async ({ smtp }, use) => {
      const stack = await startStack({ env: { MAIL_TRANSPORT: 'smtp', SMTP_URL: smtp.url } });
      try {
        await use(stack);
      } finally {
        await stack.stop();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ stack }, use) => {
    await use(stack.baseUrl);
  },
});

/** A registered user, verified and (for `admin`) made an administrator in the database. */
async function user(stack, firstName, { admin = false } = {}) {
  const u = await register(stack, { firstName });
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    await db.query('UPDATE users SET email_verified = true, is_admin = $2 WHERE lower(email) = lower($1)', [
      u.email,
      admin,
    ]);
  } finally {
    await db.end();
  }
  return u;
}

test('an admin retries a failed e-mail task once the SMTP server is back', async ({ page, stack, smtp }) => {
  test.setTimeout(ALL_ATTEMPTS_MS + 90_000);
  const admin = await signIn(stack, await user(stack, 'Root', { admin: true }));
  const seeker = await user(stack, 'Seeker');
  const res = await client(stack.baseUrl).post('/api/forgot-password', { email: seeker.email });
  expect(res.status).toBe(200);
  await page.context().addCookies([
    { name: 'sid', value: admin.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);

  // The admin page links to the console.
  await page.goto('/admin');
  await page.getByRole('link', { name: 'Jobs' }).click();
  await expect(page).toHaveURL(/\/admin\/jobs$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Job Console' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Queues' }).getByRole('row', { name: /^emails/ })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'payout_batch' })).toBeVisible();
  await expect(page.getByRole('cell', { name: '0 0 6 * * Mon' })).toBeVisible();
  // Times read as everywhere else ('MMM dd, yyyy h:mm a'), not the locale's '11/27/2026, 9:33:41 PM'.
  const batchRow = page.getByRole('table', { name: 'Schedules' }).getByRole('row', { name: /payout_batch/ });
  await expect(batchRow).toContainText(/[A-Z][a-z]{2} \d{2}, \d{4} \d{1,2}:\d{2} [AP]M/);
  await expect(batchRow).not.toContainText(/\d{1,2}\/\d{1,2}\/\d{4}|:\d{2}:\d{2}/);

  // Failed e-mail tasks only.
  await page.getByLabel('Queue', { exact: true }).selectOption('emails');
  await page.getByLabel('State', { exact: true }).selectOption('failed');
  const task = page.locator('[data-state="failed"]').filter({ hasText: 'emails' }).first();
  await expect(task).toBeVisible({ timeout: ALL_ATTEMPTS_MS });
  await expect(task.getByTestId('job-error')).toContainText(/SMTP/i);
  await expect(task).toContainText('attempts 5/5');
  await task.getByRole('button', { name: 'Show payload' }).click();
  await expect(task.getByLabel('Payload')).toContainText('"kind": "reset_password"');
  const id = await task.getAttribute('data-job-id');
  const failedRow = page.getByRole('table', { name: 'Queues' }).getByRole('row', { name: /^emails/ });
  await expect(failedRow.locator('[data-figure="failed"]')).not.toHaveText('0');
  await shot(page, 'job-console-01-failed');

  // The SMTP server comes back; the admin retries, confirming first.
  await smtp.start();
  await task.getByRole('button', { name: 'Retry' }).click();
  const dialog = page.getByRole('dialog', { name: 'Retry task' });
  await expect(dialog).toContainText(id);
  await dialog.getByRole('button', { name: 'Retry' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => smtp.messages.filter((m) => m.to.includes(seeker.email)).length, { timeout: 30_000 }).toBe(1);

  await page.getByLabel('State', { exact: true }).selectOption('done');
  await expect(page.locator(`[data-job-id="${id}"]`)).toHaveAttribute('data-state', 'done', { timeout: 15_000 });
  await shot(page, 'job-console-02-done');
});

// When a session goes wrong, in the browser against the real api (serving web/dist) and worker: a
// seeker calls their mentor from the session in vain, reports a no-show and sees the full refund;
// another seeker reports a problem, the mentor answers it on their dashboard, an admin decides a
// partial refund on the Complaints tab, and the seeker downloads both receipts (payment and refund).
// Times move in SQL. Screenshots: tests/artifacts/complaints-*.png.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { makeAdmin } from '../harness/admin.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { test, expect, createVerifiedUser, signIn } from '../harness/fixtures.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

/** A page of its own browser context, signed in through `c`. */
async function pageOf(browser, stack, c) {
  const context = await browser.newContext({
    baseURL: stack.baseUrl,
    locale: 'en-US',
    timezoneId: 'UTC',
    permissions: ['camera', 'microphone'],
    acceptDownloads: true,
  });
  await context.addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
  return { context, page: await context.newPage() };
}

test('a no-show refunded at once; a problem answered and partly refunded; both receipts downloaded', async ({
  browser,
  stack,
}) => {
  test.setTimeout(240_000);
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const contexts = [];
  const startedAgo = (id, minutes) =>
    db.query(
      `UPDATE bookings SET scheduled_at = now() - make_interval(mins => $2), earliest_scheduled_at = now() - make_interval(mins => $2),
              ends_at = now() - make_interval(mins => $2) + interval '60 minutes' WHERE id = $1`,
      [id, minutes],
    );
  try {
    const mentor = await bookableMentor(stack);

    // --- A seeker calls in vain, then reports a no-show --------------------------------------------
    const ann = await createVerifiedUser(stack, { firstName: 'Ann', lastName: 'Seeker' });
    const annClient = await signIn(stack, ann);
    const held = await reserve(annClient, mentor, startIn(3));
    const booking = await pay(annClient, held.reservation.id, ann);
    await startedAgo(booking.id, 20);
    const a = await pageOf(browser, stack, annClient);
    contexts.push(a.context);
    await a.page.goto('/dashboard');
    const card = a.page.getByRole('article', { name: /Hour reading/ });
    await card.getByRole('link', { name: 'Start Video Session' }).click();
    await expect(a.page).toHaveURL(/startCall=true/);
    await expect
      .poll(
        async () =>
          (await db.query('SELECT count(*)::int AS n FROM calls WHERE booking_id = $1', [booking.id])).rows[0].n,
        {
          timeout: 30_000,
        },
      )
      .toBe(1);
    // Nobody answers; the seeker goes back to the dashboard and reports it.
    await a.page.goto('/dashboard');
    await card.getByRole('button', { name: 'Report a problem' }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Report a problem' });
    await dialog.getByLabel('What went wrong?').selectOption('mentor_no_show');
    await dialog.getByRole('button', { name: 'Send report' }).click();
    // Refunded in full, the session is cancelled: it moves to the history.
    await expect(dialog).toBeHidden();
    await a.page.getByRole('tab', { name: 'Session History' }).click();
    await expect(card.getByText('Problem reported: resolved')).toBeVisible();
    await expect(card.getByText('Full refund: $30.00')).toBeVisible();
    await expect(async () => {
      await a.page.reload();
      await a.page.getByRole('tab', { name: 'Session History' }).click();
      await expect(a.page.getByText('Mentor no-show: $30.00, refunded')).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    await shot(a.page, 'complaints-01-no-show-refunded');

    // --- Another seeker reports a problem with a session that ended an hour ago --------------------
    const bea = await createVerifiedUser(stack, { firstName: 'Bea', lastName: 'Seeker' });
    const beaClient = await signIn(stack, bea);
    const held2 = await reserve(beaClient, mentor, startIn(5));
    const booking2 = await pay(beaClient, held2.reservation.id, bea);
    await startedAgo(booking2.id, 120);
    const b = await pageOf(browser, stack, beaClient);
    contexts.push(b.context);
    await b.page.goto('/dashboard');
    await b.page.getByRole('tab', { name: 'Session History' }).click();
    const card2 = b.page.getByRole('article', { name: /Hour reading/ });
    await card2.getByRole('button', { name: 'Report a problem' }).click();
    const dialog2 = b.page.getByRole('dialog', { name: 'Report a problem' });
    await dialog2.getByLabel('What went wrong?').selectOption('technical_problem');
    await dialog2.getByLabel('Details').fill('The sound kept dropping for half of the session.');
    await dialog2.getByRole('button', { name: 'Send report' }).click();
    await expect(dialog2).toBeHidden();
    await expect(card2.getByText('Problem reported: waiting for a decision')).toBeVisible();

    // --- The mentor answers on their dashboard ------------------------------------------------------
    const m = await pageOf(browser, stack, mentor.c);
    contexts.push(m.context);
    await m.page.goto('/mentor-dashboard');
    const reported = m.page.getByRole('region', { name: 'Reported problems' });
    const complaint = reported.getByRole('article').filter({ hasText: 'Bea Seeker' });
    await complaint.getByLabel('Your answer').fill('My line was unstable; I am sorry.');
    await complaint.getByRole('button', { name: 'Send answer' }).click();
    await expect(complaint.getByText('Your answer: My line was unstable; I am sorry.')).toBeVisible();
    await shot(m.page, 'complaints-02-mentor-answered');

    // --- An admin decides a partial refund -----------------------------------------------------------
    const admin = await createVerifiedUser(stack, { firstName: 'Ada', lastName: 'Admin' });
    await makeAdmin(stack, admin.email);
    const ad = await pageOf(browser, stack, await signIn(stack, admin));
    contexts.push(ad.context);
    await ad.page.goto('/admin');
    await ad.page.getByRole('tab', { name: 'Complaints' }).click();
    const item = ad.page.getByRole('article').filter({ hasText: bea.email });
    await expect(item.getByText("Mentor's answer: My line was unstable; I am sorry.")).toBeVisible();
    await item.getByLabel('Note (required)').fill('Half of the session was lost to the sound.');
    await item.getByLabel('Partial amount ($)').fill('12.50');
    await item.getByRole('button', { name: 'Partial refund' }).click();
    // Decided, it leaves the open queue.
    await expect(item).toHaveCount(0);
    await shot(ad.page, 'complaints-03-admin-decided');

    await b.page.reload();
    await b.page.getByRole('tab', { name: 'Session History' }).click();
    await expect(card2.getByText('Problem reported: resolved')).toBeVisible();
    await expect(card2.getByText(/Partial refund: \$12\.50/)).toBeVisible();

    // --- The seeker downloads both receipts --------------------------------------------------------
    await expect(async () => {
      await b.page.goto('/receipts');
      await expect(b.page.getByRole('article', { name: /^Receipt MM-/ })).toHaveCount(2, { timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    await shot(b.page, 'complaints-04-receipts');
    for (const receipt of await b.page.getByRole('article', { name: /^Receipt MM-/ }).all()) {
      const number = (await receipt.getAttribute('aria-label')).replace('Receipt ', '');
      const [download] = await Promise.all([
        b.page.waitForEvent('download'),
        receipt.getByRole('link', { name: /Download PDF/ }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`receipt-${number}.pdf`);
      const file = path.join(artifacts, `complaints-${number}.pdf`);
      await download.saveAs(file);
      const bytes = await import('node:fs/promises').then((fs) => fs.readFile(file));
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    }
  } finally {
    for (const c of contexts) await c.close();
    await db.end();
  }
});

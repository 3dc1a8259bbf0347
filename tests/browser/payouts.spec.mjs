// Payouts in the browser, against the real api (serving web/dist) and worker: a mentor with two
// completed paid sessions saves payout preferences in the dashboard's Payouts tab; an admin runs
// the payout batch from /admin/payouts (the worker builds it), copies the mentor's recipient
// ('Copied!'), and the mentor sees the pending earnings; the admin marks the payout paid through
// the confirm dialog and finds it in Payout History. A seeker gets 'Access Denied' there.
// Screenshots: tests/artifacts/payouts-*.png.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { test, expect, createVerifiedUser, signIn, show } from '../harness/fixtures.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

/** A page of its own browser context, signed in as `user`. */
async function pageAs(browser, stack, user) {
  const context = await browser.newContext({ baseURL: stack.baseUrl, locale: 'en-US' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.baseUrl });
  const c = await signIn(stack, user);
  await context.addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
  return { page: await context.newPage(), context, c };
}

function startIn(hours) {
  const t = Date.now() + hours * 3_600_000;
  return new Date(Math.floor(t / 3_600_000) * 3_600_000).toISOString();
}

test('an admin runs the batch, copies the recipient and marks the payout paid; the mentor sees the earnings', async ({
  browser,
  stack,
}) => {
  test.setTimeout(180_000);
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const contexts = [];
  try {
    // --- A mentor with two paid sessions, completed last week and the week before -------------
    const mentorUser = await createVerifiedUser(stack, { firstName: 'Selene', lastName: 'Moonstone' });
    const mc = await signIn(stack, mentorUser);
    let res = await mc.post('/api/mentors', {
      displayName: 'Selene Moonstone',
      bio: 'Tarot reader and energy healer for a decade, guiding seekers through change with gentle clarity.',
      specialties: ['Tarot Reading'],
      basePrice: '40.00',
      timeZone: 'UTC',
      minimumNoticeMinutes: 0,
    });
    if (res.status !== 201) throw new Error(show(res));
    const mentor = res.body;
    for (let day = 0; day < 7; day += 1)
      await mc.post('/api/mentor/availability', { dayOfWeek: day, startTime: '00:00', endTime: '24:00' });
    res = await mc.post('/api/services', {
      title: 'Tarot hour',
      description: 'A full hour of tarot reading and guidance.',
      serviceType: 'tarot',
      price: '40.00',
      duration: 60,
    });
    if (res.status !== 201) throw new Error(show(res));
    const service = res.body;
    const seeker = await createVerifiedUser(stack, { firstName: 'Sam', lastName: 'Seeker' });
    const sc = await signIn(stack, seeker);
    for (const [i, hours] of [30, 40].entries()) {
      const held = await sc.post('/api/reservations', {
        serviceId: service.id,
        mentorId: mentor.id,
        scheduledAt: startIn(hours),
        totalAmount: '40.00',
      });
      if (held.status !== 201) throw new Error(show(held));
      const paid = await sc.post('/api/process-payment-v2', {
        reservationId: held.body.reservation.id,
        cardNumber: '4111111111111111',
        expirationDate: '1230',
        cardCode: '123',
        billingInfo: { firstName: 'Sam', lastName: 'Seeker', zip: '10001' },
      });
      if (paid.status !== 200) throw new Error(show(paid));
      await db.query(
        `UPDATE bookings SET scheduled_at = now() - $2::interval - interval '1 hour', ends_at = now() - $2::interval,
           status = 'completed', completed_at = now() WHERE id = $1`,
        [paid.body.booking.id, `${7 * (i + 1)} days`],
      );
    }
    const adminUser = await createVerifiedUser(stack, { firstName: 'Ada', lastName: 'Admin' });
    await db.query('UPDATE users SET is_admin = true WHERE lower(email) = lower($1)', [adminUser.email]);

    // --- The mentor saves payout preferences ---------------------------------------------------
    const m = await pageAs(browser, stack, mentorUser);
    contexts.push(m.context);
    await m.page.goto('/mentor-dashboard');
    await m.page.getByRole('tab', { name: 'Payouts' }).click();
    await expect(m.page.getByTestId('next-payout')).toHaveText('$68.00');
    await m.page.getByLabel('Payout Method').selectOption('venmo');
    await m.page.getByRole('button', { name: 'Save Payout Settings' }).click();
    await expect(m.page.getByText('Please enter your Venmo username')).toBeVisible();
    await m.page.getByLabel('Venmo Username').fill('@selene-moon');
    await m.page.getByLabel('Minimum Payout (USD)').fill('25.00');
    await m.page.getByRole('button', { name: 'Save Payout Settings' }).click();
    await expect(m.page.getByText('Payout settings saved')).toBeVisible();
    await expect(m.page.getByText('Your payout preferences have been updated successfully.')).toBeVisible();
    await shot(m.page, 'payouts-mentor-settings');

    // --- A seeker is refused the admin page -----------------------------------------------------
    const s = await pageAs(browser, stack, seeker);
    contexts.push(s.context);
    await s.page.goto('/admin/payouts');
    await expect(s.page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    await expect(s.page.getByText("You don't have permission to access admin payouts.")).toBeVisible();

    // --- The admin runs the batch; the worker builds the payout ---------------------------------
    const a = await pageAs(browser, stack, adminUser);
    contexts.push(a.context);
    await a.page.goto('/admin/payouts');
    await expect(a.page.getByRole('heading', { name: 'No pending payouts at this time' })).toBeVisible();
    await a.page.getByRole('button', { name: 'Run payout batch now' }).click();
    await expect(a.page.getByText('Payout batch queued')).toBeVisible();
    const card = a.page.getByRole('article', { name: 'Payout for Selene Moonstone' });
    await expect(card).toBeVisible({ timeout: 30_000 });
    await expect(a.page.getByRole('tab', { name: 'Pending Payouts (1)' })).toBeVisible();
    await expect(a.page.getByText('Across 1 mentor', { exact: true })).toBeVisible();
    await expect(card.getByText('Selene Moonstone · ' + mentorUser.email)).toBeVisible();
    await expect(card.getByText('−$12.00')).toBeVisible();
    await expect(card.getByText('$68.00')).toBeVisible();
    await card.getByRole('button', { name: 'Copy @selene-moon' }).click();
    await expect(card.getByRole('button', { name: 'Copied!' })).toBeVisible();
    expect(await a.page.evaluate(() => navigator.clipboard.readText())).toBe('@selene-moon');
    await shot(a.page, 'payouts-admin-pending');

    // --- The mentor sees the pending payout -----------------------------------------------------
    await m.page.reload();
    await m.page.getByRole('tab', { name: 'Payouts' }).click();
    await expect(m.page.getByTestId('pending-payout')).toHaveText('$68.00');
    await expect(m.page.getByTestId('next-payout')).toHaveText('$0.00');

    // --- The admin marks it paid and finds it in the history ----------------------------------
    await card.getByRole('button', { name: 'Mark as Paid' }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Confirm Payout' });
    await expect(dialog.getByText('Please confirm that you have sent the payment to this mentor.')).toBeVisible();
    await expect(dialog.getByText('@selene-moon')).toBeVisible();
    await dialog.getByPlaceholder('Transaction ID or confirmation number').fill('VENMO-123');
    await dialog.getByRole('button', { name: 'Confirm Payment Sent' }).click();
    await expect(a.page.getByText('Payout processed')).toBeVisible();
    await expect(a.page.getByText('Payout marked as paid')).toBeVisible();
    await expect(a.page.getByRole('heading', { name: 'No pending payouts at this time' })).toBeVisible();
    await a.page.getByRole('tab', { name: 'Payout History' }).click();
    const row = a.page.getByRole('row', { name: /Selene Moonstone/ });
    await expect(row).toContainText('Venmo');
    await expect(row).toContainText('@selene-moon');
    await expect(row).toContainText('$68.00');
    await shot(a.page, 'payouts-admin-history');

    await m.page.reload();
    await m.page.getByRole('tab', { name: 'Payouts' }).click();
    await expect(m.page.getByTestId('pending-payout')).toHaveText('$0.00');
    await expect(m.page.getByText(/· Venmo/)).toBeVisible();
  } finally {
    for (const c of contexts) await c.close();
    await db.end();
  }
});

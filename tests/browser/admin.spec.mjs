// The admin dashboard in the browser, against the real api and worker: an administrator (made in the
// database, as an operator would) opens /admin, sees the platform figures, deactivates a seeker (whose
// open session in another browser ends at once and whose sign-in is then refused), activates them again
// (they can sign in), and looks at the Mentors and Bookings tabs; a seeker gets 'Access Denied'.
// Screenshots: tests/artifacts/admin-*.png.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect, createVerifiedUser, signIn } from '../harness/fixtures.mjs';
import { createAdmin } from '../harness/admin.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

/** Signs the page in with the session cookie of an api sign-in (the UI sign-in is auth.spec's). */
async function signInPage(page, stack, c) {
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
}

async function signInThroughUi(page, user) {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test('an admin sees the figures, deactivates a user (their session ends, sign-in refused) and activates them again', async ({
  page,
  browser,
  stack,
}) => {
  test.setTimeout(120_000);
  const admin = await createAdmin(stack);
  const target = await createVerifiedUser(stack, { firstName: 'Vega', lastName: 'Wanderer' });
  await signInPage(page, stack, admin.c);

  // The target is signed in elsewhere, on their dashboard.
  const other = await browser.newContext();
  const targetPage = await other.newPage();
  await signInPage(targetPage, stack, await signIn(stack, target));
  await targetPage.goto(`${stack.baseUrl}/dashboard`);
  await expect(targetPage.getByRole('heading', { level: 1 })).toBeVisible();

  // --- The figures ----------------------------------------------------------------------------------
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
  const stats = (await admin.c.get('/api/admin/stats')).body;
  const figures = page.getByLabel('Platform stats');
  await expect(figures).toContainText(`Total Users${stats.totalUsers}`);
  await expect(figures).toContainText(`Total Mentors${stats.totalMentors}`);
  await expect(figures).toContainText(`Total Bookings${stats.totalBookings}`);
  await expect(figures).toContainText(`Total Revenue$${stats.totalRevenue}`);
  await expect(page.getByRole('link', { name: 'Payouts' })).toHaveAttribute('href', '/admin/payouts');
  await expect(page.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
  // Nobody can deactivate themself.
  await expect(page.getByRole('button', { name: `Deactivate ${admin.user.email}` })).toBeDisabled();
  await shot(page, 'admin-01-users');

  // --- Deactivate -----------------------------------------------------------------------------------
  await page.getByRole('button', { name: `Deactivate ${target.email}` }).click();
  await expect(page.getByText('User deactivated')).toBeVisible();
  await expect(page.getByRole('button', { name: `Activate ${target.email}` })).toBeVisible();
  await shot(page, 'admin-02-deactivated');
  // Their session is over: the other browser is signed out on its next page.
  await targetPage.reload();
  await expect(targetPage).toHaveURL(/\/auth/);
  await signInThroughUi(targetPage, target);
  await expect(targetPage.getByRole('alert')).toContainText(
    'Your account has been deactivated. Please contact support.',
  );
  // The inactive filter shows them.
  await page.getByLabel('Status').selectOption('false');
  await expect(page.getByRole('button', { name: `Activate ${target.email}` })).toBeVisible();

  // --- Activate again -------------------------------------------------------------------------------
  await page.getByRole('button', { name: `Activate ${target.email}` }).click();
  await expect(page.getByText('User activated')).toBeVisible();
  await signInThroughUi(targetPage, target);
  await expect(targetPage).toHaveURL(`${stack.baseUrl}/`);
  await other.close();

  // --- Mentors and Bookings tabs --------------------------------------------------------------------
  await page.getByRole('tab', { name: 'Mentors' }).click();
  await expect(page.getByRole('tabpanel')).toBeVisible();
  await page.getByRole('tab', { name: 'Bookings' }).click();
  await expect(page.getByLabel('From')).toBeVisible();
  await shot(page, 'admin-03-bookings');
});

test("a seeker sees 'Access Denied' on /admin", async ({ page, stack }) => {
  const seeker = await createVerifiedUser(stack);
  await signInPage(page, stack, await signIn(stack, seeker));
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText("You don't have permission to access the admin dashboard.")).toBeVisible();
  await expect(page.getByLabel('Platform stats')).toHaveCount(0);
  await shot(page, 'admin-04-denied');
});

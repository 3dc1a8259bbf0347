// Vetting in the browser, against the real api and worker: a new mentor finishes the onboarding
// wizard and their dashboard says the profile awaits review; a seeker searching /mentors does not
// find them; an administrator approves them in the admin page's Mentors tab; the seeker finds them
// and the mentor's banner is gone. Screenshots: tests/artifacts/vetting-*.png.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect, createVerifiedUser, signIn } from '../harness/fixtures.mjs';
import { createAdmin } from '../harness/admin.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

test.use({ timezoneId: 'UTC', locale: 'en-US' });

const MENTOR_NAME = 'Seraphine Quillmoon';

/** Signs a page in with the session cookie of an api sign-in (the UI sign-in is auth.spec's). */
async function signInPage(page, stack, c) {
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
}

/** Searches /mentors for the mentor: true once their card shows, false once 'No Mentors Found' does. */
async function seekerFinds(page) {
  await page.goto(`/mentors?search=${encodeURIComponent('Quillmoon')}`);
  const card = page.getByRole('link', { name: MENTOR_NAME });
  const none = page.getByRole('heading', { name: 'No Mentors Found' });
  await expect(card.or(none)).toBeVisible();
  return card.isVisible();
}

test('a new mentor is not listed until an admin approves them in the admin page', async ({ page, browser, stack }) => {
  test.setTimeout(150_000);

  // --- The wizard -------------------------------------------------------------------------------
  const mentorUser = await createVerifiedUser(stack, { firstName: 'Seraphine' });
  await signInPage(page, stack, await signIn(stack, mentorUser));
  await page.goto('/become-mentor');
  await expect(page.getByText('Step 1 of 4')).toBeVisible();
  await page.getByLabel('Display Name').fill(MENTOR_NAME);
  await page
    .getByLabel('Bio')
    .fill('Quill and moon: journaling rituals and tarot for people who want to hear their own voice again.');
  await page.getByRole('checkbox', { name: 'Tarot Reading' }).check();
  await page.getByLabel('Base Price (USD)').fill('35');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  await page.getByLabel('Service Title').fill('Moonlit Journal Reading');
  await page
    .getByLabel('Description', { exact: true })
    .fill('A tarot spread and journaling prompts for the week ahead.');
  await page.getByLabel('Service Type').selectOption({ label: 'Tarot' });
  await page.getByLabel('Price (USD)').fill('35');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await page.getByRole('group', { name: 'Presets' }).getByRole('button', { name: 'Weekdays 9-17' }).click();
  await page.getByRole('button', { name: 'Complete Setup' }).click();
  await expect(page.getByText('Step 4 of 4')).toBeVisible();
  await expect(page.getByText(/Our team reviews every new mentor profile/)).toBeVisible();
  await page.getByRole('link', { name: 'Go to Mentor Dashboard' }).click();

  // --- The mentor's dashboard says the profile awaits review ----------------------------------------
  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${MENTOR_NAME}!` })).toBeVisible();
  const banner = page.getByRole('region', { name: 'Profile review' });
  await expect(banner.getByRole('heading', { name: 'Your profile is awaiting review' })).toBeVisible();
  await shot(page, 'vetting-01-awaiting-review');

  // --- A seeker does not find them --------------------------------------------------------------------
  const seekerContext = await browser.newContext({ baseURL: stack.baseUrl, timezoneId: 'UTC', locale: 'en-US' });
  const adminContext = await browser.newContext({ baseURL: stack.baseUrl, timezoneId: 'UTC', locale: 'en-US' });
  try {
    const seeker = await seekerContext.newPage();
    await signInPage(seeker, stack, await signIn(stack, await createVerifiedUser(stack, { firstName: 'Orion' })));
    expect(await seekerFinds(seeker)).toBe(false);
    await shot(seeker, 'vetting-02-not-listed');

    // --- The admin approves them ----------------------------------------------------------------------
    const admin = await createAdmin(stack);
    const adminPage = await adminContext.newPage();
    await signInPage(adminPage, stack, admin.c);
    await adminPage.goto('/admin');
    await expect(adminPage.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    await adminPage.getByRole('tab', { name: 'Mentors' }).click();
    await adminPage.getByLabel('Approval').selectOption({ label: 'Awaiting review' });
    const row = adminPage.getByRole('row', { name: MENTOR_NAME });
    await expect(row.getByText('Awaiting review')).toBeVisible();
    await shot(adminPage, 'vetting-03-admin-queue');
    await row.getByRole('button', { name: `Approve ${MENTOR_NAME}` }).click();
    await expect(row).toHaveCount(0);
    await adminPage.getByLabel('Approval').selectOption({ label: 'Approved' });
    await expect(adminPage.getByRole('row', { name: MENTOR_NAME }).getByText('Approved')).toBeVisible();
    await shot(adminPage, 'vetting-04-approved');

    // --- Now the seeker finds them, and the banner is gone --------------------------------------------
    expect(await seekerFinds(seeker)).toBe(true);
    await shot(seeker, 'vetting-05-listed');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${MENTOR_NAME}!` })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Profile review' })).toHaveCount(0);
  } finally {
    await seekerContext.close();
    await adminContext.close();
  }
});

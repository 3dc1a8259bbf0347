// Download my data and delete my account in the browser (issue 35): the export is asked for, built
// by the worker and downloaded as a zip from 'Privacy and security'; deleting the account signs
// out, and signing in again shows the date with 'Keep my account', which keeps it.
import { test, expect, createVerifiedUser } from '../harness/fixtures.mjs';

test.use({ locale: 'en-US', timezoneId: 'UTC' });

async function signIn(page, user) {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).not.toHaveURL(/\/auth/);
}

test('downloads a copy of my data, then deletes the account and keeps it', async ({ page, stack }) => {
  const user = await createVerifiedUser(stack);
  await signIn(page, user);
  await page.goto('/profile#privacy-and-security');
  const section = page.locator('#privacy-and-security');

  await section.getByRole('button', { name: 'Download my data' }).click();
  const exports = section.getByRole('list', { name: 'Your data exports' });
  await expect(exports.getByText(/Being prepared|Ready/)).toBeVisible();
  const link = exports.getByRole('link', { name: 'Download' });
  await expect(link).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^mystic-mentors-data-\d{4}-\d{2}-\d{2}\.zip$/);

  const form = section.getByRole('form', { name: 'Delete my account' });
  await expect(form.getByText('you are signed out on every device at once')).toBeVisible();
  await form.getByLabel('Password').fill('not my password');
  await form.getByRole('button', { name: 'Delete my account' }).click();
  await expect(form.getByRole('alert')).toHaveText('Incorrect password.');
  await form.getByLabel('Password').fill(user.password);
  await form.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).not.toHaveURL(/\/profile/);

  await signIn(page, user);
  await page.goto('/profile#privacy-and-security');
  await expect(section.getByText(/Your account will be deleted on \w+ \d+, \d{4}/)).toBeVisible();
  await section.getByRole('button', { name: 'Keep my account' }).click();
  await expect(section.getByText(/Your account will be deleted on/)).toHaveCount(0);
  await expect(section.getByRole('form', { name: 'Delete my account' })).toBeVisible();
});

// Two-factor sign-in in the browser (issue 35): set up in 'Privacy and security' with the QR code
// and the key (the code computed here, RFC 6238), recovery codes shown, then signing in again asks
// for the second step; the session list shows this browser.
import { test, expect, createVerifiedUser } from '../harness/fixtures.mjs';
import { totp } from '../harness/totp.mjs';

test.use({ locale: 'en-US', timezoneId: 'UTC' });

async function signInWithPassword(page, user) {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test('sets up two-factor sign-in and signs in with a code', async ({ page, stack }) => {
  const user = await createVerifiedUser(stack);
  await signInWithPassword(page, user);
  await expect(page).not.toHaveURL(/\/auth/);

  await page.goto('/profile#privacy-and-security');
  const section = page.locator('#privacy-and-security');
  await expect(section.getByText('Privacy and security')).toBeVisible();
  await expect(section.getByRole('list', { name: 'Signed-in devices' }).getByText('This device')).toBeVisible();

  await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await expect(section.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await section.getByTestId('two-factor-secret').textContent()).trim();
  await section.getByLabel('Authentication code').fill(totp(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();
  const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(section.getByText('Two-factor sign-in is on.')).toBeVisible();

  await page.context().clearCookies();
  await signInWithPassword(page, user);
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeVisible();
  await code.fill(totp(secret, { steps: 1 }));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).not.toHaveURL(/\/auth/);
  await page.goto('/profile');
  await expect(page.getByText('Two-factor sign-in is on.')).toBeVisible();
});

// Accounts in the browser: register through the UI, verify through the link of the real
// verification e-mail, sign in, see the greeting, sign out. Runs against the real api (serving
// web/dist) and worker of harness/stack.mjs. Screenshots of key steps: tests/artifacts/auth-*.png.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  test,
  expect,
  createVerifiedUser,
  findLink,
  mailTo,
  uniqueEmail,
  PASSWORD,
  VERIFY_SUBJECT,
} from '../harness/fixtures.mjs';
import { createAdmin } from '../harness/admin.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

test('register, verify by e-mail, sign in, see the greeting, sign out', async ({ page, stack }) => {
  const email = uniqueEmail('browser');
  const firstName = 'Celestine';

  // Signed out, a private path leads to the sign-in screen, which remembers the way back.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard$/);

  // Create the account.
  await page.getByRole('button', { name: 'Register' }).click();
  await page.getByLabel('First Name').fill(firstName);
  await page.getByLabel('Last Name').fill('Moonwhisper');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  // Marketing e-mail is offered, unticked (issue 30).
  await expect(page.getByRole('checkbox', { name: 'Send me news, workshops and offers by e-mail' })).not.toBeChecked();
  await shot(page, 'auth-01-register-form');
  await page.getByRole('button', { name: 'Create Account' }).click();

  // The server's success message, a cleared form and the offer to resend.
  await expect(page.getByText(/check your email to verify/i)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resend verification email' })).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue('');
  await shot(page, 'auth-02-registered');

  // Signing in before verifying is refused with the server's message and a resend offer.
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toContainText(/verify your email/i);
  await expect(page.getByRole('button', { name: 'Resend verification email' })).toBeVisible();
  await shot(page, 'auth-03-unverified');

  // Open the link of the verification mail: it verifies and returns to /auth after 3 s, still on
  // the way to the page that asked to sign in (the registration carried it: issue 30).
  const mail = await stack.waitForMail(mailTo(email, VERIFY_SUBJECT), 30_000);
  const link = findLink(mail, `${stack.baseUrl}/verify-email`);
  expect(link.searchParams.get('next')).toBe('/dashboard');
  await page.goto(link.toString());
  await expect(page.getByRole('heading', { name: 'Email verified' })).toBeVisible();
  await shot(page, 'auth-04-verified');
  await expect(page).toHaveURL(/\/auth\?next=%2Fdashboard$/, { timeout: 10_000 });

  // Sign in: the app reloads at the dashboard and, this first time, says 'Welcome' (not 'back').
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(`${stack.baseUrl}/dashboard`);
  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${firstName}!` })).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${firstName}!` })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Dashboard' }),
  ).toBeVisible();
  await shot(page, 'auth-05-home');

  // Sign out from the account menu: back at /auth, and signed out for real.
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  await shot(page, 'auth-06-signed-out');
  await page.goto('/');
  await expect(page.getByRole('link', { name: /Find Your Mentor/ })).toBeVisible();

  // The second sign-in is greeted 'Welcome back'.
  await page.goto('/auth');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Welcome back, ${firstName}!` })).toBeVisible();
});

// Issue 30, item 8: a visitor's 'Become a Mentor' opens registration, and after verifying their
// address and signing in the new user is in the wizard.
test("a visitor's 'Become a Mentor' registers them and brings them back to the wizard", async ({ page, stack }) => {
  const email = uniqueEmail('mentor-to-be');
  await page.goto('/');
  await page.getByRole('link', { name: 'Become a Mentor' }).click();
  await expect(page).toHaveURL(/\/auth\?mode=register&next=%2Fbecome-mentor$/);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByLabel('First Name').fill('Vesper');
  await page.getByLabel('Last Name').fill('Starling');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByText(/check your email to verify/i)).toBeVisible();

  const mail = await stack.waitForMail(mailTo(email, VERIFY_SUBJECT), 30_000);
  await page.goto(findLink(mail, `${stack.baseUrl}/verify-email`).toString());
  await expect(page.getByRole('heading', { name: 'Email verified' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to Sign In' }).click();
  await expect(page).toHaveURL(/\/auth\?next=%2Fbecome-mentor$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/become-mentor$/);
  await expect(page.getByText('Step 1 of 4')).toBeVisible();
});

// Issue 30, item 15: an administrator signs in to the admin dashboard, not the seeker's home.
test('an administrator lands on /admin after signing in', async ({ page, stack }) => {
  const { user } = await createAdmin(stack);
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
});

test('a wrong password shows the server message in a red alert', async ({ page, stack }) => {
  const user = await createVerifiedUser(stack);
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid email or password');
  await expect(page).toHaveURL(/\/auth$/);
  await shot(page, 'auth-07-wrong-password');
});

test('signed-in routes: unknown paths show the 404 screen; public pages stay open', async ({ page, stack }) => {
  const user = await createVerifiedUser(stack, { firstName: 'Orion' });
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Orion!' })).toBeVisible();

  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText(/could not find the page you were looking for/)).toBeVisible();

  await page.goto('/help-center');
  await expect(page.getByRole('heading', { level: 1, name: 'Help Center' })).toBeVisible();
});

test('reset password page without a token explains the link is invalid', async ({ page }) => {
  await page.goto('/reset-password');
  await expect(page.getByText('Invalid reset link. Please request a new password reset.')).toBeVisible();
});

// Profile and contact in the browser, against the real api (serving web/dist) and worker:
// a signed-in user edits their name and bio and uploads a profile image that is then shown; the public
// contact form sends a message that arrives in the support outbox. Screenshots of key steps:
// tests/artifacts/profile-*.png.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect, createVerifiedUser, uniqueEmail } from '../harness/fixtures.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

// A valid 16x16 violet PNG (79 bytes).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR42mOosXpLEmIY1TCqYfhqAABPn6MQ2bsByAAAAABJRU5ErkJggg==',
  'base64',
);

/** The default SUPPORT_EMAIL of the api. */
const SUPPORT_EMAIL = 'support@mystic-mentors.test';

async function signInThroughUi(page, user) {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${user.firstName}!` })).toBeVisible();
}

/** True once the <img> has really loaded a picture (not a broken image). */
const loaded = (img) => img.evaluate((el) => el.complete && el.naturalWidth > 0);

test('edit my name and bio and upload a profile image', async ({ page, stack }) => {
  const user = await createVerifiedUser(stack, { firstName: 'Selene', lastName: 'Ashgrove' });
  await signInThroughUi(page, user);

  // Open my profile from the account menu.
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My Profile' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Selene Ashgrove' })).toBeVisible();

  // Saving without a change sends nothing.
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('No changes to save')).toBeVisible();

  // Edit the name.
  await page.getByLabel('First Name').fill('Seraphina');
  await page.getByLabel('Last Name').fill('Moonwhisper');
  await page.getByLabel('Bio').fill('Reading the stars since childhood.');
  await shot(page, 'profile-01-editing');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Profile updated successfully!')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Seraphina Moonwhisper' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Edit Profile' })).toBeVisible();

  // Upload a PNG: the photo replaces the initials and really loads from /uploads/.
  await expect(page.getByText('JPG/PNG, up to 5MB')).toBeVisible();
  await page.getByLabel('Profile image').setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByText('Profile image uploaded successfully!')).toBeVisible();
  const photo = page.locator('img[alt="Your profile photo"]');
  await expect(photo).toHaveAttribute('src', /\/uploads\//);
  await expect.poll(() => loaded(photo)).toBe(true);
  await shot(page, 'profile-02-uploaded');

  // Both changes were saved: after a reload the name and the photo are still there.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Seraphina Moonwhisper' })).toBeVisible();
  await expect(page.getByText('Reading the stars since childhood.')).toBeVisible();
  await expect(photo).toHaveAttribute('src', /\/uploads\//);
  await expect.poll(() => loaded(photo)).toBe(true);

  // The public profile shows the same.
  await page.getByRole('link', { name: 'View public profile' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Seraphina Moonwhisper' })).toBeVisible();
  const publicPhoto = page.locator(`img[alt="Seraphina Moonwhisper's profile photo"]`);
  await expect.poll(() => loaded(publicPhoto)).toBe(true);
  await expect(page.getByText('Reading the stars since childhood.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit Profile' })).toHaveAttribute('href', '/profile');
  await shot(page, 'profile-03-public');
});

test('the contact form sends a message to support, signed out', async ({ page, stack }) => {
  const subject = `Question about refunds ${Date.now().toString(36)}`;
  const email = uniqueEmail('contact');

  await page.goto('/contact');
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
  await page.getByLabel('Name').fill('Orion Vale');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Category').selectOption({ label: 'Billing & Payments' });
  await page.getByLabel('Message').fill('Hello! How long does a refund take after I cancel a session?');
  await shot(page, 'profile-04-contact-filled');
  await page.getByRole('button', { name: 'Send Message' }).click();

  await expect(page.getByText('Message Sent!')).toBeVisible();
  await expect(page.getByText("Thank you for contacting us. We'll get back to you within 24 hours.")).toBeVisible();
  await expect(page.getByLabel('Name')).toHaveValue('');
  await expect(page.getByLabel('Subject')).toHaveValue('');
  await expect(page.getByLabel('Message')).toHaveValue('');
  await shot(page, 'profile-05-contact-sent');

  const mail = await stack.waitForMail(
    (m) => m.toList.some((a) => a.toLowerCase() === SUPPORT_EMAIL) && m.subject.includes(subject),
    30_000,
  );
  expect(mail.text).toContain('How long does a refund take');
  expect(mail.text).toContain(email);
});

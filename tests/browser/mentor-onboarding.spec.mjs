// The mentor side as a professional tool, in the browser against the real api and worker:
// a new mentor goes through the onboarding wizard (profile, service, weekly hours from presets
// edited before saving) and a seeker sees their times on the booking page at once; then the mentor
// takes a day off from the Availability tab's date overrides and that day offers no time while the
// next one still does. Browser and mentor are in UTC, so dates and times read the same everywhere.
// Screenshots: tests/artifacts/mentor-onboarding-*.png.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect, createVerifiedUser, signIn, approveMentor } from '../harness/fixtures.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

test.use({ timezoneId: 'UTC', locale: 'en-US' });

const DAY_MS = 24 * 3600 * 1000;
/** 'YYYY-MM-DD' in UTC, `days` from now. */
const utcDate = (days) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

/** Signs the page in as `user` with the session cookie of an api sign-in. */
async function signInPage(page, stack, user) {
  const c = await signIn(stack, user);
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome( back)?, / })).toBeVisible();
}

/**
 * The booking page's times on `day` (YYYY-MM-DD), or [] when the calendar disables the day (it
 * has no free time: issue 30) or once it says there are none.
 */
async function timesOn(page, serviceId, day) {
  await page.goto(`/booking/${serviceId}`);
  await expect(page.getByRole('heading', { name: 'Choose a time' })).toBeVisible();
  // The month's free days are known once the calendar's legend shows.
  await expect(page.getByText('Free times', { exact: true })).toBeVisible();
  const dayButton = page.locator(`[data-day="${day}"] button`);
  if ((await dayButton.count()) === 0) {
    await page.getByRole('button', { name: /next month/i }).click();
    await expect(page.getByText('Free times', { exact: true })).toBeVisible();
  }
  if (await dayButton.isDisabled()) {
    await expect(dayButton).toHaveAccessibleName(/no free times/);
    return [];
  }
  await dayButton.click();
  const times = page.getByRole('radiogroup', { name: 'Available times' }).getByRole('radio');
  const none = page.getByText('No available times');
  await expect(times.first().or(none)).toBeVisible();
  return (await none.isVisible()) ? [] : times.allTextContents();
}

test('a new mentor onboards with weekly hours in one go, is bookable once approved, and a day off removes that day', async ({
  page,
  browser,
  stack,
}) => {
  test.setTimeout(150_000);

  // --- The wizard ---------------------------------------------------------------------------
  const mentorUser = await createVerifiedUser(stack, { firstName: 'Selene' });
  await signInPage(page, stack, mentorUser);
  await page.goto('/become-mentor');
  await expect(page.getByText('Step 1 of 4')).toBeVisible();
  await page.getByLabel('Display Name').fill('Selene Moonwhisper');
  await page
    .getByLabel('Bio')
    .fill('Moon rituals and tarot for twenty years: I help seekers slow down and listen to what they already know.');
  await page.getByRole('checkbox', { name: 'Tarot Reading' }).check();
  await page.getByLabel('Base Price (USD)').fill('40');
  await expect(page.getByLabel('Time Zone')).toHaveValue('UTC');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  await page.getByLabel('Service Title').fill('Full Moon Tarot');
  await page.getByLabel('Description').fill('An hour with the cards under the light of the full moon.');
  await page.getByLabel('Service Type').selectOption({ label: 'Tarot' });
  await page.getByLabel('Price (USD)').fill('40');
  // Back keeps what was made: the profile is still there, Continue goes on.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  await expect(page.getByText('Created')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  // Weekly hours: two presets, the first one edited before saving (Friday off, until 6 PM).
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  const presets = page.getByRole('group', { name: 'Presets' });
  await presets.getByRole('button', { name: 'Weekdays 9-17' }).click();
  await presets.getByRole('button', { name: 'Weekends 10-16' }).click();
  await page.getByRole('group', { name: 'Days for range 1' }).getByRole('checkbox', { name: 'Friday' }).uncheck();
  await page.getByLabel('Until (range 1)').selectOption({ label: '6:00 PM' });
  await shot(page, 'mentor-onboarding-01-hours');
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/mentor/availability/bulk') && r.status() === 201);
  await page.getByRole('button', { name: 'Complete Setup' }).click();
  await saved;
  await expect(page.getByText('Step 4 of 4')).toBeVisible();
  await expect(page.getByText('100% complete')).toBeVisible();

  const mentorApi = page.request;
  const windows = await (await mentorApi.get('/api/mentor/availability')).json();
  expect(windows.map((w) => `${w.dayOfWeek} ${w.startTime}-${w.endTime}`).sort()).toEqual(
    ['0 10:00-16:00', '1 09:00-18:00', '2 09:00-18:00', '3 09:00-18:00', '4 09:00-18:00', '6 10:00-16:00'].sort(),
  );
  const profile = await (await mentorApi.get('/api/mentor/profile')).json();
  const serviceId = profile.services[0].id;
  expect(profile.approvalStatus).toBe('pending');
  // 'View Your Profile' opens their own page, which they may see while it awaits review (issue 30).
  await page.getByRole('link', { name: 'View Your Profile' }).click();
  await expect(page).toHaveURL(new RegExp(`/mentor/${profile.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Selene Moonwhisper' })).toBeVisible();
  await expect(
    page.getByText('Only you can see this page: the profile awaits review and is not listed yet.'),
  ).toBeVisible();
  // An administrator approves the profile (tests/browser/vetting.spec.mjs does it in the admin page).
  await approveMentor(stack, profile.id);

  // --- A seeker sees the new mentor's times at once ---------------------------------------------
  // Two days ahead and the day after: past the default two-hour notice, and at least one of
  // them a working day (only Friday is off).
  let day = utcDate(2);
  if (new Date(`${day}T00:00:00Z`).getUTCDay() === 5) day = utcDate(3);
  const nextDay = (() => {
    const d = new Date(`${day}T00:00:00Z`);
    for (let i = 1; i < 7; i += 1) {
      const n = new Date(d.getTime() + i * DAY_MS);
      if (n.getUTCDay() !== 5) return n.toISOString().slice(0, 10);
    }
    throw new Error('no working day');
  })();
  const seekerContext = await browser.newContext({ baseURL: stack.baseUrl, timezoneId: 'UTC', locale: 'en-US' });
  const seekerPage = await seekerContext.newPage();
  try {
    await signInPage(seekerPage, stack, await createVerifiedUser(stack, { firstName: 'Orion' }));
    const before = await timesOn(seekerPage, serviceId, day);
    expect(before.length).toBeGreaterThan(0);
    expect(before[0]).toMatch(/^(9|10):00 AM$/);
    await shot(seekerPage, 'mentor-onboarding-02-bookable');

    // --- The mentor takes that day off from the Availability tab --------------------------------
    await page.goto('/mentor-dashboard');
    await page.getByRole('tab', { name: 'Availability' }).click();
    await expect(page.getByText(/An override never cancels bookings you already have on that date/)).toBeVisible();
    const form = page.getByRole('form', { name: 'Add a date override' });
    await form.getByLabel('Date', { exact: true }).fill(day);
    await expect(form.getByRole('checkbox', { name: /Day off/ })).toBeChecked();
    await form.getByRole('button', { name: 'Add Override' }).click();
    const overrides = page.getByRole('list', { name: 'Date overrides' });
    await expect(overrides.getByText('Day off', { exact: true })).toBeVisible();
    await shot(page, 'mentor-onboarding-03-day-off');

    expect(await timesOn(seekerPage, serviceId, day)).toEqual([]);
    await expect(seekerPage.locator(`[data-day="${day}"] button`)).toBeDisabled();
    expect((await timesOn(seekerPage, serviceId, nextDay)).length).toBeGreaterThan(0);
    const api = await (
      await seekerPage.request.get(`/api/mentors/${profile.id}/available-slots?date=${day}&timeZone=UTC`)
    ).json();
    expect(api).toEqual([]);
  } finally {
    await seekerContext.close();
  }
});

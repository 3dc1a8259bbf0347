// Right after `tools seed` on a fresh database (what scripts/run does), a demo seeker
// signs in, sees each demo mentor's honest 'From' price (the cheapest active service), and books and
// pays for a demo mentor's session in the browser.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { test, expect, show } from '../harness/fixtures.mjs';
import { APPROVED_CARD } from '../harness/booking.mjs';
import { client } from '../harness/client.mjs';
import { startStack, toolsBin } from '../harness/stack.mjs';

const ZONE = 'UTC';
const DEMO_SEEKER = { email: 'seeker@mystic-mentors.test', password: 'seeker-password' };
const DAYS_AHEAD = 8;

test.use({ timezoneId: ZONE, locale: 'en-US' });

/** 'From $48.00', or 'Free' for a free one: what the web shows for the cheapest price. */
function fromText(cents) {
  return cents === 0 ? 'Free' : `From $${(cents / 100).toFixed(2)}`;
}

const cents = (price) => Math.round(Number(price) * 100);

test('a demo mentor is bookable right after a fresh seed, and shows the cheapest service as its price', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const seeded = await startStack();
  try {
    await promisify(execFile)(toolsBin, ['seed'], { env: seeded.env });
    const api = client(seeded.baseUrl);
    const signedIn = await api.post('/api/login', DEMO_SEEKER);
    expect(signedIn.status, show(signedIn)).toBe(200);

    // Every listed demo mentor's 'From' is its cheapest active service.
    const listing = await api.get('/api/mentors?pageSize=50');
    expect(listing.status, show(listing)).toBe(200);
    expect(listing.body.total).toBeGreaterThan(20);
    const profiles = [];
    for (const m of listing.body.mentors) {
      const profile = (await api.get(`/api/mentors/${m.id}`)).body;
      const cheapest = Math.min(...profile.services.filter((s) => s.isActive).map((s) => cents(s.price)));
      expect(cents(m.fromPrice), `${m.displayName}: ${m.fromPrice} vs ${cheapest}`).toBe(cheapest);
      profiles.push(profile);
    }

    // The page takes the demo seeker's session (signing in through the form is auth.spec's).
    await page.context().addCookies([
      { name: 'sid', value: api.cookies.sid, url: seeded.baseUrl },
      { name: 'signed_in', value: '1', url: seeded.baseUrl },
    ]);
    await page.goto(`${seeded.baseUrl}/`);
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome( back)?, / })).toBeVisible();

    // A demo mentor with a paid service, and the first day of the coming week they offer times.
    const profile = profiles.find((p) => p.services.some((s) => s.isActive && cents(s.price) > 0 && !s.isGroupSession));
    const service = profile.services.filter((s) => s.isActive && cents(s.price) > 0 && !s.isGroupSession)[0];
    let day;
    for (let i = 1; i <= DAYS_AHEAD && !day; i += 1) {
      const date = new Date(Date.now() + i * 86_400_000).toISOString().slice(0, 10);
      const slots = await api.get(
        `/api/mentors/${profile.id}/available-slots?date=${date}&duration=${service.duration}&timeZone=${ZONE}`,
      );
      if (slots.status === 200 && slots.body.length > 0) day = date;
    }
    expect(day, `${profile.displayName} offers no time in the coming week`).toBeTruthy();

    // The listing card and the profile show the honest 'From'.
    const expected = fromText(Math.min(...profile.services.filter((s) => s.isActive).map((s) => cents(s.price))));
    await page.goto(`${seeded.baseUrl}/mentors?search=${encodeURIComponent(profile.displayName)}`);
    const card = page
      .locator('.group')
      .filter({ has: page.getByRole('link', { name: profile.displayName, exact: true }) });
    await expect(card.getByText(expected, { exact: true })).toBeVisible();
    await card.getByRole('link', { name: profile.displayName, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: profile.displayName })).toBeVisible();
    await expect(page.getByText(expected, { exact: true }).first()).toBeVisible();

    // Book and pay.
    await page.getByRole('link', { name: `Book ${service.title}` }).click();
    await expect(page.getByRole('heading', { name: 'Choose a time' })).toBeVisible();
    await expect(page.locator('[data-day] button').first()).toBeVisible();
    if ((await page.locator(`[data-day="${day}"] button`).count()) === 0)
      await page.getByRole('button', { name: /next month/i }).click();
    await page.locator(`[data-day="${day}"] button`).click();
    await page.getByRole('radiogroup', { name: 'Available times' }).getByRole('radio').first().click();
    await page.getByRole('button', { name: /Continue to Payment/ }).click();
    await page.getByLabel('Card Number').pressSequentially(APPROVED_CARD);
    await page.getByLabel('Expiry Date').pressSequentially('1230');
    await page.getByLabel('Security Code').fill('123');
    await page.getByLabel('First Name').fill('Sage');
    await page.getByLabel('Last Name').fill('Seeker');
    await page.getByLabel('ZIP Code').fill('10001');
    await page.getByRole('button', { name: /Pay \$/ }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByText('Payment Successful!')).toBeVisible();

    const dashboard = await api.get('/api/user/dashboard');
    const booked = dashboard.body.bookings.find((b) => b.service.id === service.id && b.scheduledAt.startsWith(day));
    expect(booked?.status, show(dashboard)).toBe('confirmed');
  } finally {
    await seeded.stop();
  }
});

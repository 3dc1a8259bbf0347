// The booking calendar (issue 30): one request for the visible month says which days have a free
// slot; the days without one are disabled and marked, the first free day is chosen when the page
// opens, and the day's times are one radio group (one Tab stop, the arrow keys move and choose).
import assert from 'node:assert/strict';
import { test, expect, createVerifiedUser, signIn, show } from '../harness/fixtures.mjs';

test.use({ locale: 'en-US', timezoneId: 'UTC' });

const DAY_MS = 86_400_000;

/** A mentor in UTC free on Wednesdays 10:00 to 12:00 only, with a 60-minute paid service. */
async function wednesdayMentor(stack) {
  const c = await signIn(stack, await createVerifiedUser(stack));
  const m = await c.post('/api/mentors', {
    displayName: 'Wendy Wednesday',
    bio: 'Reads only on Wednesday mornings, for the browser tests of the booking calendar.',
    specialties: ['Tarot Reading'],
    basePrice: '40.00',
    timeZone: 'UTC',
    minimumNoticeMinutes: 0,
  });
  assert.equal(m.status, 201, show(m));
  const a = await c.post('/api/mentor/availability', { dayOfWeek: 3, startTime: '10:00', endTime: '12:00' });
  assert.equal(a.status, 201, show(a));
  const s = await c.post('/api/services', {
    title: 'Wednesday spread',
    description: 'A sixty-minute tarot spread on a Wednesday morning.',
    serviceType: 'tarot',
    price: '40.00',
    duration: 60,
  });
  assert.equal(s.status, 201, show(s));
  return { mentor: m.body, service: s.body };
}

/** The next Wednesday (UTC date) whose 11:00 start is still ahead: the first day with a free slot. */
function firstFreeWednesday() {
  for (let t = Date.now(); ; t += DAY_MS) {
    const d = new Date(t);
    const day = d.toISOString().slice(0, 10);
    if (d.getUTCDay() === 3 && Date.parse(`${day}T11:00:00Z`) > Date.now() + 60_000) return day;
  }
}

test('days without a free slot are disabled and marked, the first free day is chosen, and the times are one radio group', async ({
  page,
  stack,
}) => {
  test.setTimeout(90_000);
  const { service } = await wednesdayMentor(stack);
  const seeker = await signIn(stack, await createVerifiedUser(stack));
  await page.context().addCookies([
    { name: 'sid', value: seeker.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
  const asked = [];
  page.on('request', (r) => {
    if (r.url().includes('/available-days?')) asked.push(new URL(r.url()).searchParams.get('month'));
  });
  await page.goto(`/booking/${service.id}`);

  // The first free day is chosen on its own, and its times are shown.
  const wednesday = firstFreeWednesday();
  const label = new Date(`${wednesday}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  });
  await expect(page.getByRole('heading', { name: `Available times on ${label}` })).toBeVisible();
  await expect(page.locator(`[data-day="${wednesday}"] button`)).toHaveAccessibleName(/selected$/);
  const times = page.getByRole('radiogroup', { name: 'Available times' });
  await expect(times.getByRole('radio')).toHaveText(
    ['10:00 AM', '10:30 AM', '11:00 AM'].filter((t) => {
      const [h, m] = t.split(/[: ]/).map(Number);
      return Date.parse(`${wednesday}T${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00Z`) > Date.now();
    }),
  );

  // Any other day of the month shown has no free slot: disabled, struck through, and said so.
  const otherDay = new Date(Date.parse(`${wednesday}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
  const other = page.locator(`[data-day="${otherDay}"] button`);
  if ((await other.count()) > 0) {
    await expect(other).toBeDisabled();
    await expect(other).toHaveAccessibleName(/no free times/);
    expect(await other.evaluate((b) => getComputedStyle(b).textDecorationLine)).toContain('line-through');
  }
  // One request per month: none twice.
  expect(new Set(asked).size).toBe(asked.length);

  // The times are one Tab stop: Tab reaches the first, the arrows move and choose, Tab leaves.
  const radios = times.getByRole('radio');
  await radios.first().focus();
  await expect(radios.first()).toBeFocused();
  if ((await radios.count()) > 1) {
    await page.keyboard.press('ArrowRight');
    await expect(radios.nth(1)).toBeFocused();
    await expect(radios.nth(1)).toHaveAttribute('aria-checked', 'true');
    await expect(radios.first()).toHaveAttribute('aria-checked', 'false');
    await page.keyboard.press('ArrowLeft');
    await expect(radios.first()).toBeFocused();
    await expect(radios.first()).toHaveAttribute('aria-checked', 'true');
  } else {
    await page.keyboard.press('Space');
    await expect(radios.first()).toHaveAttribute('aria-checked', 'true');
  }
  await page.keyboard.press('Tab');
  const focusedIsRadio = await page.evaluate(() => document.activeElement?.getAttribute('role') === 'radio');
  expect(focusedIsRadio, 'Tab leaves the group of times').toBe(false);
  await page.keyboard.press('Shift+Tab');
  await expect(radios.first()).toBeFocused();
});

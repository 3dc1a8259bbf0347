// The booking edges of a marketplace a newcomer can trust:
// - an unfinished checkout: the seeker leaves the payment step (offered to release the hold, keeps
//   it), finds it on the dashboard under 'Waiting for payment', sees their own held time still
//   offered to them, resumes it with 'Complete payment' and pays;
// - minimum notice: a mentor asking for a day's notice offers no time today in the browser, and the
//   api refuses a hold inside the notice.
import { test, expect, createVerifiedUser, signIn, show } from '../harness/fixtures.mjs';
import { APPROVED_CARD, bookableMentor, startIn } from '../harness/booking.mjs';

const ZONE = 'UTC';
test.use({ timezoneId: ZONE, locale: 'en-US' });

/** Signs the page in with the session cookie of an api sign-in. */
async function signInPage(page, stack, user) {
  const c = await signIn(stack, user);
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
  return c;
}

/** Picks `day` (YYYY-MM-DD) in the slot picker; resolves to the offered time buttons. */
async function pickDay(page, day) {
  await expect(page.locator('[data-day] button').first()).toBeVisible();
  const dayButton = page.locator(`[data-day="${day}"] button`);
  if ((await dayButton.count()) === 0) await page.getByRole('button', { name: /next month/i }).click();
  await dayButton.click();
  return page.getByRole('radiogroup', { name: 'Available times' });
}

async function fillCard(page) {
  await page.getByLabel('Card Number').pressSequentially(APPROVED_CARD);
  await page.getByLabel('Expiry Date').pressSequentially('1230');
  await page.getByLabel('Security Code').fill('123');
  await page.getByLabel('First Name').fill('Vega');
  await page.getByLabel('Last Name').fill('Seeker');
  await page.getByLabel('ZIP Code').fill('10001');
}

test('a hold left at the payment step waits on the dashboard, stays offered to its holder, and is paid from there', async ({
  page,
  stack,
}) => {
  test.setTimeout(120_000);
  const { mentor, service } = await bookableMentor(stack, { price: '30.00' });
  const seeker = await createVerifiedUser(stack, { firstName: 'Vega', lastName: 'Seeker' });
  const api = await signInPage(page, stack, seeker);
  const day = startIn(72).slice(0, 10);

  // Hold the first time of that day, then leave the payment step through the header.
  await page.goto(`/booking/${service.id}`);
  const times = await pickDay(page, day);
  const first = times.getByRole('radio').first();
  const label = (await first.textContent()).trim();
  await first.click();
  await page.getByRole('button', { name: /Continue to Payment/ }).click();
  await expect(page.getByRole('form', { name: 'Card payment' })).toBeVisible();
  await page.getByRole('link', { name: 'My Dashboard' }).first().click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // Leaving offered to release it; the seeker keeps it.
  const offer = page.getByText('Your time is still held');
  await expect(offer).toBeVisible();
  await page.getByRole('button', { name: 'Keep it' }).click();
  await expect(offer).toHaveCount(0);

  // The dashboard lists it; the api says the same.
  const held = page.getByLabel(`Held: ${service.title}`);
  await expect(page.getByRole('heading', { name: 'Waiting for payment' })).toBeVisible();
  await expect(held).toBeVisible();
  const holds = await api.get('/api/user/reservations');
  expect(holds.status, show(holds)).toBe(200);
  expect(holds.body).toHaveLength(1);

  // Back on the booking page, the held time is still offered to its holder (and to nobody else).
  await page.goto(`/booking/${service.id}`);
  await expect(page.getByText(/You are holding/)).toBeVisible();
  await expect((await pickDay(page, day)).getByRole('radio', { name: label, exact: true })).toBeVisible();
  const others = await api.get(`/api/mentors/${mentor.id}/available-slots?date=${day}&duration=60&timeZone=${ZONE}`);
  expect(others.status, show(others)).toBe(200);
  const anonymous = await fetch(
    `${stack.baseUrl}/api/mentors/${mentor.id}/available-slots?date=${day}&duration=60&timeZone=${ZONE}`,
  );
  const heldAt = holds.body[0].scheduledAt.slice(11, 16);
  expect(others.body).toContain(heldAt);
  expect(await anonymous.json()).not.toContain(heldAt);

  // 'Complete payment' from the dashboard resumes the payment step of that very hold.
  await page.goto('/dashboard');
  await held.getByRole('link', { name: 'Complete payment' }).click();
  await expect(page).toHaveURL(new RegExp(`/booking/${service.id}\\?reservation=${holds.body[0].id}$`));
  await expect(page.getByRole('form', { name: 'Card payment' })).toBeVisible();
  await fillCard(page);
  await page.getByRole('button', { name: /Pay \$30\.00/ }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Payment Successful!')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Waiting for payment' })).toHaveCount(0);
  const after = await api.get('/api/user/reservations');
  expect(after.body, show(after)).toEqual([]);
  const dashboard = await api.get('/api/user/dashboard');
  expect(
    dashboard.body.bookings.map((b) => [b.id, b.status]),
    show(dashboard),
  ).toEqual([[holds.body[0].id, 'confirmed']]);
});

test("minimum notice: no time inside the mentor's notice is offered, and the api refuses one", async ({
  page,
  stack,
}) => {
  test.setTimeout(90_000);
  const { mentor, service } = await bookableMentor(stack, { price: '30.00', minimumNoticeMinutes: 1440 });
  const seeker = await createVerifiedUser(stack);
  const api = await signInPage(page, stack, seeker);

  await page.goto(`/booking/${service.id}`);
  const today = new Date().toISOString().slice(0, 10);
  const later = startIn(72).slice(0, 10);
  // Today has no time outside the notice: the calendar disables the day and says why.
  const todayButton = page.locator(`[data-day="${today}"] button`);
  await expect(todayButton).toBeDisabled();
  await expect(todayButton).toHaveAccessibleName(/no free times/);
  await expect((await pickDay(page, later)).getByRole('radio').first()).toBeVisible();

  const tooSoon = await api.post('/api/reservations', {
    serviceId: service.id,
    mentorId: mentor.id,
    scheduledAt: startIn(3),
    totalAmount: service.price,
  });
  expect(tooSoon.status, show(tooSoon)).toBe(400);
  expect(tooSoon.body.message).toBe('This mentor needs at least 1 day notice: please choose a later time');
});

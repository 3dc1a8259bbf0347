// Booking in the browser, against the real api (serving web/dist) and worker with PAYMENT_GATEWAY=test:
// a mentor (Tokyo) with availability all day every day, a paid and a free service; a seeker in New York
// books the paid one with an approving card and lands on /dashboard, tries another slot with a card
// that is declined (toast 'Payment Failed', nothing new booked, the hold stays), then books the free
// service without payment. Bookings are checked through the api (reservations, payment idempotency,
// slots, notifications). Screenshots: tests/artifacts/booking-*.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect, createVerifiedUser, signIn, show } from '../harness/fixtures.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

const SEEKER_ZONE = 'America/New_York';
const MENTOR_ZONE = 'Asia/Tokyo';
const APPROVE = '4111111111111111';
const DECLINE = '4000000000000002';
// The bell's fallback poll (web/src/config/constants.ts NOTIFICATIONS_POLL_MS).
const BELL_POLL_MS = 30_000;

test.use({ timezoneId: SEEKER_ZONE, locale: 'en-US' });

/** 'YYYY-MM-DD' of an instant in a zone. */
function dateIn(zone, instant) {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}

/** 'h:mm AM' of an instant in a zone (as the page shows slots). */
function timeIn(zone, instant) {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit' })
    .format(instant)
    .replace(/\s/g, ' ');
}

/** A mentor in Tokyo, free 00:00-24:00 every day, with a paid and a free service. */
async function seedMentor(stack) {
  const user = await createVerifiedUser(stack, { firstName: 'Selene', lastName: 'Moonwhisper' });
  const c = await signIn(stack, user);
  let res = await c.post('/api/mentors', {
    displayName: 'Selene Moonwhisper',
    bio: 'Tarot reader and astrologer for fifteen years, helping seekers find clarity and calm on their path.',
    specialties: ['Tarot Reading', 'Astrology'],
    basePrice: '45.00',
    timeZone: MENTOR_ZONE,
  });
  assert.equal(res.status, 201, `create mentor: ${show(res)}`);
  const mentor = res.body;
  for (let day = 0; day <= 6; day += 1) {
    res = await c.post('/api/mentor/availability', { dayOfWeek: day, startTime: '00:00', endTime: '24:00' });
    assert.equal(res.status, 201, `availability day ${day}: ${show(res)}`);
  }
  res = await c.post('/api/services', {
    title: 'Tarot Insight Reading',
    description: 'A one-hour tarot reading on the question that matters most to you right now.',
    serviceType: 'tarot',
    price: '45.00',
    duration: 60,
  });
  assert.equal(res.status, 201, `paid service: ${show(res)}`);
  const paid = res.body;
  res = await c.post('/api/services', {
    title: 'Free Introductory Call',
    description: 'Thirty minutes to get to know each other and see whether we are a good fit.',
    serviceType: 'astrology',
    price: '0.00',
    duration: 30,
  });
  assert.equal(res.status, 201, `free service: ${show(res)}`);
  return { mentor, paid, free: res.body };
}

/** Signs the page in as `user` with the session cookie of an api sign-in (the UI sign-in is auth.spec's). */
async function signInPage(page, stack, user) {
  const c = await signIn(stack, user);
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: /^Welcome( back)?, / })).toBeVisible();
}

/** Opens the booking page, picks `day` (YYYY-MM-DD, the seeker's zone) and the first free time. */
async function chooseFirstTime(page, serviceId, day) {
  await page.goto(`/booking/${serviceId}`);
  await expect(page.getByRole('heading', { name: 'Choose a time' })).toBeVisible();
  const dayButton = page.locator(`[data-day="${day}"] button`);
  if ((await dayButton.count()) === 0) await page.getByRole('button', { name: /next month/i }).click();
  await dayButton.click();
  const times = page.getByRole('radiogroup', { name: 'Available times' });
  await expect(times.getByRole('radio').first()).toBeVisible();
  const first = times.getByRole('radio').first();
  const label = (await first.textContent()).trim();
  await first.click();
  await expect(first).toHaveAttribute('aria-checked', 'true');
  return { label, labels: await times.getByRole('radio').allTextContents() };
}

async function fillCard(page, cardNumber) {
  await page.getByLabel('Card Number').pressSequentially(cardNumber);
  await expect(page.getByLabel('Card Number')).toHaveValue(cardNumber.replace(/(\d{4})(?=\d)/g, '$1 '));
  await page.getByLabel('Expiry Date').pressSequentially('1230');
  await expect(page.getByLabel('Expiry Date')).toHaveValue('12/30');
  await page.getByLabel('Security Code').fill('123');
  await page.getByLabel('First Name').fill('Orion');
  await page.getByLabel('Last Name').fill('Seeker');
  await page.getByLabel('ZIP Code').fill('10001');
}

async function notificationsOf(api) {
  const res = await api.get('/api/notifications?limit=100');
  expect(res.status()).toBe(200);
  return res.json();
}

test('a seeker books a paid session, is declined for a second, and books a free one', async ({ page, stack }) => {
  test.setTimeout(120_000);
  const { mentor, paid, free } = await seedMentor(stack);
  const seeker = await createVerifiedUser(stack, { firstName: 'Orion', lastName: 'Seeker' });
  await signInPage(page, stack, seeker);
  const api = page.request; // the page's own cookies: calls as the signed-in seeker
  const tomorrow = dateIn(SEEKER_ZONE, new Date(Date.now() + 24 * 3600 * 1000));

  // --- 1. Paid service, approving card -------------------------------------------------------
  const first = await chooseFirstTime(page, paid.id, tomorrow);
  await expect(page.getByRole('heading', { level: 1, name: 'Tarot Insight Reading' })).toBeVisible();
  await expect(page.getByText('$45.00').first()).toBeVisible();
  await expect(page.getByText('60 minutes')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Selene Moonwhisper' })).toBeVisible();
  await expect(page.getByText('5.0 out of 5')).toBeVisible(); // no reviews yet
  await shot(page, 'booking-01-schedule');

  const reservation1 = page.waitForResponse(
    (r) => r.url().endsWith('/api/reservations') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  const held1 = await (await reservation1).json();
  expect(held1.freeBooking).toBe(false);
  const reservationId1 = held1.reservation.id;
  await expect(
    page.getByText(`Your time is held until ${timeIn(SEEKER_ZONE, new Date(held1.expiresAt))}.`),
  ).toBeVisible();
  await expect(page.getByText(/for 60 minutes/)).toBeVisible();
  // The test cards appear nowhere in the page.
  await expect(page.locator('body')).not.toContainText('4111');
  await expect(page.locator('body')).not.toContainText('4000 0000');
  const pay = page.getByRole('button', { name: /^Pay \$45\.00$/ });
  await expect(pay).toBeDisabled();
  await fillCard(page, APPROVE);
  await expect(pay).toBeEnabled();
  await shot(page, 'booking-02-payment');

  const payment1 = page.waitForResponse((r) => r.url().endsWith('/api/process-payment-v2'));
  await pay.click();
  const paid1 = await (await payment1).json();
  expect(paid1.success).toBe(true);
  await expect(page.getByText('Payment Successful!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  // ... and the dashboard shows it among the upcoming sessions.
  const upcoming = page.getByRole('list', { name: 'Upcoming sessions' });
  await expect(
    upcoming.getByRole('article', { name: new RegExp(`^${paid.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, `) }),
  ).toBeVisible();

  // The booking through the api: confirmed, at the wall time chosen in New York, the hold consumed.
  const booking1 = paid1.booking;
  expect(booking1.status).toBe('confirmed');
  expect(booking1.service.id).toBe(paid.id);
  expect(booking1.mentor.id).toBe(mentor.id);
  expect(dateIn(SEEKER_ZONE, new Date(booking1.scheduledAt))).toBe(tomorrow);
  expect(timeIn(SEEKER_ZONE, new Date(booking1.scheduledAt))).toBe(first.label);
  expect((await api.get(`/api/reservations/${reservationId1}`)).status()).toBe(404);
  // Paying the same reservation again charges once and answers with the same booking.
  const again = await api.post('/api/process-payment-v2', {
    data: {
      reservationId: reservationId1,
      cardNumber: APPROVE,
      expirationDate: '1230',
      cardCode: '123',
      billingInfo: { firstName: 'Orion', lastName: 'Seeker', zip: '10001' },
    },
  });
  expect(again.status()).toBe(200);
  const againBody = await again.json();
  expect(againBody.success).toBe(true);
  expect(againBody.booking.id).toBe(booking1.id);
  // The booked time is no longer offered.
  const slotsUrl = (duration) =>
    `/api/mentors/${mentor.id}/available-slots?date=${tomorrow}&duration=${duration}&timeZone=${encodeURIComponent(SEEKER_ZONE)}`;
  const slotsAfter1 = await (await api.get(slotsUrl(60))).json();
  expect(slotsAfter1.length).toBeGreaterThan(0);
  const hhmm = (label) => {
    const [, h, m, ap] = /^(\d{1,2}):(\d{2}) (AM|PM)$/.exec(label);
    return `${String((Number(h) % 12) + (ap === 'PM' ? 12 : 0)).padStart(2, '0')}:${m}`;
  };
  expect(slotsAfter1).not.toContain(hhmm(first.label));

  // --- 2. Another slot, declined card ---------------------------------------------------------
  const second = await chooseFirstTime(page, paid.id, tomorrow);
  expect(second.label).not.toBe(first.label);
  const reservation2 = page.waitForResponse(
    (r) => r.url().endsWith('/api/reservations') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Continue to Payment' }).click();
  const reservationId2 = (await (await reservation2).json()).reservation.id;
  await fillCard(page, DECLINE);
  const payment2 = page.waitForResponse((r) => r.url().endsWith('/api/process-payment-v2'));
  await page.getByRole('button', { name: /^Pay \$45\.00$/ }).click();
  const declined = await (await payment2).json();
  expect(declined.success).toBe(false);
  await expect(page.getByText('Payment Failed', { exact: true })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Check the card details or try another card' })).toBeVisible();
  await shot(page, 'booking-03-declined');
  // Still on the form; the hold stays (the reservation is live, not a booking).
  await expect(page).toHaveURL(new RegExp(`/booking/${paid.id}$`));
  await expect(page.getByRole('form', { name: 'Card payment' })).toBeVisible();
  const hold2 = await api.get(`/api/reservations/${reservationId2}`);
  expect(hold2.status(), await hold2.text()).toBe(200);
  // Nothing new is booked: one confirmation so far, and a payment_failed notice (written by the worker).
  const countsOf = (notes) =>
    ['booking_confirmed', 'payment_failed'].map((type) => notes.filter((n) => n.type === type).length);
  await expect.poll(async () => countsOf(await notificationsOf(api))).toEqual([1, 1]);

  // --- 3. Free service: booked at once, no payment step ----------------------------------------
  const third = await chooseFirstTime(page, free.id, tomorrow);
  await expect(page.getByText('Free', { exact: true })).toBeVisible();
  await expect(page.getByText('30 minutes')).toBeVisible();
  const reservation3 = page.waitForResponse(
    (r) => r.url().endsWith('/api/reservations') && r.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Book Free Session' }).click();
  const booked3 = await (await reservation3).json();
  expect(booked3.freeBooking).toBe(true);
  expect(booked3.booking.status).toBe('confirmed');
  expect(timeIn(SEEKER_ZONE, new Date(booked3.booking.scheduledAt))).toBe(third.label);
  await expect(page.getByText('Free Session Booked!')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Card payment' })).toHaveCount(0);
  await expect(page).toHaveURL(/\/dashboard$/);

  await expect.poll(async () => countsOf(await notificationsOf(api))).toEqual([2, 1]);
  const notes = await notificationsOf(api);

  // --- 4. The bell: the unread count and the latest ones; a click marks one read and follows it ----
  const all = notes.length;
  let unread = notes.filter((n) => !n.isRead).length;
  expect(unread).toBeGreaterThanOrEqual(3);
  const bell = page.getByRole('button', { name: /^Notifications/ });
  // The worker wrote them after the page loaded: the bell hears of them live, or at its 30 s poll.
  // The count is part of the bell's name, as it shows on the badge (WCAG 2.5.3, label in name).
  await expect(bell).toHaveAccessibleName(`Notifications, ${unread} unread`, { timeout: BELL_POLL_MS + 10_000 });
  await bell.click();
  const failedItem = page.getByRole('menu').getByRole('menuitem', { name: /Payment failed/ });
  await expect(failedItem).toBeVisible();
  await expect(page.getByRole('menu').getByRole('menuitem', { name: /Booking confirmed/ })).toHaveCount(2);
  await shot(page, 'booking-04-bell');
  await failedItem.click();
  await expect(page).toHaveURL(new RegExp(`/booking/${paid.id}$`)); // its actionUrl
  unread -= 1;
  await expect(bell).toHaveAccessibleName(`Notifications, ${unread} unread`);

  // --- 5. The notifications page: tabs with counts, mark all as read ----------------------------
  await page.goto('/notifications');
  await expect(page.getByRole('tab', { name: `All (${all})` })).toBeVisible();
  await expect(page.getByRole('tab', { name: `Unread (${unread})` })).toBeVisible();
  await expect(page.getByRole('tab', { name: `Read (${all - unread})` })).toBeVisible();
  await expect(page.getByText('Booking confirmed').first()).toBeVisible();
  await shot(page, 'booking-05-notifications');
  await page.getByRole('button', { name: `Mark all as read (${unread})` }).click();
  await expect(page.getByText('All notifications marked as read')).toBeVisible();
  await expect(page.getByRole('tab', { name: `Read (${all})` })).toBeVisible();
  await expect(bell).toHaveAccessibleName('Notifications');
  expect((await (await api.get('/api/notifications/unread-count')).json()).count).toBe(0);
});

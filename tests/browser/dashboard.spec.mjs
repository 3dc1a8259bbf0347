// The seeker's dashboard in the browser, against the real api (serving web/dist) and worker with
// PAYMENT_GATEWAY=test: a mentor (Tokyo) free all day every day with a paid one-hour service; a seeker in
// New York with two confirmed, paid bookings (made through the api) reschedules the first in the dialog to
// another slot, then cancels it after seeing the 100% refund preview; the mentor completes the second
// (PUT /api/mentor/bookings/{id}), and the seeker reviews it in Session History; the review then shows on
// the mentor's page. Results are checked through the api too. Screenshots: tests/artifacts/dashboard-*.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { test, expect, createVerifiedUser, signIn, show } from '../harness/fixtures.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

const SEEKER_ZONE = 'America/New_York';
const MENTOR_ZONE = 'Asia/Tokyo';
const APPROVE = '4111111111111111';
const DAY_MS = 24 * 3600 * 1000;

test.use({ timezoneId: SEEKER_ZONE, locale: 'en-US' });

/** 'YYYY-MM-DD' of an instant in a zone. */
function dateIn(zone, instant) {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}

/** 'h:mm AM' of an instant in a zone (as the page shows times). */
function timeIn(zone, instant) {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit' })
    .format(instant)
    .replace(/\s/g, ' ');
}

/** 'MMM dd, yyyy' of an instant in a zone (as the page shows dates). */
function dayLabelIn(zone, instant) {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, month: 'short', day: '2-digit', year: 'numeric' }).format(
    instant,
  );
}

/** The booking card's accessible name: '{title}, {MMM dd, yyyy} at {h:mm a}' in the seeker's zone. */
function cardName(title, scheduledAt) {
  const at = new Date(scheduledAt);
  return `${title}, ${dayLabelIn(SEEKER_ZONE, at)} at ${timeIn(SEEKER_ZONE, at)}`;
}

/** A mentor in Tokyo, free 00:00-24:00 every day, with a paid one-hour service. */
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
  return { mentor, service: res.body, mentorClient: c };
}

/** A confirmed, paid booking of `service` on the UTC day `daysAhead` days from now, at its `index`th free time. */
async function bookThroughApi(seeker, mentor, service, daysAhead, index = 0) {
  const day = dateIn('UTC', new Date(Date.now() + daysAhead * DAY_MS));
  let res = await seeker.get(`/api/mentors/${mentor.id}/available-slots?date=${day}&duration=60&timeZone=UTC`);
  assert.equal(res.status, 200, `slots: ${show(res)}`);
  assert.ok(res.body.length > index, `slots on ${day}: ${show(res)}`);
  const scheduledAt = `${day}T${res.body[index]}:00.000Z`;
  res = await seeker.post('/api/reservations', {
    serviceId: service.id,
    mentorId: mentor.id,
    scheduledAt,
    totalAmount: '45.00',
  });
  assert.equal(res.status, 201, `reservation: ${show(res)}`);
  res = await seeker.post('/api/process-payment-v2', {
    reservationId: res.body.reservation.id,
    cardNumber: APPROVE,
    expirationDate: '1230',
    cardCode: '123',
    billingInfo: { firstName: 'Orion', lastName: 'Seeker', zip: '10001' },
  });
  assert.equal(res.status, 200, `payment: ${show(res)}`);
  assert.equal(res.body.success, true, `payment: ${show(res)}`);
  assert.equal(res.body.booking.status, 'confirmed');
  return res.body.booking;
}

/** Signs the page in as `user` with the session cookie of an api sign-in (the UI sign-in is auth.spec's). */
async function signInPage(page, stack, c) {
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
}

async function dashboardBooking(seeker, id) {
  const res = await seeker.get('/api/user/dashboard');
  assert.equal(res.status, 200, `dashboard: ${show(res)}`);
  return { booking: res.body.bookings.find((b) => b.id === id), stats: res.body.stats };
}

test('a seeker reschedules and cancels a booking, and reviews a completed session', async ({ page, stack }) => {
  test.setTimeout(120_000);
  const { mentor, service, mentorClient } = await seedMentor(stack);
  const seekerUser = await createVerifiedUser(stack, { firstName: 'Orion', lastName: 'Seeker' });
  const seeker = await signIn(stack, seekerUser);
  // Both more than 24 hours ahead: the 100% tier, and far from any edge of the 2-hour cutoff.
  const toMove = await bookThroughApi(seeker, mentor, service, 3, 4);
  const toReview = await bookThroughApi(seeker, mentor, service, 2, 6);
  await signInPage(page, stack, seeker);

  // --- 1. The dashboard: welcome line, figures, upcoming cards ------------------------------------
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Orion!' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Book New Session' })).toHaveAttribute('href', '/mentors');
  const figures = page.getByLabel('Your figures');
  await expect(figures).toContainText('Total Sessions2');
  await expect(figures).toContainText('Upcoming2');
  await expect(figures).toContainText('Total spent$90.00');
  await expect(page.getByRole('tab', { name: 'Upcoming Sessions' })).toHaveAttribute('aria-selected', 'true');
  const upcoming = page.getByRole('list', { name: 'Upcoming sessions' });
  // Soonest first.
  await expect(upcoming.getByRole('article')).toHaveCount(2);
  await expect(upcoming.getByRole('article').first()).toHaveAccessibleName(
    cardName(service.title, toReview.scheduledAt),
  );
  const moveCard = page.getByRole('article', { name: cardName(service.title, toMove.scheduledAt) });
  await expect(moveCard).toContainText('with Selene Moonwhisper');
  await expect(moveCard).toContainText('60 minutes');
  await expect(moveCard).toContainText('$45.00');
  await expect(moveCard).toContainText('Confirmed');
  await expect(moveCard.getByRole('link', { name: 'View Mentor' })).toHaveAttribute('href', `/mentor/${mentor.id}`);
  await expect(moveCard.getByRole('link', { name: 'Message' })).toHaveAttribute(
    'href',
    `/messages?mentor=${mentor.id}&booking=${toMove.id}`,
  );
  // Days ahead: no video session yet.
  await expect(moveCard.getByRole('link', { name: 'Start Video Session' })).toHaveCount(0);
  await shot(page, 'dashboard-01-upcoming');

  // --- 2. Reschedule to another slot ---------------------------------------------------------------
  await moveCard.getByRole('button', { name: 'Reschedule' }).click();
  const reschedule = page.getByRole('dialog', { name: 'Reschedule Session' });
  await expect(reschedule).toBeVisible();
  await reschedule.getByRole('button', { name: 'Confirm Reschedule' }).click();
  await expect(reschedule.getByRole('alert')).toHaveText('Please select a new time');

  const newDay = dateIn(SEEKER_ZONE, new Date(Date.now() + 4 * DAY_MS));
  const dayButton = reschedule.locator(`[data-day="${newDay}"] button`);
  if ((await dayButton.count()) === 0) await reschedule.getByRole('button', { name: /next month/i }).click();
  await dayButton.click();
  const times = reschedule.getByRole('radiogroup', { name: 'Available times' });
  const slot = times.getByRole('radio').nth(2);
  await expect(slot).toBeVisible();
  const newTime = (await slot.textContent()).trim();
  await slot.click();
  await expect(slot).toHaveAttribute('aria-checked', 'true');
  await reschedule.getByLabel('Reason for rescheduling (optional)').fill('  A work trip came up  ');
  await shot(page, 'dashboard-02-reschedule');
  const moved = page.waitForResponse((r) => r.url().endsWith(`/api/user/bookings/${toMove.id}/reschedule`));
  await reschedule.getByRole('button', { name: 'Confirm Reschedule' }).click();
  const movedRes = await moved;
  expect(movedRes.status(), await movedRes.text()).toBe(200);
  expect(movedRes.request().postDataJSON().reason).toBe('A work trip came up');
  await expect(page.getByText('Session Rescheduled')).toBeVisible();
  await expect(reschedule).toHaveCount(0);

  const afterMove = (await dashboardBooking(seeker, toMove.id)).booking;
  expect(afterMove.status).toBe('confirmed');
  expect(dateIn(SEEKER_ZONE, new Date(afterMove.scheduledAt))).toBe(newDay);
  expect(timeIn(SEEKER_ZONE, new Date(afterMove.scheduledAt))).toBe(newTime);
  const movedCard = page.getByRole('article', { name: cardName(service.title, afterMove.scheduledAt) });
  await expect(movedCard).toBeVisible();
  await expect(page.getByRole('article', { name: cardName(service.title, toMove.scheduledAt) })).toHaveCount(0);

  // --- 3. Cancel it: the policy and the exact refund first ---------------------------------------
  await movedCard.getByRole('button', { name: 'Cancel' }).click();
  const cancel = page.getByRole('dialog', { name: 'Cancel Session' });
  await expect(cancel).toBeVisible();
  await expect(cancel).toContainText('24 hours or more before the session: 100% refund');
  await expect(cancel).toContainText('2 to 24 hours before: 50% refund, you get back 50% of what you paid');
  await expect(cancel).not.toContainText('fee');
  await expect(cancel).toContainText('Less than 2 hours before: no refund, you get nothing back');
  await expect(cancel.getByText('Refund if you cancel now: $45.00 (100%)')).toBeVisible();
  await cancel.getByRole('button', { name: 'Confirm Cancellation' }).click();
  await expect(cancel.getByRole('alert')).toHaveText('Please acknowledge the policy');
  await cancel.getByRole('checkbox', { name: /I understand the cancellation policy/ }).check();
  await cancel.getByLabel('Reason for cancelling (optional)').fill('Plans changed');
  await shot(page, 'dashboard-03-cancel');
  const cancelled = page.waitForResponse((r) => r.url().endsWith(`/api/user/bookings/${toMove.id}/cancel`));
  await cancel.getByRole('button', { name: 'Confirm Cancellation' }).click();
  const cancelledRes = await cancelled;
  expect(cancelledRes.status(), await cancelledRes.text()).toBe(200);
  expect(cancelledRes.request().postDataJSON()).toEqual({ acknowledgePolicy: true, reason: 'Plans changed' });
  expect((await cancelledRes.json()).refundPolicy).toEqual({ refundPercentage: 100, refundAmount: '45.00' });
  await expect(page.getByText('Session Cancelled')).toBeVisible();
  await expect(cancel).toHaveCount(0);
  await expect(upcoming.getByRole('article')).toHaveCount(1);
  const afterCancel = await dashboardBooking(seeker, toMove.id);
  expect(afterCancel.booking.status).toBe('cancelled');
  expect(afterCancel.stats.totalSpent).toBe('45.00'); // paid minus the refund
  await expect(figures).toContainText('Total spent$45.00');

  // --- 4. The mentor completes the other session; the seeker reviews it -----------------------------
  // A session can be completed only after it has ended: it took place three hours ago.
  const ended = new Date(Math.floor((Date.now() - 3 * 3600_000) / 1_800_000) * 1_800_000);
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    await db.query(
      "UPDATE bookings SET scheduled_at = $2, ends_at = $2::timestamptz + interval '60 minutes' WHERE id = $1",
      [toReview.id, ended],
    );
  } finally {
    await db.end();
  }
  toReview.scheduledAt = ended.toISOString();
  const done = await mentorClient.put(`/api/mentor/bookings/${toReview.id}`, { status: 'completed' });
  expect(done.status, show(done)).toBe(200);
  await page.reload();
  await page.getByRole('tab', { name: 'Session History' }).click();
  const history = page.getByRole('list', { name: 'Session history' });
  await expect(history.getByRole('article')).toHaveCount(2);
  const cancelledCard = history.getByRole('article', { name: cardName(service.title, afterMove.scheduledAt) });
  await expect(cancelledCard).toContainText('Cancelled');
  await expect(cancelledCard.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  await expect(cancelledCard.getByRole('form')).toHaveCount(0);
  const doneCard = history.getByRole('article', { name: cardName(service.title, toReview.scheduledAt) });
  await expect(doneCard).toContainText('Completed');
  await expect(doneCard.getByRole('button', { name: 'Reschedule' })).toHaveCount(0);
  const review = doneCard.getByRole('form', { name: `Review ${service.title}` });
  await expect(review).toBeVisible();
  await review.getByRole('radio', { name: '5 stars' }).check();
  await review.getByLabel('Comment (optional)').fill('Clear, kind and spot on. Thank you, Selene!');
  await shot(page, 'dashboard-04-review');
  const posted = page.waitForResponse((r) => r.url().endsWith(`/api/bookings/${toReview.id}/review`));
  await review.getByRole('button', { name: 'Submit Review' }).click();
  const postedRes = await posted;
  expect(postedRes.status(), await postedRes.text()).toBe(201);
  expect(postedRes.request().postDataJSON()).toEqual({
    rating: 5,
    comment: 'Clear, kind and spot on. Thank you, Selene!',
  });
  await expect(review).toHaveCount(0);
  await expect(doneCard.getByText('Thanks for your review!')).toBeVisible();

  // After a reload the dashboard knows the session is reviewed (hasReview): no second form.
  await page.reload();
  await page.getByRole('tab', { name: 'Session History' }).click();
  await expect(doneCard.getByText('Thanks for your review!')).toBeVisible();
  await expect(doneCard.getByRole('form', { name: `Review ${service.title}` })).toHaveCount(0);

  // --- 5. The review on the mentor's page ------------------------------------------------------------
  await page.goto(`/mentor/${mentor.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Selene Moonwhisper' })).toBeVisible();
  const reviews = page.getByRole('region', { name: /Reviews/ });
  await expect(reviews.getByText('Orion S.')).toBeVisible();
  await expect(reviews.getByText('Clear, kind and spot on. Thank you, Selene!')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Rated 5.0 out of 5' }).first()).toBeVisible();
  await shot(page, 'dashboard-05-mentor-review');
});

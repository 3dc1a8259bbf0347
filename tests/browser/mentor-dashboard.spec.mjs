// The mentor dashboard in the browser, against the real api (serving web/dist) and worker:
// a mentor (profile zone Asia/Tokyo, browser in New York) adds weekly availability through the
// Add Availability dialog (the 'End time must be after start time' alert for a bad pair, the api's
// overlap message, a second window deleted after the confirmation, the Active switch), a seeker books
// a free and a paid session through the api, and the mentor sees them in the Bookings tab (the
// default), gets 'Start Video Session' once the free one is moved (SQL) to 5 minutes from now, and
// marks both complete; the summary cards and the earnings card (15% fee) follow.
// Screenshots: tests/artifacts/mentor-dashboard-*.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { test, expect, createVerifiedUser, signIn, show } from '../harness/fixtures.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

const BROWSER_ZONE = 'America/New_York';
/** The mentor's profile zone: availability is on this wall clock. No daylight saving, always UTC+9. */
const MENTOR_ZONE = 'Asia/Tokyo';
const MENTOR_OFFSET_MS = 9 * 3600 * 1000;
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const APPROVE = '4111111111111111';

test.use({ timezoneId: BROWSER_ZONE, locale: 'en-US' });

/** 'YYYY-MM-DD' of an instant in a zone. */
function dateIn(zone, instant) {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}

/** The instant at which Tokyo clocks show `date` ('YYYY-MM-DD') at `time` ('HH:MM'). */
function tokyoInstant(date, time) {
  const [y, m, d] = date.split('-').map(Number);
  const [h, min] = time.split(':').map(Number);
  return new Date(Date.UTC(y, m - 1, d, h, min) - MENTOR_OFFSET_MS);
}

/** 'MMM dd, yyyy' and 'h:mm AM' of an instant in a zone, as the cards show them. */
function cardDate(zone, instant) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, month: 'short', day: '2-digit', year: 'numeric' })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.month} ${parts.day}, ${parts.year}`;
}
function cardTime(zone, instant) {
  return new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', minute: '2-digit' })
    .format(instant)
    .replace(/\s/g, ' ');
}

/** Signs the page in as `user` with the session cookie of an api sign-in. */
async function signInPage(page, stack, user) {
  const c = await signIn(stack, user);
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
  return c;
}

/** The value under a summary card's label. */
const summary = (page, label) =>
  page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');

test('a mentor sets availability, sees a booked session and marks it complete', async ({ page, stack }) => {
  test.setTimeout(180_000);
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    // --- A mentor with a free and a paid service, no availability yet -------------------------
    const mentorUser = await createVerifiedUser(stack, { firstName: 'Astra', lastName: 'Nightbloom' });
    const mc = await signInPage(page, stack, mentorUser);
    let res = await mc.post('/api/mentors', {
      displayName: 'Astra Nightbloom',
      bio: 'Astrologer and meditation guide for twelve years, helping seekers read their charts and find calm.',
      specialties: ['Astrology', 'Meditation Guide'],
      basePrice: '45.00',
      timeZone: MENTOR_ZONE,
    });
    assert.equal(res.status, 201, `create mentor: ${show(res)}`);
    const mentor = res.body;
    res = await mc.post('/api/services', {
      title: 'Free Introductory Call',
      description: 'Thirty minutes to get to know each other and see whether we are a good fit.',
      serviceType: 'astrology',
      price: '0.00',
      duration: 30,
    });
    assert.equal(res.status, 201, `free service: ${show(res)}`);
    const free = res.body;
    res = await mc.post('/api/services', {
      title: 'Birth Chart Reading',
      description: 'A one-hour reading of your natal chart and the themes it holds for the year ahead.',
      serviceType: 'astrology',
      price: '45.00',
      duration: 60,
    });
    assert.equal(res.status, 201, `paid service: ${show(res)}`);
    const paid = res.body;

    // Tomorrow on the mentor's clock: a whole day of availability will be bookable.
    const day = dateIn(MENTOR_ZONE, new Date(Date.now() + 24 * 3600 * 1000));
    const dow = new Date(`${day}T00:00:00Z`).getUTCDay();
    const dayName = DAYS[dow];
    const otherDayName = DAYS[(dow + 3) % 7];

    // --- The dashboard: Bookings is the default tab --------------------------------------------
    await page.goto('/mentor-dashboard');
    await expect(page.getByRole('heading', { level: 1, name: /^Welcome( back)?, Astra Nightbloom!$/ })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Bookings' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('heading', { name: 'No bookings yet' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Group Sessions', exact: true })).toBeEnabled();
    await expect(page.getByRole('tab', { name: 'Payouts', exact: true })).toBeEnabled();
    await expect(summary(page, 'Total Sessions')).toContainText('0');
    await expect(summary(page, 'Total Earnings')).toContainText('$0.00');
    await expect(summary(page, 'Rating')).toContainText('New');

    // --- Availability through the Add Availability dialog ---------------------------------------
    await page.getByRole('tab', { name: 'Availability' }).click();
    await expect(page.getByRole('heading', { name: 'No availability set' })).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Quick Tips' })).toContainText('Asia / Tokyo');
    await page.getByRole('button', { name: 'Add Availability' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add Availability' });
    await expect(dialog.getByLabel('Start Time').locator('option:not([disabled])')).toHaveCount(48);
    await expect(dialog.getByLabel('End Time').locator('option:not([disabled])')).toHaveCount(49);
    await dialog.getByLabel('Day of Week').selectOption({ label: dayName });
    await dialog.getByLabel('Start Time').selectOption({ label: '10:00 AM' });
    await dialog.getByLabel('End Time').selectOption({ label: '9:00 AM' });
    await dialog.getByRole('button', { name: 'Save Availability' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('End time must be after start time');
    await shot(page, 'mentor-dashboard-01-end-before-start');
    await dialog.getByLabel('Start Time').selectOption({ label: '12:00 AM' });
    await dialog.getByLabel('End Time').selectOption({ label: '12:00 AM (midnight)' });
    const added = page.waitForResponse(
      (r) => r.url().endsWith('/api/mentor/availability') && r.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Save Availability' }).click();
    expect((await added).status()).toBe(201);
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Availability added')).toBeVisible();

    const days = page.getByRole('list', { name: 'Availability by day' });
    await expect(days.getByRole('heading', { level: 3 })).toHaveText(DAYS);
    await expect(days.getByText('Not available')).toHaveCount(6);
    const dayList = days.getByRole('list', { name: dayName });
    await expect(dayList.getByText('12:00 AM – 12:00 AM (midnight)')).toBeVisible();
    await expect(dayList.getByText('Active', { exact: true })).toBeVisible();

    // An overlapping window: the api's message; then another day, deleted after the confirmation.
    await page.getByRole('button', { name: 'Add Availability' }).click();
    dialog = page.getByRole('dialog', { name: 'Add Availability' });
    await dialog.getByLabel('Day of Week').selectOption({ label: dayName });
    await dialog.getByLabel('Start Time').selectOption({ label: '9:00 AM' });
    await dialog.getByLabel('End Time').selectOption({ label: '5:00 PM' });
    await dialog.getByRole('button', { name: 'Save Availability' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('This time overlaps your availability on that day');
    await dialog.getByLabel('Day of Week').selectOption({ label: otherDayName });
    await dialog.getByRole('button', { name: 'Save Availability' }).click();
    await expect(dialog).toBeHidden();
    await expect(days.getByRole('list', { name: otherDayName }).getByText('9:00 AM – 5:00 PM')).toBeVisible();
    await expect(days.getByText('Not available')).toHaveCount(5);
    await shot(page, 'mentor-dashboard-02-availability');

    await page.getByRole('button', { name: `Delete ${otherDayName} 9:00 AM to 5:00 PM` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Availability' });
    await expect(confirm).toContainText('Are you sure you want to delete this availability slot?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();
    await expect(days.getByText('9:00 AM – 5:00 PM')).toHaveCount(0);
    await expect(days.getByText('Not available')).toHaveCount(6);

    // The Active switch: off, then on again (the seeker books this window below).
    const toggle = page.getByRole('switch', { name: `Active: ${dayName} 12:00 AM to 12:00 AM (midnight)` });
    await expect(toggle).toBeChecked();
    await toggle.click();
    await expect(dayList.getByText('Inactive', { exact: true })).toBeVisible();
    await expect(toggle).not.toBeChecked();
    res = await mc.get('/api/mentor/availability');
    expect(res.body.map((s) => [s.dayOfWeek, s.startTime, s.endTime, s.isActive])).toEqual([
      [dow, '00:00', '24:00', false],
    ]);
    await toggle.click();
    await expect(dayList.getByText('Active', { exact: true })).toBeVisible();
    await expect(toggle).toBeChecked();
    res = await mc.get('/api/mentor/availability');
    expect(res.body.map((s) => s.isActive)).toEqual([true]);

    // --- A seeker books a free and a paid session through the api -------------------------------
    const seekerUser = await createVerifiedUser(stack, { firstName: 'Orion', lastName: 'Seeker' });
    const sc = await signIn(stack, seekerUser);
    res = await sc.get(
      `/api/mentors/${mentor.id}/available-slots?date=${day}&duration=30&timeZone=${encodeURIComponent(MENTOR_ZONE)}`,
    );
    assert.equal(res.status, 200, show(res));
    assert.ok(res.body.length > 0, `no slots on ${day}`);
    const freeAt = tokyoInstant(day, res.body[0]);
    res = await sc.post('/api/reservations', {
      serviceId: free.id,
      mentorId: mentor.id,
      scheduledAt: freeAt.toISOString(),
      notes: 'Curious about my rising sign.',
      totalAmount: '0.00',
    });
    assert.equal(res.status, 201, `free booking: ${show(res)}`);
    assert.equal(res.body.freeBooking, true);
    const freeBooking = res.body.booking;
    assert.equal(freeBooking.status, 'confirmed');

    res = await sc.get(
      `/api/mentors/${mentor.id}/available-slots?date=${day}&duration=60&timeZone=${encodeURIComponent(MENTOR_ZONE)}`,
    );
    const paidAt = tokyoInstant(day, res.body.at(-1));
    res = await sc.post('/api/reservations', {
      serviceId: paid.id,
      mentorId: mentor.id,
      scheduledAt: paidAt.toISOString(),
      totalAmount: '45.00',
    });
    assert.equal(res.status, 201, `paid reservation: ${show(res)}`);
    res = await sc.post('/api/process-payment-v2', {
      reservationId: res.body.reservation.id,
      cardNumber: APPROVE,
      expirationDate: '1230',
      cardCode: '123',
      billingInfo: { firstName: 'Orion', lastName: 'Seeker', zip: '10001' },
    });
    assert.equal(res.status, 200, `payment: ${show(res)}`);
    assert.equal(res.body.success, true, `payment: ${show(res)}`);
    const paidBooking = res.body.booking;

    // --- The mentor's Bookings tab ----------------------------------------------------------------
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Bookings' })).toHaveAttribute('aria-selected', 'true');
    const bookings = page.getByRole('list', { name: 'Bookings' });
    await expect(bookings.getByRole('article')).toHaveCount(2);
    const freeCard = page.getByRole('article', {
      name: `Orion Seeker, Free Introductory Call, ${cardDate(BROWSER_ZONE, freeAt)} at ${cardTime(BROWSER_ZONE, freeAt)}`,
    });
    await expect(freeCard).toBeVisible();
    await expect(freeCard.getByRole('heading', { name: 'Orion Seeker' })).toBeVisible();
    await expect(freeCard.getByText('Confirmed')).toBeVisible();
    await expect(freeCard.getByText('30 minutes')).toBeVisible();
    await expect(freeCard.getByText('Free', { exact: true })).toBeVisible();
    await expect(freeCard.getByText('Curious about my rising sign.')).toBeVisible();
    await expect(freeCard.getByRole('link', { name: 'Message Client' })).toHaveAttribute(
      'href',
      `/messages?user=${freeBooking.user.id}&booking=${freeBooking.id}`,
    );
    await expect(freeCard.getByRole('button', { name: 'Mark Complete' })).toHaveCount(0); // not before it has ended
    await expect(freeCard.getByRole('button', { name: 'Confirm' })).toHaveCount(0);
    await expect(freeCard.getByRole('link', { name: 'Start Video Session' })).toHaveCount(0); // tomorrow
    const paidCard = page.getByRole('article', {
      name: `Orion Seeker, Birth Chart Reading, ${cardDate(BROWSER_ZONE, paidAt)} at ${cardTime(BROWSER_ZONE, paidAt)}`,
    });
    await expect(paidCard.getByText('$45.00')).toBeVisible();
    await expect(paidCard.getByText('60 minutes')).toBeVisible();
    await expect(summary(page, 'Total Sessions')).toContainText('2');
    await shot(page, 'mentor-dashboard-03-bookings');

    // The free session moved to 5 minutes from now: inside the video window.
    const soon = new Date(Math.ceil((Date.now() + 5 * 60_000) / 60_000) * 60_000);
    await db.query(
      "UPDATE bookings SET scheduled_at = $2, ends_at = $2::timestamptz + interval '30 minutes' WHERE id = $1",
      [freeBooking.id, soon],
    );
    await page.reload();
    const liveCard = page.getByRole('article', {
      name: `Orion Seeker, Free Introductory Call, ${cardDate(BROWSER_ZONE, soon)} at ${cardTime(BROWSER_ZONE, soon)}`,
    });
    await expect(liveCard.getByRole('link', { name: 'Start Video Session' })).toHaveAttribute(
      'href',
      `/messages?user=${freeBooking.user.id}&booking=${freeBooking.id}&startCall=true`,
    );
    const sameUtcMonth = (a, b) => a.getUTCFullYear() === b.getUTCFullYear() && a.getUTCMonth() === b.getUTCMonth();
    const now = new Date();
    const thisMonth = [soon, paidAt].filter((t) => sameUtcMonth(t, now)).length;
    await expect(summary(page, 'This Month')).toContainText(String(thisMonth));
    await shot(page, 'mentor-dashboard-04-video-window');

    // --- Mark Complete: the card and the figures follow -------------------------------------------
    // A session can be completed only after it has ended: both sessions move into the past.
    const endedFree = new Date(Math.floor((Date.now() - 5 * 3600_000) / 60_000) * 60_000);
    const endedPaid = new Date(endedFree.getTime() + 2 * 3600_000);
    await db.query(
      "UPDATE bookings SET scheduled_at = $2, ends_at = $2::timestamptz + interval '30 minutes' WHERE id = $1",
      [freeBooking.id, endedFree],
    );
    await db.query(
      "UPDATE bookings SET scheduled_at = $2, ends_at = $2::timestamptz + interval '60 minutes' WHERE id = $1",
      [paidBooking.id, endedPaid],
    );
    await page.reload();
    const endedFreeCard = page.getByRole('article', {
      name: `Orion Seeker, Free Introductory Call, ${cardDate(BROWSER_ZONE, endedFree)} at ${cardTime(BROWSER_ZONE, endedFree)}`,
    });
    const endedPaidCard = page.getByRole('article', {
      name: `Orion Seeker, Birth Chart Reading, ${cardDate(BROWSER_ZONE, endedPaid)} at ${cardTime(BROWSER_ZONE, endedPaid)}`,
    });
    await endedFreeCard.getByRole('button', { name: 'Mark Complete' }).click();
    await expect(page.getByText('Session marked complete')).toBeVisible();
    await expect(endedFreeCard.getByText('Completed')).toBeVisible();
    await expect(endedFreeCard.getByRole('button', { name: 'Mark Complete' })).toHaveCount(0);
    await expect(endedFreeCard.getByRole('link', { name: 'Start Video Session' })).toHaveCount(0);
    await expect(endedFreeCard.getByRole('link', { name: 'Message Client' })).toBeVisible();
    await expect(summary(page, 'Total Earnings')).toContainText('$0.00');

    await endedPaidCard.getByRole('button', { name: 'Mark Complete' }).click();
    await expect(endedPaidCard.getByText('Completed')).toBeVisible();
    await expect(summary(page, 'Total Earnings')).toContainText('$45.00');
    await expect(summary(page, 'Total Sessions')).toContainText('2');
    const earnings = page.getByRole('region', { name: 'Earnings' });
    await expect(
      earnings.locator('dt', { hasText: 'Total earnings' }).locator('xpath=following-sibling::dd[1]'),
    ).toHaveText('$45.00');
    await expect(
      earnings.locator('dt', { hasText: 'Platform fee (15%)' }).locator('xpath=following-sibling::dd[1]'),
    ).toHaveText('−$6.75');
    await expect(
      earnings.locator('dt', { hasText: 'Your net earnings' }).locator('xpath=following-sibling::dd[1]'),
    ).toHaveText('$38.25');
    await shot(page, 'mentor-dashboard-05-completed');

    const { rows } = await db.query('SELECT id, status FROM bookings WHERE id = ANY($1) ORDER BY scheduled_at', [
      [freeBooking.id, paidBooking.id],
    ]);
    expect(rows).toEqual([
      { id: freeBooking.id, status: 'completed' },
      { id: paidBooking.id, status: 'completed' },
    ]);
    res = await mc.get('/api/mentor/stats');
    expect(res.body).toMatchObject({ totalSessions: 2, totalEarnings: '45.00', reviewCount: 0 });
  } finally {
    await db.end();
  }
});

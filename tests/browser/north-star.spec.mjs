// The north star: the whole life of one paid session, in real Chromium against the real api (serving
// web/dist) and worker. A visitor browses signed out, finds a mentor, is asked to sign in to book, signs
// up and verifies by the e-mail's link, books and pays with the test card, and gets the confirmation
// (e-mail and dashboard). In the session's window both join the call from their dashboards and see each
// other's video, relayed only (its own stack with a private coturn; harness/relay.mjs forces
// iceTransportPolicy 'relay' and checks the selected pairs). The worker completes the booking once its complaint window has passed, the seeker
// reviews it, an admin runs the payout batch and marks the payout paid, and the mentor sees it paid.
// Time moves only through the database, as the other specs move it: the booking's start and end, and
// the run time of its pending completion task. Screenshots: tests/artifacts/north-star-*.png.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  test,
  expect,
  createVerifiedUser,
  findLink,
  mailTo,
  signIn,
  show,
  uniqueEmail,
  launchOptions,
  mediaArgs,
  PASSWORD,
  VERIFY_SUBJECT,
} from '../harness/fixtures.mjs';
import { createAdmin } from '../harness/admin.mjs';
import { expectRelayed, forceRelay } from '../harness/relay.mjs';
import { startStack } from '../harness/stack.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `north-star-${name}.png`), fullPage: true });

const APPROVED_CARD = '4111111111111111';
const MENTOR_NAME = 'Aurelia Northstar';
const SERVICE = {
  title: 'North Star Reading',
  description: 'One hour to read your chart and find the direction that matters to you now.',
  serviceType: 'astrology',
  price: '80.00',
  duration: 60,
};
// 80.00 less the platform's 15 %: what the mentor is paid (above the default 50.00 minimum payout).
const MENTOR_NET = '$68.00';
const CONTEXT = { locale: 'en-US', timezoneId: 'UTC', permissions: ['camera', 'microphone'] };

// A fake camera and microphone, permission prompts accepted, loopback ICE candidates.
test.use({ launchOptions: { ...launchOptions, args: [...launchOptions.args, ...mediaArgs] } });

/** A mentor in UTC, free around the clock at no notice, with one paid one-hour service. */
async function seedMentor(stack) {
  const user = await createVerifiedUser(stack, { firstName: 'Aurelia', lastName: 'Northstar' });
  const c = await signIn(stack, user);
  const m = await c.post('/api/mentors', {
    displayName: MENTOR_NAME,
    bio: 'Astrologer for twenty years: charts, transits and the quiet questions that come with change.',
    specialties: ['Astrology'],
    basePrice: SERVICE.price,
    timeZone: 'UTC',
    minimumNoticeMinutes: 0,
  });
  expect(m.status, show(m)).toBe(201);
  for (let day = 0; day < 7; day += 1) {
    const a = await c.post('/api/mentor/availability', { dayOfWeek: day, startTime: '00:00', endTime: '24:00' });
    expect(a.status, show(a)).toBe(201);
  }
  const s = await c.post('/api/services', SERVICE);
  expect(s.status, show(s)).toBe(201);
  return { c, user, mentor: m.body, service: s.body };
}

/** A browser context of its own (relayed calls only), signed in with the api session of `c` when given. */
async function newPage(browser, stack, c) {
  const context = await browser.newContext({ ...CONTEXT, baseURL: stack.baseUrl });
  await context.addInitScript(forceRelay);
  if (c)
    await context.addCookies([
      { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
      { name: 'signed_in', value: '1', url: stack.baseUrl },
    ]);
  return { context, page: await context.newPage() };
}

/** Polls the remote <video> until it plays frames of the other side's camera. */
async function receivesVideo(page) {
  const remote = page.getByTestId('remote-video');
  await expect(remote).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(() => remote.evaluate((v) => v.videoWidth), { timeout: 30_000, message: 'remote video width' })
    .toBeGreaterThan(0);
}

test('a visitor signs up, books and pays, both meet on video, the session is completed, reviewed and paid out', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  // A stack of its own with a private coturn: the call goes through TURN only.
  const stack = await startStack({ turn: true });
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  const contexts = [];
  try {
    await db.connect();
    const { c: mentorClient, user: mentorUser, mentor, service } = await seedMentor(stack);
    const admin = await createAdmin(stack, { firstName: 'Ada', lastName: 'Admin' });

    // --- 1. A visitor browses signed out and finds the mentor ---------------------------------------------
    const seeker = await newPage(browser, stack);
    contexts.push(seeker.context);
    const page = seeker.page;
    await page.goto('/');
    await page
      .getByRole('link', { name: /Find Your Mentor/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/mentors/);
    await page.getByRole('searchbox', { name: 'Search mentors' }).fill('Northstar');
    await page.getByRole('link', { name: MENTOR_NAME }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: MENTOR_NAME })).toBeVisible();
    await shot(page, '01-mentor-profile');
    await page.getByRole('link', { name: `Book ${service.title}` }).click();
    await expect(page).toHaveURL(new RegExp(`/auth\\?next=${encodeURIComponent(`/booking/${service.id}`)}$`));

    // --- 2. Signs up and verifies by the e-mail's link -----------------------------------------------------
    const email = uniqueEmail('northstar');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByLabel('First Name').fill('Nova');
    await page.getByLabel('Last Name').fill('Seeker');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText(/check your email to verify/i)).toBeVisible();
    const verification = await stack.waitForMail(mailTo(email, VERIFY_SUBJECT), 30_000);
    await page.goto(findLink(verification, `${stack.baseUrl}/verify-email`).toString());
    await expect(page.getByRole('heading', { name: 'Email verified' })).toBeVisible();
    await expect(page).toHaveURL(/\/auth/, { timeout: 10_000 });
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    await shot(page, '02-signed-in');

    // --- 3. Books the session and pays ---------------------------------------------------------------------
    await page.goto(`/mentor/${mentor.id}`);
    await page.getByRole('link', { name: `Book ${service.title}` }).click();
    await expect(page).toHaveURL(new RegExp(`/booking/${service.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: service.title })).toBeVisible();
    const tomorrow = new Date(Date.now() + 24 * 3600_000).toISOString().slice(0, 10);
    const dayButton = page.locator(`[data-day="${tomorrow}"] button`);
    if ((await dayButton.count()) === 0) await page.getByRole('button', { name: /next month/i }).click();
    await dayButton.click();
    const time = page.getByRole('radiogroup', { name: 'Available times' }).getByRole('radio').first();
    await time.click();
    await expect(time).toHaveAttribute('aria-checked', 'true');
    await page.getByRole('button', { name: 'Continue to Payment' }).click();
    await page.getByLabel('Card Number').pressSequentially(APPROVED_CARD);
    await page.getByLabel('Expiry Date').pressSequentially('1230');
    await page.getByLabel('Security Code').fill('123');
    await page.getByLabel('First Name').fill('Nova');
    await page.getByLabel('Last Name').fill('Seeker');
    await page.getByLabel('ZIP Code').fill('10001');
    await shot(page, '03-payment');
    const payment = page.waitForResponse((r) => r.url().endsWith('/api/process-payment-v2'));
    await page.getByRole('button', { name: `Pay $${SERVICE.price}` }).click();
    const paid = await (await payment).json();
    expect(paid.success, JSON.stringify(paid)).toBe(true);
    const booking = paid.booking;
    expect(booking.status).toBe('confirmed');

    // --- 4. The confirmation: the dashboard and the e-mail -------------------------------------------------
    await expect(page.getByText('Payment Successful!')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    const upcoming = page.getByRole('list', { name: 'Upcoming sessions' });
    await expect(upcoming.getByRole('article', { name: new RegExp(`^${service.title}, `) })).toBeVisible();
    const confirmation = await stack.waitForMail(
      mailTo(email, `Booking confirmed: ${service.title} with ${MENTOR_NAME}`),
      30_000,
    );
    expect(confirmation.text).toContain(service.title);
    await shot(page, '04-confirmed');

    // --- 5. The session's window opens: both join the call and see each other -------------------------------
    // The booking moves to five minutes from now (the window opens 15 minutes before the start).
    await db.query(
      `UPDATE bookings SET scheduled_at = date_trunc('minute', now()) + interval '5 minutes',
              earliest_scheduled_at = date_trunc('minute', now()) + interval '5 minutes',
              ends_at = date_trunc('minute', now()) + interval '65 minutes'
       WHERE id = $1 AND status = 'confirmed'`,
      [booking.id],
    );
    const mentorSide = await newPage(browser, stack, mentorClient);
    contexts.push(mentorSide.context);
    const mentorPage = mentorSide.page;
    await mentorPage.goto('/mentor-dashboard');
    await expect(mentorPage.getByRole('heading', { level: 1, name: /^Welcome( back)?, / })).toBeVisible();
    // The mentor's page is connected (its socket registered) before the seeker calls.
    await expect
      .poll(
        async () =>
          (await db.query('SELECT count(*)::int AS n FROM realtime_sockets WHERE user_id = $1', [mentor.userId]))
            .rows[0].n,
        { message: "the mentor's socket" },
      )
      .toBeGreaterThan(0);

    await page.reload();
    const card = upcoming.getByRole('article', { name: new RegExp(`^${service.title}, `) });
    await card.getByRole('link', { name: 'Start Video Session' }).click();
    await expect(page).toHaveURL(/\/messages\?.*startCall=true/);
    const overlay = mentorPage.getByRole('alertdialog').filter({ hasText: 'Incoming video call' });
    await expect(overlay.getByText('Nova Seeker')).toBeVisible();
    await overlay.getByRole('button', { name: 'Accept' }).click();
    await receivesVideo(page);
    await receivesVideo(mentorPage);
    // Through the TURN server only: both ends of the pair in use are relayed candidates.
    await expectRelayed(page);
    await expectRelayed(mentorPage);
    const ice = await page.request.get('/api/rtc/config');
    expect((await ice.json()).iceServers.some((s) => [s.urls].flat().some((u) => u.startsWith('turn:')))).toBe(true);
    await shot(page, '05-seeker-in-call');
    await shot(mentorPage, '06-mentor-in-call');
    await mentorPage.getByRole('button', { name: 'Hang up' }).click();
    await expect(page.getByTestId('remote-video')).toBeHidden();
    const calls = await db.query(
      'SELECT status, answered_at IS NOT NULL AS answered FROM calls WHERE booking_id = $1',
      [booking.id],
    );
    expect(calls.rows).toEqual([{ status: 'ended', answered: true }]);

    // --- 6. The worker completes the booking once its complaint window (24 h after the end) has passed ------
    await db.query(
      `UPDATE bookings SET scheduled_at = date_trunc('minute', now()) - interval '26 hours',
              earliest_scheduled_at = date_trunc('minute', now()) - interval '26 hours',
              ends_at = date_trunc('minute', now()) - interval '25 hours'
       WHERE id = $1`,
      [booking.id],
    );
    const forward = await db.query(
      `UPDATE apalis.jobs SET run_at = now() WHERE job_type = 'booking_completion' AND status = 'Pending'
         AND convert_from(job, 'UTF8')::jsonb->>'booking_id' = $1`,
      [booking.id],
    );
    expect(forward.rowCount, 'a pending completion task for the booking').toBeGreaterThan(0);
    await expect
      .poll(async () => (await db.query('SELECT status FROM bookings WHERE id = $1', [booking.id])).rows[0].status, {
        timeout: 30_000,
        message: 'the worker completes the booking',
      })
      .toBe('completed');
    await stack.waitForMail(mailTo(email, `How was your session with ${MENTOR_NAME}?`), 30_000);

    // --- 7. The seeker reviews it ----------------------------------------------------------------------------
    await page.goto('/dashboard');
    await page.getByRole('tab', { name: 'Session History' }).click();
    const done = page
      .getByRole('list', { name: 'Session history' })
      .getByRole('article', { name: new RegExp(`^${service.title}, `) });
    await expect(done).toContainText('Completed');
    const review = done.getByRole('form', { name: `Review ${service.title}` });
    await review.getByRole('radio', { name: '5 stars' }).check();
    await review.getByLabel('Comment (optional)').fill('Clear, warm and exactly what I needed. Thank you!');
    await review.getByRole('button', { name: 'Submit Review' }).click();
    await expect(done.getByText('Thanks for your review!')).toBeVisible();
    await shot(page, '07-reviewed');

    // --- 8. The mentor says where to be paid; the admin runs the batch and marks the payout paid -------------
    await mentorPage.goto('/mentor-dashboard');
    await mentorPage.getByRole('tab', { name: 'Payouts' }).click();
    await expect(mentorPage.getByTestId('next-payout')).toHaveText(MENTOR_NET);
    await mentorPage.getByLabel('Payout Method').selectOption('venmo');
    await mentorPage.getByLabel('Venmo Username').fill('@aurelia-northstar');
    await mentorPage.getByRole('button', { name: 'Save Payout Settings' }).click();
    await expect(mentorPage.getByText('Payout settings saved')).toBeVisible();

    const adminSide = await newPage(browser, stack, admin.c);
    contexts.push(adminSide.context);
    const adminPage = adminSide.page;
    await adminPage.goto('/admin/payouts');
    await adminPage.getByRole('button', { name: 'Run payout batch now' }).click();
    await expect(adminPage.getByText('Payout batch queued')).toBeVisible();
    const payout = adminPage.getByRole('article', { name: `Payout for ${MENTOR_NAME}` });
    await expect(payout).toBeVisible({ timeout: 30_000 });
    await expect(payout.getByText(MENTOR_NET)).toBeVisible();
    await shot(adminPage, '08-admin-pending');
    await payout.getByRole('button', { name: 'Mark as Paid' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Confirm Payout' });
    await dialog.getByPlaceholder('Transaction ID or confirmation number').fill('VENMO-NORTH-1');
    await dialog.getByRole('button', { name: 'Confirm Payment Sent' }).click();
    await expect(adminPage.getByText('Payout marked as paid')).toBeVisible();

    // --- 9. The mentor sees the payout paid ------------------------------------------------------------------
    await mentorPage.reload();
    await mentorPage.getByRole('tab', { name: 'Payouts' }).click();
    await expect(mentorPage.getByTestId('pending-payout')).toHaveText('$0.00');
    const history = mentorPage.getByRole('listitem').filter({ hasText: /· Venmo/ });
    await expect(history).toContainText(MENTOR_NET);
    await stack.waitForMail(mailTo(mentorUser.email, `Your payout of ${MENTOR_NET} was sent`), 30_000);
    await shot(mentorPage, '09-mentor-paid');
  } finally {
    for (const c of contexts) await c.close();
    await db.end().catch(() => {});
    await stack.stop();
  }
});

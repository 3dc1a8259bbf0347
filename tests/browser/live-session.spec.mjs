// A session in progress never vanishes (issue 19): from its start until its end, a one-to-one
// booking stays in the seeker's 'Upcoming Sessions', marked 'Happening now', with its join button,
// and counts as Upcoming; a live group seat stays there too and leads to its group call; the
// mentor's Bookings tab keeps the session with the current bookings, with its join button, and
// shows the group session as one entry. Time is moved in the database, as the other tests do.
import pg from 'pg';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { groupService, groupSessionWithSeats } from '../harness/group-sessions.mjs';
import { test, expect, createVerifiedUser, signIn } from '../harness/fixtures.mjs';

test.use({ timezoneId: 'UTC', locale: 'en-US' });

/** Signs the page in with the session cookie of an api sign-in. */
async function signInPage(page, stack, c) {
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
}

test('a session in progress stays under Upcoming, Happening now, with its join button', async ({
  browser,
  page,
  stack,
}) => {
  test.setTimeout(120_000);
  const oneToOne = await bookableMentor(stack);
  const group = await bookableMentor(stack);
  const seekerUser = await createVerifiedUser(stack, { firstName: 'Orion', lastName: 'Seeker' });
  const seeker = await signIn(stack, seekerUser);
  const seekerId = (await seeker.get('/api/auth/user')).body.id;
  const reservation = await reserve(seeker, oneToOne, startIn(3));
  const booking = await pay(seeker, reservation.reservation.id, seekerUser);

  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  let groupId;
  try {
    // The one-to-one session started ten minutes ago and ends in fifty.
    await db.query(
      "UPDATE bookings SET scheduled_at = now() - interval '10 minutes', ends_at = now() + interval '50 minutes' WHERE id = $1",
      [booking.id],
    );
    // A group session of another mentor, started five minutes ago, with the seeker's seat.
    const service = await groupService(group);
    groupId = await groupSessionWithSeats(db, group, service, [seekerId], { startMinutes: -5 });
  } finally {
    await db.end();
  }

  await signInPage(page, stack, seeker);
  await page.goto('/dashboard');
  await expect(page.getByLabel('Your figures')).toContainText('Upcoming2');
  const upcoming = page.getByRole('list', { name: 'Upcoming sessions' });
  const live = upcoming.getByRole('article', { name: /^Hour reading, / });
  await expect(live).toBeVisible();
  await expect(live).toContainText('Happening now');
  await expect(live.getByRole('link', { name: 'Start Video Session' })).toHaveAttribute(
    'href',
    `/messages?mentor=${oneToOne.mentor.id}&booking=${booking.id}&startCall=true`,
  );
  const seat = upcoming.getByRole('article', { name: /^Full moon circle, / });
  await expect(seat).toContainText('Happening now');
  await expect(seat.getByRole('link', { name: 'Join Video Call' })).toHaveAttribute(
    'href',
    `/group-video-call/${groupId}`,
  );
  await page.getByRole('tab', { name: 'Session History' }).click();
  await expect(page.getByRole('heading', { name: 'No past sessions yet' })).toBeVisible();

  // The mentors' Bookings tabs keep the sessions with the current bookings.
  const mentorContext = await browser.newContext({ baseURL: stack.baseUrl, timezoneId: 'UTC', locale: 'en-US' });
  try {
    const mentorPage = await mentorContext.newPage();
    await signInPage(mentorPage, stack, oneToOne.c);
    await mentorPage.goto('/mentor-dashboard');
    const bookings = mentorPage.getByRole('list', { name: 'Bookings' });
    const card = bookings.getByRole('article', { name: /^Orion Seeker, Hour reading, / });
    await expect(card).toContainText('Happening now');
    await expect(card.getByRole('link', { name: 'Start Video Session' })).toBeVisible();
    await mentorPage
      .getByRole('group', { name: 'Show bookings' })
      .getByRole('button', { name: /Upcoming/ })
      .click();
    await expect(card).toBeVisible();

    await mentorContext.clearCookies();
    await signInPage(mentorPage, stack, group.c);
    await mentorPage.goto('/mentor-dashboard');
    const entry = mentorPage
      .getByRole('list', { name: 'Bookings' })
      .getByRole('article', { name: /^Group session: Full moon circle, / });
    await expect(entry).toContainText('1/4 seats taken');
    await expect(entry.getByRole('link', { name: 'Open Group Call' })).toHaveAttribute(
      'href',
      `/group-video-call/${groupId}`,
    );
  } finally {
    await mentorContext.close();
  }
});

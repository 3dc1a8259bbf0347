// Reports in the browser: a mentor reports an abusive review on their own page, an admin opens the
// Reports tab on /admin and hides it; the review leaves the page and the rating is computed without it.
import pg from 'pg';
import { test, expect, createVerifiedUser } from '../harness/fixtures.mjs';
import { createAdmin } from '../harness/admin.mjs';
import { bookableMentor } from '../harness/booking.mjs';

async function signInPage(page, stack, c) {
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
}

/** A completed booking of `userId` with the mentor and its review, written as the product would. */
async function reviewed(db, { mentor, service }, userId, rating, comment, daysAgo) {
  const {
    rows: [b],
  } = await db.query(
    `INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents, completed_at)
     VALUES ($1, $2, $3, 'completed', now() - make_interval(days => $4), now() - make_interval(days => $4) + interval '1 hour', 3000, now())
     RETURNING id`,
    [userId, mentor.id, service.id, daysAgo],
  );
  await db.query('INSERT INTO reviews (mentor_id, user_id, booking_id, rating, comment) VALUES ($1, $2, $3, $4, $5)', [
    mentor.id,
    userId,
    b.id,
    rating,
    comment,
  ]);
}

test('a reported review is hidden by an admin and leaves the mentor page and its rating', async ({
  page,
  browser,
  stack,
}) => {
  test.setTimeout(120_000);
  const m = await bookableMentor(stack);
  const fan = await createVerifiedUser(stack, { firstName: 'Faye', lastName: 'Fan' });
  const troll = await createVerifiedUser(stack, { firstName: 'Trev', lastName: 'Troll' });
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    const id = async (u) => (await db.query('SELECT id FROM users WHERE email = $1', [u.email])).rows[0].id;
    await reviewed(db, m, await id(fan), 5, 'A wonderful, clear reading.', 3);
    await reviewed(db, m, await id(troll), 1, 'Utter rubbish, you fraud!!!', 2);
  } finally {
    await db.end();
  }

  // The mentor reports the abusive review from their own page.
  await signInPage(page, stack, m.c);
  await page.goto(`/mentor/${m.mentor.id}`);
  await expect(page.getByText('Utter rubbish, you fraud!!!')).toBeVisible();
  const abusive = page.getByRole('listitem').filter({ hasText: 'Utter rubbish' });
  await abusive.getByRole('button', { name: 'Report this review' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report this review' });
  await dialog.getByLabel('Reason').selectOption('inappropriate_content');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(page.getByText('Report sent')).toBeVisible();

  // The admin hides it from the Reports tab.
  const admin = await createAdmin(stack);
  const context = await browser.newContext();
  const adminPage = await context.newPage();
  await signInPage(adminPage, stack, admin.c);
  await adminPage.goto(`${stack.baseUrl}/admin`);
  await adminPage.getByRole('tab', { name: 'Reports' }).click();
  const card = adminPage.getByRole('article', { name: 'Report of a review' });
  await expect(card).toContainText('Inappropriate content');
  await card.getByRole('button', { name: 'Hide review' }).click();
  await expect(adminPage.getByRole('heading', { name: 'No reports here' })).toBeVisible();
  await context.close();

  // Gone for everyone, and the rating is the remaining review's.
  await page.reload();
  await expect(page.getByText('A wonderful, clear reading.')).toBeVisible();
  await expect(page.getByText('Utter rubbish, you fraud!!!')).toHaveCount(0);
  const mentor = (await m.c.get(`/api/mentors/${m.mentor.id}`)).body;
  expect([mentor.rating, mentor.reviewCount]).toEqual(['5.00', 1]);
});

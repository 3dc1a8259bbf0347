// Reports in the browser: a mentor reports an abusive review on their own page, an admin opens the
// Reports tab on /admin, sees the review's text and stars, who wrote it about whom and the earlier
// report, and hides it; the review leaves the page and the rating is computed without it. A reported
// message shows in the last lines of its conversation; outcomes read in words ('Message hidden').
import pg from 'pg';
import { test, expect, createVerifiedUser, signIn } from '../harness/fixtures.mjs';
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

  // Someone reported it before; an admin dismissed that report.
  const admin = await createAdmin(stack);
  const fanClient = await signIn(stack, fan);
  const reviews = (await fanClient.get(`/api/mentors/${m.mentor.id}/reviews`)).body;
  const abusiveReview = (reviews.reviews ?? reviews).find((r) => r.comment === 'Utter rubbish, you fraud!!!');
  const earlier = await fanClient.post('/api/reports', {
    targetType: 'review',
    targetId: abusiveReview.id,
    reason: 'other',
    details: 'Looks like spam',
  });
  expect(earlier.status).toBe(201);
  expect((await admin.c.post(`/api/admin/reports/${earlier.body.id}/dismiss`, {})).status).toBe(200);

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

  // The admin sees what was reported, by whom, about whom, and the earlier report; then hides it.
  const context = await browser.newContext();
  const adminPage = await context.newPage();
  await signInPage(adminPage, stack, admin.c);
  await adminPage.goto(`${stack.baseUrl}/admin`);
  await adminPage.getByRole('tab', { name: 'Reports' }).click();
  const card = adminPage.getByRole('article', { name: 'Report of a review' });
  await expect(card).toContainText('Inappropriate content');
  const reported = card.getByRole('region', { name: 'What was reported' });
  await expect(reported).toContainText('Review of Orla Ops by Trev Troll');
  await expect(reported).toContainText('Utter rubbish, you fraud!!!');
  await expect(reported.getByLabel('Rating: 1 of 5')).toBeVisible();
  await expect(reported.getByRole('link', { name: 'Trev Troll' })).toHaveAttribute(
    'href',
    /^\/profile\/[0-9a-f-]{36}$/,
  );
  await expect(reported.getByRole('link', { name: 'Open the review' })).toHaveAttribute(
    'href',
    `/mentor/${m.mentor.id}`,
  );
  const earlierReports = card.getByRole('region', { name: 'Earlier reports' });
  await expect(earlierReports).toContainText('Something else · Dismissed');
  // Times as everywhere else ('MMM dd, yyyy h:mm a'), not the locale's '11/27/2026, 9:33:41 PM'.
  await expect(card).toContainText(/Reported by .+ · [A-Z][a-z]{2} \d{2}, \d{4} \d{1,2}:\d{2} [AP]M/);
  await expect(card).not.toContainText(/\d{1,2}\/\d{1,2}\/\d{4}/);
  await card.getByRole('button', { name: 'Hide review' }).click();
  await expect(adminPage.getByRole('heading', { name: 'No reports here' })).toBeVisible();
  // The outcome in words, not the action's enum name.
  await adminPage.getByLabel('Show').selectOption('resolved');
  const handled = adminPage.getByRole('article', { name: 'Report of a review' });
  await expect(handled).toContainText('Outcome: Review hidden');
  await expect(handled).not.toContainText('hide_review');
  await context.close();

  // Gone for everyone, and the rating is the remaining review's.
  await page.reload();
  await expect(page.getByText('A wonderful, clear reading.')).toBeVisible();
  await expect(page.getByText('Utter rubbish, you fraud!!!')).toHaveCount(0);
  const mentor = (await m.c.get(`/api/mentors/${m.mentor.id}`)).body;
  expect([mentor.rating, mentor.reviewCount]).toEqual(['5.00', 1]);
});

test('a reported message shows in its conversation, with its author and addressee', async ({ page, stack }) => {
  test.setTimeout(120_000);
  const m = await bookableMentor(stack);
  const annUser = await createVerifiedUser(stack, { firstName: 'Ann', lastName: 'Lee' });
  const ann = await signIn(stack, annUser);
  const conversation = await ann.post('/api/conversations', { mentorId: m.mentor.id });
  expect([200, 201]).toContain(conversation.status);
  const lines = ['Hello', 'Welcome, Ann', 'Can we talk?', 'Of course', 'You are a fraud', 'Please stop'];
  const sent = [];
  for (const [i, content] of lines.entries()) {
    const r = await (i % 2 === 0 ? ann : m.c).post(`/api/conversations/${conversation.body.id}/messages`, {
      content,
    });
    expect(r.status).toBe(201);
    sent.push(r.body);
  }
  const filed = await m.c.post('/api/reports', { targetType: 'message', targetId: sent[4].id, reason: 'harassment' });
  expect(filed.status).toBe(201);

  const admin = await createAdmin(stack);
  await signInPage(page, stack, admin.c);
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Reports' }).click();
  const card = page.getByRole('article', { name: 'Report of a message' });
  await expect(card).toContainText('Harassment');
  const reported = card.getByRole('region', { name: 'What was reported' });
  await expect(reported).toContainText('Message from Ann Lee to');
  await expect(reported.getByRole('link', { name: 'Ann Lee' })).toHaveAttribute('href', /^\/profile\/[0-9a-f-]{36}$/);
  // The last five lines up to the reported one, which is marked; nothing after it.
  const items = reported.getByRole('list', { name: 'Conversation' }).getByRole('listitem');
  await expect(items).toHaveCount(5);
  await expect(items.first()).toContainText('Hello');
  await expect(items.last()).toContainText('You are a fraud');
  await expect(items.last()).toContainText('Reported');
  await expect(reported).not.toContainText('Please stop');

  // Deactivating names whom it deactivates: the message's author.
  await expect(card.getByRole('button', { name: 'Deactivate Ann Lee' })).toBeVisible();
  await card.getByRole('button', { name: 'Hide message' }).click();
  await expect(page.getByRole('heading', { name: 'No reports here' })).toBeVisible();
  await page.getByLabel('Show').selectOption('resolved');
  await expect(page.getByRole('article', { name: 'Report of a message' })).toContainText('Outcome: Message hidden');
});

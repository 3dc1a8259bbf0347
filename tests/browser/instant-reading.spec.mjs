// Issue 36 in the browser: a mentor goes online on the dashboard, a seeker tops up the wallet,
// starts a chat reading from the mentor's page, the mentor accepts the request popup, both chat in
// the pair's conversation, the seeker ends the reading and sees the charge and the free minutes, then
// reports a problem with it (the booking complaint's form) and sees it filed.
// The reading's start is moved back in SQL (never slept) so minutes after the free ones are billed.
import pg from 'pg';
import { test, expect, createVerifiedUser, signIn, show } from '../harness/fixtures.mjs';
import { bookableMentor } from '../harness/booking.mjs';

test.use({ locale: 'en-US', timezoneId: 'UTC' });

/** Puts the api session of `c` into the page's context. */
async function adopt(page, stack, c) {
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
}

test('a chat reading from going online to the charge', async ({ page, browser, stack }) => {
  const mentor = await bookableMentor(stack);
  const rate = await mentor.c.put('/api/mentor/profile', { perMinuteRate: '2.00', instantModes: ['chat'] });
  expect(rate.status, show(rate)).toBe(200);

  const mentorContext = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC' });
  const mp = await mentorContext.newPage();
  await adopt(mp, stack, mentor.c);
  await mp.goto('/mentor-dashboard');
  const card = mp.getByRole('region', { name: 'Readings now' }).or(mp.getByLabel('Readings now'));
  await expect(card.first()).toBeVisible();
  await mp.getByRole('switch').click();
  await expect(mp.getByText('Online', { exact: true })).toBeVisible();

  const seekerUser = await createVerifiedUser(stack);
  const seeker = await signIn(stack, seekerUser);
  await adopt(page, stack, seeker);
  await page.goto('/wallet');
  await page.getByLabel('Amount').fill('20.00');
  await page.getByLabel('Card Number').fill('4111111111111111');
  await page.getByLabel('Expiry Date').fill('12/30');
  await page.getByLabel('Security Code').fill('123');
  await page.getByLabel('First Name').fill('Ada');
  await page.getByLabel('Last Name').fill('Lovelace');
  await page.getByLabel('ZIP Code').fill('10001');
  await page.getByRole('button', { name: 'Add $20.00' }).click();
  await expect(page.getByRole('status')).toContainText('Topped up');
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText('$20.00');

  await page.goto(`/mentor/${mentor.mentor.id}`);
  await expect(page.getByText('Available now')).toBeVisible();
  await page.getByRole('button', { name: 'Chat now' }).click();
  await expect(page).toHaveURL(/\/reading\//);
  await expect(page.getByText('Waiting for the mentor to answer')).toBeVisible();
  const readingId = page.url().split('/reading/')[1];

  const request = mp.getByRole('alertdialog', { name: /Reading request from Ada/ });
  await expect(request).toBeVisible();
  await request.getByRole('button', { name: 'Accept' }).click();
  await expect(mp).toHaveURL(new RegExp(`/reading/${readingId}`));

  await expect(page.getByLabel('Meter')).toBeVisible();
  await expect(page.getByLabel('Free minutes left')).toHaveText('3');
  await page.getByRole('link', { name: 'Open the chat' }).click();
  await expect(page).toHaveURL(/\/messages\?conversation=/);
  // The meter stays over the chat.
  const meter = page.getByRole('complementary', { name: 'Reading meter' });
  await expect(meter).toBeVisible();
  await expect(meter.getByText('Free minutes left')).toBeVisible();
  const conversation = new URL(page.url()).searchParams.get('conversation');
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill('What do the cards say?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();

  await mp.goto(`/messages?conversation=${conversation}`);
  await expect(mp.getByTestId('message').filter({ hasText: 'What do the cards say?' })).toBeVisible();
  await mp.getByRole('textbox', { name: 'Message', exact: true }).fill('A new road opens.');
  await mp.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByTestId('message').filter({ hasText: 'A new road opens.' })).toBeVisible();

  // Four and a half minutes pass: in SQL.
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    await db.query("UPDATE instant_sessions SET started_at = started_at - interval '270 seconds' WHERE id = $1", [
      readingId,
    ]);
  } finally {
    await db.end();
  }
  await page.goto(`/reading/${readingId}`);
  await page.getByRole('button', { name: 'End reading' }).click();
  const summary = page.getByLabel('Reading summary');
  await expect(summary).toBeVisible();
  await expect(summary.getByLabel('Minutes', { exact: true })).toHaveText('5');
  await expect(summary.getByLabel('Free minutes', { exact: true })).toHaveText('3');
  await expect(summary.getByLabel('Charged', { exact: true })).toHaveText('$4.00');

  // The seeker reports a problem with the ended reading, as with a booking, and sees it filed.
  await page.getByRole('button', { name: 'Report a problem' }).click();
  const report = page.getByRole('dialog', { name: 'Report a problem' });
  await report.getByLabel('What went wrong?').selectOption('technical_problem');
  await report.getByLabel('Details', { exact: true }).fill('The chat kept freezing.');
  await report.getByRole('button', { name: 'Send report' }).click();
  await expect(report).toBeHidden();
  await expect(page.getByText('Problem reported: waiting for a decision')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Report a problem' })).toBeHidden();
  const check = new pg.Client({ connectionString: stack.databaseUrl });
  await check.connect();
  try {
    const { rows } = await check.query(
      'SELECT reason, details, status FROM instant_session_complaints WHERE instant_session_id = $1',
      [readingId],
    );
    expect(rows).toEqual([{ reason: 'technical_problem', details: 'The chat kept freezing.', status: 'open' }]);
  } finally {
    await check.end();
  }
  await page.goto('/wallet');
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText('$16.00');
  await mentorContext.close();
});

// Messages in the browser (issue 30): the Video call button of a conversation about a booking is
// disabled outside the booking's video window, saying why and when it opens (no red 'Connection
// Error' after a press); and only a conversation that is new says 'Conversation started
// successfully!', not one the seeker opens again.
import pg from 'pg';
import { test, expect, createVerifiedUser, signIn } from '../harness/fixtures.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';

test.use({ locale: 'en-US', timezoneId: 'UTC' });

async function adopt(page, stack, c) {
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
}

test("'Video call' says when a booking's call opens instead of failing, and opens with its window", async ({
  page,
  stack,
}) => {
  test.setTimeout(90_000);
  const seeker = await createVerifiedUser(stack, { firstName: 'Wren', lastName: 'Seeker' });
  const c = await signIn(stack, seeker);
  const mentor = await bookableMentor(stack);
  const scheduledAt = startIn(3);
  const held = await reserve(c, mentor, scheduledAt);
  const booking = await pay(c, held.reservation.id, seeker);
  await adopt(page, stack, c);

  // The dashboard's Message button opens the conversation about this booking: a new one says so.
  await page.goto(`/messages?mentor=${mentor.mentor.id}&booking=${booking.id}`);
  await expect(page.getByText('Conversation started successfully!')).toBeVisible();
  const thread = page.getByRole('region', { name: /Conversation with/ });
  const call = thread.getByRole('button', { name: 'Video call' });
  await expect(call).toBeDisabled();
  const opensAt = new Date(Date.parse(scheduledAt) - 15 * 60_000);
  const at = opensAt.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
  const reason = thread.getByTestId('video-call-closed');
  await expect(reason).toContainText(`at ${at}, 15 minutes before the session.`);
  await expect(call).toHaveAccessibleDescription(await reason.textContent());
  await call.click({ force: true });
  await expect(page.getByText('Connection Error')).toHaveCount(0);

  // Opening the same conversation again says nothing about starting one.
  await page.goto('/dashboard');
  await page.goto(`/messages?mentor=${mentor.mentor.id}&booking=${booking.id}`);
  await expect(page).toHaveURL(/conversation=/);
  await expect(thread.getByRole('button', { name: 'Video call' })).toBeDisabled();
  await expect(page.getByText('Conversation started successfully!')).toHaveCount(0);

  // Ten minutes before the start the window is open: the button is enabled, the reason gone.
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    await db.query(
      `UPDATE bookings SET scheduled_at = now() + interval '10 minutes', ends_at = now() + interval '70 minutes' WHERE id = $1`,
      [booking.id],
    );
  } finally {
    await db.end();
  }
  await page.reload();
  await expect(thread.getByRole('button', { name: 'Video call' })).toBeEnabled();
  await expect(thread.getByTestId('video-call-closed')).toHaveCount(0);
});

// A one-to-one video call through TURN only: the stack runs its own coturn (harness/turn.mjs; the api
// gets RTC_TURN_URL/RTC_TURN_SECRET), and both browsers force
// `iceTransportPolicy: 'relay'` on every peer connection (harness/relay.mjs), so the only candidates
// are relayed ones, allocated with the time-limited credentials of GET /api/rtc/config. The seeker
// calls, the mentor accepts, both receive the other's fake camera, and getStats shows on both sides a
// selected candidate pair whose local candidate is `relay`. Screenshot: tests/artifacts/relay-call.png.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { test, expect, createVerifiedUser, signIn, show, launchOptions, mediaArgs } from '../harness/fixtures.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { expectRelayed, forceRelay } from '../harness/relay.mjs';
import { startStack } from '../harness/stack.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

test.use({ launchOptions: { ...launchOptions, args: [...launchOptions.args, ...mediaArgs] } });

/** A confirmed, paid booking of `seeker` with a new mentor, moved to start in 5 minutes (its call window is open). */
async function bookingStartingSoon(stack, seekerClient, seeker) {
  const mentor = await bookableMentor(stack);
  const held = await reserve(seekerClient, mentor, startIn(2));
  const booking = await pay(seekerClient, held.reservation.id, seeker);
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    await db.query(
      `UPDATE bookings SET scheduled_at = date_trunc('minute', now()) + interval '5 minutes',
              earliest_scheduled_at = date_trunc('minute', now()) + interval '5 minutes',
              ends_at = date_trunc('minute', now()) + interval '65 minutes'
       WHERE id = $1 AND status = 'confirmed'`,
      [booking.id],
    );
  } finally {
    await db.end();
  }
  return { ...mentor, booking };
}

/** Polls the remote <video> until it plays frames of the other side's camera. */
async function receivesVideo(page) {
  const remote = page.getByTestId('remote-video');
  await expect(remote).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(() => remote.evaluate((v) => v.videoWidth), { timeout: 30_000, message: 'remote video width' })
    .toBeGreaterThan(0);
}

test('a one-to-one call connects through TURN alone and shows video both ways', async ({ browser }) => {
  test.setTimeout(180_000);
  const stack = await startStack({ turn: true });
  const contexts = [];
  try {
    const seeker = await createVerifiedUser(stack, { firstName: 'Vega', lastName: 'Seeker' });
    const seekerClient = await signIn(stack, seeker);
    const seekerId = (await seekerClient.get('/api/auth/user')).body.id;
    const { c: mentorClient, mentor, booking } = await bookingStartingSoon(stack, seekerClient, seeker);

    // The ICE servers the pages get include the stack's coturn, with credentials that expire.
    const rtc = await seekerClient.get('/api/rtc/config');
    expect(rtc.status, show(rtc)).toBe(200);
    expect(rtc.body.iceServers).toContainEqual({
      urls: [stack.turn.url],
      username: expect.stringMatching(`^\\d+:${seekerId}$`),
      credential: expect.any(String),
    });

    const open = async (c) => {
      const context = await browser.newContext({
        baseURL: stack.baseUrl,
        permissions: ['camera', 'microphone'],
        locale: 'en-US',
        timezoneId: 'UTC',
      });
      contexts.push(context);
      await context.addInitScript(forceRelay);
      await context.addCookies([
        { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
        { name: 'signed_in', value: '1', url: stack.baseUrl },
      ]);
      return context.newPage();
    };
    const seekerPage = await open(seekerClient);
    const mentorPage = await open(mentorClient);
    const composer = (page) => page.getByRole('textbox', { name: 'Message', exact: true });
    await seekerPage.goto(`/messages?mentor=${mentor.id}&booking=${booking.id}`);
    await expect(composer(seekerPage)).toBeVisible();
    await mentorPage.goto(`/messages?user=${seekerId}&booking=${booking.id}`);
    await expect(composer(mentorPage)).toBeVisible();
    await expect(seekerPage.getByText('Reconnecting…')).toBeHidden();
    await expect(mentorPage.getByText('Reconnecting…')).toBeHidden();

    await seekerPage.getByRole('button', { name: 'Video call', exact: true }).click();
    const overlay = mentorPage.getByRole('alertdialog').filter({ hasText: 'Incoming video call' });
    await expect(overlay).toBeVisible();
    await overlay.getByRole('button', { name: 'Accept' }).click();
    await receivesVideo(seekerPage);
    await receivesVideo(mentorPage);

    // Both sides send and receive through a relayed candidate, and gathered no other kind.
    await expectRelayed(seekerPage);
    await expectRelayed(mentorPage);
    await seekerPage.screenshot({ path: path.join(artifacts, 'relay-call.png'), fullPage: true });

    await seekerPage.getByRole('button', { name: 'Hang up' }).click();
    await expect(mentorPage.getByTestId('remote-video')).toBeHidden();
  } finally {
    for (const context of contexts) await context.close();
    await stack.stop();
  }
});

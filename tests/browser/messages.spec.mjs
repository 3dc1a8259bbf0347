// Chat and a one-to-one video call in the browser, against the real api (serving web/dist) and worker:
// a seeker and a mentor with a confirmed booking that starts within 15 minutes, each in their own
// browser context on /messages. They chat both ways (the typing indicator, then the read receipt),
// the mentor declines a first call from the seeker, accepts a second one on the incoming call overlay,
// and both sides receive the other's video from Chromium's fake camera before the seeker hangs up and
// both calls end. Then a mentor starts a booking's video session from the dashboard and the seeker,
// on their own dashboard, answers on the incoming call overlay. Last, a call survives the seeker's
// WebSocket being closed under it and the mentor's page being reloaded: each time both sides receive
// video again within 10 s without doing anything. Screenshots: tests/artifacts/messages-*.png.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { test, expect, createVerifiedUser, signIn, show, launchOptions, mediaArgs } from '../harness/fixtures.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

// A fake camera and microphone, permission prompts accepted, loopback ICE candidates.
test.use({
  launchOptions: { ...launchOptions, args: [...launchOptions.args, ...mediaArgs] },
  permissions: ['camera', 'microphone'],
  locale: 'en-US',
  timezoneId: 'UTC',
});

/**
 * A confirmed, paid booking of `seeker` with a new mentor that starts in 5 minutes, so its video
 * window (15 minutes before the start to the end) is open. The slot grid offers whole hours only,
 * so the next bookable slot can be up to two hours away: the booking is made for a real slot through
 * the api and then moved to now + 5 minutes directly in the database.
 */
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

/** Puts the api session of `c` into the page's context. */
async function adopt(page, stack, c) {
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
}

const composer = (page) => page.getByRole('textbox', { name: 'Message', exact: true });

/** A message of the open thread (the conversation list shows the last one too). */
const message = (page, text) => page.getByTestId('message').filter({ hasText: text });

/** Types `text` in the thread's composer and sends it. */
async function send(page, text) {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** Polls the remote <video> until it plays frames of the other side's camera. */
async function receivesVideo(page) {
  const remote = page.getByTestId('remote-video');
  await expect(remote).toBeVisible({ timeout: 20_000 });
  await expect
    .poll(() => remote.evaluate((v) => v.videoWidth), { timeout: 30_000, message: 'remote video width' })
    .toBeGreaterThan(0);
}

/** The id of the stream the remote <video> plays, or null. */
const remoteStreamId = (page) =>
  page
    .getByTestId('remote-video')
    .evaluate((v) => v.srcObject?.id ?? null)
    .catch(() => null);

/** How many frames the remote <video> has decoded so far (0 without one). */
const remoteFrames = (page) =>
  page
    .getByTestId('remote-video')
    .evaluate((v) => (v.videoWidth > 0 ? v.getVideoPlaybackQuality().totalVideoFrames : 0))
    .catch(() => 0);

/**
 * Waits until `page` plays a new remote stream (not `before`) whose frames keep coming, by `deadline`
 * (ms since the epoch): the other side's video flows again.
 */
async function videoBack(page, before, deadline) {
  let frames = 0;
  await expect
    .poll(
      async () => {
        const id = await remoteStreamId(page);
        if (!id || id === before) return false;
        const now = await remoteFrames(page);
        const flowing = frames > 0 && now > frames;
        frames = now;
        return flowing;
      },
      { timeout: Math.max(1, deadline - Date.now()), intervals: [200], message: 'new remote video, frames coming' },
    )
    .toBe(true);
}

/** Video flows both ways again within this long of a dropped connection or a reload (issue 19). */
const BACK_WITHIN_MS = 10_000;

test('a seeker and a mentor chat, then hold a video call', async ({ page: seekerPage, browser, stack }) => {
  test.setTimeout(180_000);
  const seeker = await createVerifiedUser(stack, { firstName: 'Orion', lastName: 'Seeker' });
  const seekerClient = await signIn(stack, seeker);
  const seekerId = (await seekerClient.get('/api/auth/user')).body.id;
  const { c: mentorClient, user: mentorUser, mentor, booking } = await bookingStartingSoon(stack, seekerClient, seeker);

  const mentorContext = await browser.newContext({
    baseURL: stack.baseUrl,
    permissions: ['camera', 'microphone'],
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const mentorPage = await mentorContext.newPage();
  try {
    await adopt(seekerPage, stack, seekerClient);
    await adopt(mentorPage, stack, mentorClient);

    // --- Both open the booking's conversation ----------------------------------------------------
    await seekerPage.goto(`/messages?mentor=${mentor.id}&booking=${booking.id}`);
    await expect(composer(seekerPage)).toBeVisible();
    const conversations = await seekerClient.get('/api/conversations');
    expect(conversations.status, show(conversations)).toBe(200);
    const conversation = conversations.body.find((c) => c.mentorId === mentor.id);
    expect(conversation, show(conversations)).toBeTruthy();
    expect(conversation.bookingId).toBe(booking.id);

    await mentorPage.goto(`/messages?user=${seekerId}&booking=${booking.id}`);
    await expect(composer(mentorPage)).toBeVisible();
    const mentorSide = await mentorClient.get('/api/conversations');
    expect(
      mentorSide.body.map((c) => c.id),
      show(mentorSide),
    ).toContain(conversation.id);
    // Both sockets are live (typing is not queued while offline, unlike messages).
    await expect(seekerPage.getByText('Reconnecting…')).toBeHidden();
    await expect(mentorPage.getByText('Reconnecting…')).toBeHidden();

    // --- Seeker -> mentor: typing, the message, the read receipt ----------------------------------
    await composer(seekerPage).pressSequentially('Hello', { delay: 30 });
    await expect(mentorPage.getByTestId('typing-indicator')).toHaveText('Orion is typing…');
    await composer(seekerPage).fill('');
    await send(seekerPage, 'Hello, I am looking forward to our reading.');
    await expect(message(mentorPage, 'Hello, I am looking forward to our reading.')).toBeVisible();
    await expect(mentorPage.getByTestId('typing-indicator')).toBeHidden();
    // The mentor has the thread open, so the seeker's message becomes read.
    const seekerMessage = message(seekerPage, 'Hello, I am looking forward to our reading.');
    await expect(seekerMessage).toHaveAttribute('data-status', 'read');
    await expect(seekerMessage.getByTestId('message-status')).toHaveText('Read');
    await shot(seekerPage, 'messages-01-seeker-read-receipt');

    // --- Mentor -> seeker ---------------------------------------------------------------------------
    await composer(mentorPage).pressSequentially('Welcome', { delay: 30 });
    await expect(seekerPage.getByTestId('typing-indicator')).toHaveText(`${mentorUser.firstName} is typing…`);
    await composer(mentorPage).fill('');
    await send(mentorPage, 'Welcome! The video room opens shortly.');
    await expect(message(seekerPage, 'Welcome! The video room opens shortly.')).toBeVisible();
    const mentorMessage = message(mentorPage, 'Welcome! The video room opens shortly.');
    await expect(mentorMessage).toHaveAttribute('data-status', 'read');
    await expect(mentorMessage.getByTestId('message-status')).toHaveText('Read');
    await shot(mentorPage, 'messages-02-mentor-thread');

    const history = await seekerClient.get(`/api/conversations/${conversation.id}/messages?limit=50&offset=0`);
    expect(
      history.body.map((m) => m.content),
      show(history),
    ).toEqual(['Hello, I am looking forward to our reading.', 'Welcome! The video room opens shortly.']);
    expect(history.body.every((m) => m.isRead)).toBe(true);

    // --- A first call, declined ---------------------------------------------------------------------
    const callButton = (page) => page.getByRole('button', { name: 'Video call', exact: true });
    const overlay = mentorPage.getByRole('alertdialog').filter({ hasText: 'Incoming video call' });
    await callButton(seekerPage).click();
    await expect(overlay).toBeVisible();
    await expect(overlay.getByText('Orion Seeker')).toBeVisible();
    await expect(overlay.getByRole('button', { name: 'Decline' })).toBeVisible();
    await expect(overlay.getByRole('button', { name: 'Accept' })).toBeVisible();
    await shot(mentorPage, 'messages-03-incoming-call');
    await overlay.getByRole('button', { name: 'Decline' }).click();
    await expect(overlay).toBeHidden();
    await expect(seekerPage.getByTestId('local-video')).toBeHidden();

    // --- A second call, accepted: video both ways, then hang up --------------------------------------
    await callButton(seekerPage).click();
    await expect(overlay).toBeVisible();
    await overlay.getByRole('button', { name: 'Accept' }).click();
    await expect(overlay).toBeHidden();
    await receivesVideo(seekerPage);
    await receivesVideo(mentorPage);
    // The call timer runs on both sides (mm:ss).
    await expect(seekerPage.getByTestId('call-timer')).toHaveText(/^\d{2}:\d{2}$/);
    await expect(mentorPage.getByTestId('call-timer')).toHaveText(/^\d{2}:\d{2}$/);
    await shot(seekerPage, 'messages-04-seeker-in-call');
    await shot(mentorPage, 'messages-05-mentor-in-call');

    await seekerPage.getByRole('button', { name: 'Hang up' }).click();
    await expect(seekerPage.getByTestId('remote-video')).toBeHidden();
    await expect(mentorPage.getByTestId('remote-video')).toBeHidden();
    await expect(mentorPage.getByTestId('local-video')).toBeHidden();
    await shot(mentorPage, 'messages-06-after-call');
    // Both threads are still usable after the call.
    await expect(composer(seekerPage)).toBeVisible();
    await expect(composer(mentorPage)).toBeVisible();

    // The server recorded one declined and one answered, ended call, both for the booking.
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const calls = await db.query(
        `SELECT status, booking_id, answered_at IS NOT NULL AS answered FROM calls WHERE conversation_id = $1 ORDER BY created_at`,
        [conversation.id],
      );
      expect(calls.rows).toEqual([
        { status: 'rejected', booking_id: booking.id, answered: false },
        { status: 'ended', booking_id: booking.id, answered: true },
      ]);
    } finally {
      await db.end();
    }
  } finally {
    await mentorContext.close();
  }
});

test('a mentor starts the video session from the dashboard and the seeker answers from another screen', async ({
  page: seekerPage,
  browser,
  stack,
}) => {
  test.setTimeout(180_000);
  const seeker = await createVerifiedUser(stack, { firstName: 'Lyra', lastName: 'Seeker' });
  const seekerClient = await signIn(stack, seeker);
  const { c: mentorClient, user: mentorUser, mentor, booking } = await bookingStartingSoon(stack, seekerClient, seeker);

  const mentorContext = await browser.newContext({
    baseURL: stack.baseUrl,
    permissions: ['camera', 'microphone'],
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const mentorPage = await mentorContext.newPage();
  try {
    await adopt(seekerPage, stack, seekerClient);
    await adopt(mentorPage, stack, mentorClient);

    // The seeker waits on the dashboard, where the booking offers the video session too.
    await seekerPage.goto('/dashboard');
    await expect(seekerPage.getByRole('link', { name: 'Start Video Session' })).toHaveAttribute(
      'href',
      `/messages?mentor=${mentor.id}&booking=${booking.id}&startCall=true`,
    );

    await mentorPage.goto('/mentor-dashboard');
    await mentorPage.getByRole('link', { name: 'Start Video Session' }).click();
    await expect(mentorPage).toHaveURL(/\/messages\?conversation=[^&]+&booking=[^&]+&startCall=true/);

    // The overlay shows over the dashboard.
    const overlay = seekerPage.getByRole('alertdialog').filter({ hasText: 'Incoming video call' });
    await expect(overlay).toBeVisible();
    await expect(overlay.getByText(`${mentorUser.firstName} ${mentorUser.lastName}`)).toBeVisible();
    await expect(seekerPage).toHaveURL(/\/dashboard$/);
    await overlay.getByRole('button', { name: 'Accept' }).click();
    await expect(seekerPage).toHaveURL(/\/messages\?conversation=[^&]+&startCall=true/);

    await receivesVideo(mentorPage);
    await receivesVideo(seekerPage);
    await shot(seekerPage, 'messages-07-seeker-answered-from-dashboard');

    await mentorPage.getByRole('button', { name: 'Hang up' }).click();
    await expect(mentorPage.getByTestId('remote-video')).toBeHidden();
    await expect(seekerPage.getByTestId('remote-video')).toBeHidden();
    await expect(seekerPage.getByRole('button', { name: 'Video call', exact: true })).toBeEnabled();

    // One call, answered and ended: the seeker's page, whose address says startCall=true, joined the
    // accepted call instead of placing another.
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const calls = await db.query(
        `SELECT c.status, c.answered_at IS NOT NULL AS answered, c.caller_id = m.user_id AS mentor_called
         FROM calls c JOIN conversations v ON v.id = c.conversation_id JOIN mentors m ON m.id = v.mentor_id
         WHERE c.booking_id = $1`,
        [booking.id],
      );
      expect(calls.rows).toEqual([{ status: 'ended', answered: true, mentor_called: true }]);
    } finally {
      await db.end();
    }
  } finally {
    await mentorContext.close();
  }
});

test('a call survives a dropped WebSocket and a reload: both sides see each other again within 10 s', async ({
  page: seekerPage,
  browser,
  stack,
}) => {
  test.setTimeout(180_000);
  const seeker = await createVerifiedUser(stack, { firstName: 'Vega', lastName: 'Seeker' });
  const seekerClient = await signIn(stack, seeker);
  const { c: mentorClient, mentor, booking } = await bookingStartingSoon(stack, seekerClient, seeker);

  const mentorContext = await browser.newContext({
    baseURL: stack.baseUrl,
    permissions: ['camera', 'microphone'],
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  const mentorPage = await mentorContext.newPage();
  // The seeker's page talks to /api/ws through Playwright, so the test can close its socket.
  const seekerSockets = [];
  await seekerPage.routeWebSocket(/\/api\/ws$/, (ws) => {
    ws.connectToServer();
    seekerSockets.push(ws);
  });
  try {
    await adopt(seekerPage, stack, seekerClient);
    await adopt(mentorPage, stack, mentorClient);
    await mentorPage.goto('/mentor-dashboard');
    await seekerPage.goto(`/messages?mentor=${mentor.id}&booking=${booking.id}`);
    await expect(composer(seekerPage)).toBeVisible();
    await expect(seekerPage.getByText('Reconnecting…')).toBeHidden();
    // The mentor's page is connected too (its socket registered) before the seeker calls.
    const sockets = new pg.Client({ connectionString: stack.databaseUrl });
    await sockets.connect();
    try {
      await expect
        .poll(
          async () =>
            (await sockets.query('SELECT count(*)::int AS n FROM realtime_sockets WHERE user_id = $1', [mentor.userId]))
              .rows[0].n,
          { message: "the mentor's socket" },
        )
        .toBeGreaterThan(0);
    } finally {
      await sockets.end();
    }

    // The seeker calls; the mentor accepts on the overlay (their address then says startCall=true).
    await seekerPage.getByRole('button', { name: 'Video call', exact: true }).click();
    const overlay = mentorPage.getByRole('alertdialog').filter({ hasText: 'Incoming video call' });
    await overlay.getByRole('button', { name: 'Accept' }).click();
    await expect(mentorPage).toHaveURL(/startCall=true/);
    await receivesVideo(seekerPage);
    await receivesVideo(mentorPage);

    // --- The seeker's WebSocket closes under the call ------------------------------------------------
    let seekerSees = await remoteStreamId(seekerPage);
    let mentorSees = await remoteStreamId(mentorPage);
    expect(seekerSockets).toHaveLength(1);
    let deadline = Date.now() + BACK_WITHIN_MS;
    await seekerSockets[0].close({ code: 1006, reason: 'dropped by the test' });
    await videoBack(seekerPage, seekerSees, deadline);
    await videoBack(mentorPage, mentorSees, deadline);
    expect(seekerSockets.length).toBeGreaterThan(1);
    await shot(seekerPage, 'messages-08-seeker-back-after-dropped-socket');

    // --- The mentor's page reloads mid-call ---------------------------------------------------------
    seekerSees = await remoteStreamId(seekerPage);
    deadline = Date.now() + BACK_WITHIN_MS;
    await mentorPage.reload();
    await videoBack(mentorPage, null, deadline);
    await videoBack(seekerPage, seekerSees, deadline);
    await expect(mentorPage.getByTestId('call-timer')).toHaveText(/^\d{2}:\d{2}$/);
    await shot(mentorPage, 'messages-09-mentor-back-after-reload');

    await mentorPage.getByRole('button', { name: 'Hang up' }).click();
    await expect(seekerPage.getByTestId('remote-video')).toBeHidden();
    await expect(mentorPage.getByTestId('remote-video')).toBeHidden();

    // One call from start to end: neither the dropped socket nor the reload ended it or placed another.
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      const calls = await db.query(`SELECT status FROM calls WHERE booking_id = $1`, [booking.id]);
      expect(calls.rows).toEqual([{ status: 'ended' }]);
    } finally {
      await db.end();
    }
  } finally {
    await mentorContext.close();
  }
});

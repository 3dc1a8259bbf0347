// A group call through a real Janus SFU, in three browser contexts: the mentor starts the session,
// every side receives the others' video, the mentor mutes one participant (their audio stops
// reaching the others), removes the other (whose page says the mentor removed them, and who cannot rejoin), and
// ends the session (everyone leaves the call). A participant whose socket is ready only after the
// start still sees the session go live.
import pg from 'pg';
import { test, expect, createVerifiedUser, signIn, show, launchOptions, mediaArgs } from '../harness/fixtures.mjs';
import { bookableMentor } from '../harness/booking.mjs';
import { groupService, groupSessionWithSeats } from '../harness/group-sessions.mjs';
import { startStack } from '../harness/stack.mjs';

test.use({ launchOptions: { ...launchOptions, args: [...launchOptions.args, ...mediaArgs] } });

// Every RTCPeerConnection of the page, so the test can read what each receiver gets.
const RECORD_PEER_CONNECTIONS = () => {
  const Original = window.RTCPeerConnection;
  window.__pcs = [];
  window.RTCPeerConnection = function (...args) {
    const pc = new Original(...args);
    window.__pcs.push(pc);
    return pc;
  };
  window.RTCPeerConnection.prototype = Original.prototype;
};

/** Audio bytes this page has received for the tile of `userId`. */
async function audioBytesFrom(page, userId) {
  return page.evaluate(async (id) => {
    const video = document.querySelector(`[data-testid="remote-video-${id}"]`);
    const track = video?.srcObject?.getAudioTracks?.()[0];
    if (!track) return -1;
    for (const pc of window.__pcs) {
      for (const receiver of pc.getReceivers()) {
        // Janus names every subscriber's tracks alike (janus0, janus1): match the object itself.
        if (receiver.track !== track) continue;
        let bytes = 0;
        (await receiver.getStats()).forEach((s) => {
          if (s.type === 'inbound-rtp') bytes += s.bytesReceived ?? 0;
        });
        return bytes;
      }
    }
    return -1;
  }, userId);
}

const videoWidth = (page, testId) => page.getByTestId(testId).evaluate((v) => v.videoWidth);

test('a mentor and two participants meet through the SFU; the mentor mutes, removes and ends', async ({ browser }) => {
  test.setTimeout(240_000);
  const stack = await startStack({ janus: true });
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const contexts = [];
  try {
    const mentor = await bookableMentor(stack);
    const service = await groupService(mentor);
    const people = [];
    for (const firstName of ['Ann', 'Ben']) {
      const user = await createVerifiedUser(stack, { firstName, lastName: 'Seeker' });
      const c = await signIn(stack, user);
      people.push({ id: (await c.get('/api/auth/user')).body.id, c, name: `${firstName} Seeker` });
    }
    // The worker's session sweep would start a session whose time has come by itself: this test is
    // about the mentor starting it, so the worker (needed above for the sign-up mails) stops here.
    await stack.stopWorker();
    const sessionId = await groupSessionWithSeats(
      db,
      mentor,
      service,
      people.map((p) => p.id),
    );
    const [ann, ben] = people;
    const mentorUserId = mentor.mentor.userId;

    const open = async (client) => {
      const context = await browser.newContext({
        baseURL: stack.baseUrl,
        permissions: ['camera', 'microphone'],
        locale: 'en-US',
        timezoneId: 'UTC',
      });
      contexts.push(context);
      await context.addInitScript(RECORD_PEER_CONNECTIONS);
      await context.addCookies([
        { name: 'sid', value: client.cookies.sid, url: stack.baseUrl },
        { name: 'signed_in', value: '1', url: stack.baseUrl },
      ]);
      const page = await context.newPage();
      await page.goto(`/group-video-call/${sessionId}`);
      return page;
    };
    const mentorPage = await open(mentor.c);
    const annPage = await open(ann.c);
    const benPage = await open(ben.c);

    // The mentor's controls are the mentor's alone.
    await expect(mentorPage.getByRole('figure', { name: 'You (Mentor)' })).toBeVisible();
    await expect(annPage.getByRole('figure', { name: 'You', exact: true })).toBeVisible();
    await expect(annPage.getByRole('button', { name: 'Start Session' })).toHaveCount(0);
    await expect(annPage.getByRole('button', { name: /Share Screen/ })).toHaveCount(0);

    // Everyone is seated (a seat is taken over the socket), so every page hears the start itself.
    for (const person of [ann, ben]) {
      await expect(mentorPage.getByRole('figure', { name: person.name })).toBeVisible();
    }
    await mentorPage.getByRole('button', { name: 'Start Session' }).click();
    // The toast is brief: every page is watched for it at once; the badges stay.
    await Promise.all(
      [mentorPage, annPage, benPage].map((page) => expect(page.getByText('Group Session Started')).toBeVisible()),
    );
    for (const page of [mentorPage, annPage, benPage]) {
      await expect(page.getByLabel('Live')).toBeVisible();
      await expect(page.getByTestId('elapsed-time')).toBeVisible();
    }

    // Everyone receives everyone else's video through the SFU.
    const sees = [
      [mentorPage, [ann.id, ben.id]],
      [annPage, [mentorUserId, ben.id]],
      [benPage, [mentorUserId, ann.id]],
    ];
    for (const [page, others] of sees) {
      for (const other of others) {
        await expect
          .poll(() => videoWidth(page, `remote-video-${other}`).catch(() => 0), {
            timeout: 60_000,
            message: `video of ${other}`,
          })
          .toBeGreaterThan(0);
      }
      await expect(page.getByTestId('participant-count')).toHaveText('3 participants');
    }

    // Muting Ann stops her audio at Ben's (Janus stops forwarding it).
    await expect.poll(() => audioBytesFrom(benPage, ann.id), { timeout: 30_000 }).toBeGreaterThan(0);
    await mentorPage.getByRole('button', { name: `Mute ${ann.name}` }).click();
    await expect(benPage.getByRole('figure', { name: ann.name }).getByText('Muted')).toBeVisible();
    // Ann's own microphone says the mentor muted her, and she cannot turn it back on.
    await expect(annPage.getByRole('button', { name: 'Muted by the mentor' })).toBeDisabled();
    let previous = -1;
    await expect
      .poll(
        async () => {
          const now = await audioBytesFrom(benPage, ann.id);
          const still = now === previous;
          previous = now;
          return still;
        },
        { timeout: 30_000, intervals: [1_000], message: "Ann's audio keeps arriving at Ben's" },
      )
      .toBe(true);
    // Her video still flows.
    expect(await videoWidth(benPage, `remote-video-${ann.id}`)).toBeGreaterThan(0);

    // Issue 30: each seeker's dashboard, open in another tab, shows the seat live with its way in,
    // and changes by itself (no reload) when the mentor removes them or ends the session.
    const dashboardOf = async (page) => {
      const tab = await page.context().newPage();
      await tab.goto('/dashboard');
      await expect(
        tab.getByRole('list', { name: 'Upcoming sessions' }).getByRole('link', { name: /Join Video Call/ }),
      ).toBeVisible();
      return tab;
    };
    const annDashboard = await dashboardOf(annPage);
    const benDashboard = await dashboardOf(benPage);

    // Removing Ben asks first, and for the reason (which decides the money); he is sent out, and
    // cannot come back.
    await mentorPage.getByRole('button', { name: `Remove ${ben.name}` }).click();
    const removal = mentorPage.getByRole('dialog', { name: `Remove ${ben.name}?` });
    await expect(removal).toBeVisible();
    await expect(removal.getByRole('button', { name: 'Remove Participant' })).toBeDisabled();
    await removal.getByRole('button', { name: 'Keep in Session' }).click();
    await expect(removal).toBeHidden();
    await expect(mentorPage.getByTestId(`remote-video-${ben.id}`)).toBeVisible();
    await mentorPage.getByRole('button', { name: `Remove ${ben.name}` }).click();
    await expect(removal.getByText(/No refund: the seat stays paid/)).toBeVisible();
    await removal.getByRole('radio', { name: /Conduct/ }).check();
    await removal.getByRole('button', { name: 'Remove Participant' }).click();
    await expect(mentorPage.getByText('Participant Removed')).toBeVisible();
    await expect(benPage.getByRole('heading', { name: 'Removed from session' })).toBeVisible();
    await expect(benPage.getByText('You were removed from this session by the mentor.')).toBeVisible();
    // His screen says what happens to his seat's money.
    await expect(benPage.getByText(/The mentor removed you for conduct, so your seat is not refunded/)).toBeVisible();
    // His dashboard says so at once: no way in, no 'Happening now', no 'Confirmed'.
    await expect(benDashboard.getByRole('link', { name: /Join Video Call/ })).toHaveCount(0);
    await benDashboard.getByRole('tab', { name: 'Session History' }).click();
    const benSeat = benDashboard.getByRole('list', { name: 'Session history' }).getByRole('article');
    await expect(benSeat.getByText('Removed from session')).toBeVisible();
    await expect(benSeat.getByText('Confirmed', { exact: true })).toHaveCount(0);
    await expect(mentorPage.getByTestId(`remote-video-${ben.id}`)).toHaveCount(0, { timeout: 30_000 });
    const again = await ben.c.get(`/api/group-sessions/${sessionId}/call`);
    expect(again.status, show(again)).toBe(403);
    await benPage.goto(`/group-video-call/${sessionId}`);
    await expect(benPage.getByRole('heading', { name: 'Removed from session' })).toBeVisible();
    await expect(benPage.getByRole('link', { name: /Join/ })).toHaveCount(0);
    // /group-sessions shows his seat as removed, with no way into the call.
    await benPage.goto('/group-sessions');
    await expect(benPage.getByText('You were removed from this session by the mentor.')).toBeVisible();
    await expect(benPage.getByRole('link', { name: 'Join Video Call' })).toHaveCount(0);

    // The mentor ends the session, once they confirm it: everyone leaves the call.
    await mentorPage
      .getByRole('toolbar', { name: 'Call controls' })
      .getByRole('button', { name: 'End Session' })
      .click();
    const ending = mentorPage.getByRole('dialog', { name: 'End this session for everyone?' });
    await ending.getByRole('button', { name: 'Keep Session' }).click();
    await expect(ending).toBeHidden();
    await expect(mentorPage.getByLabel('Live')).toBeVisible();
    await mentorPage
      .getByRole('toolbar', { name: 'Call controls' })
      .getByRole('button', { name: 'End Session' })
      .click();
    await ending.getByRole('button', { name: 'End Session' }).click();
    await expect(annPage).toHaveURL(/\/group-sessions$/);
    await expect(mentorPage).toHaveURL(/\/group-sessions$/);
    // Ann's dashboard shows the session ended at once, and after a reload.
    for (const reload of [false, true]) {
      if (reload) await annDashboard.reload();
      await expect(annDashboard.getByRole('link', { name: /Join Video Call/ })).toHaveCount(0);
      await expect(annDashboard.getByText('Happening now')).toHaveCount(0);
      await annDashboard.getByRole('tab', { name: 'Session History' }).click();
      const annSeat = annDashboard.getByRole('list', { name: 'Session history' }).getByRole('article');
      await expect(annSeat.getByText('Session ended', { exact: true })).toBeVisible();
    }
    expect((await db.query('SELECT status FROM group_sessions WHERE id = $1', [sessionId])).rows[0].status).toBe(
      'completed',
    );
  } finally {
    for (const context of contexts) await context.close();
    await db.end();
    await stack.stop();
  }
});

test('a participant whose socket is ready only after the mentor started sees the session live', async ({ browser }) => {
  test.setTimeout(120_000);
  const stack = await startStack({ janus: true });
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  let context;
  try {
    const mentor = await bookableMentor(stack);
    const service = await groupService(mentor);
    const user = await createVerifiedUser(stack, { firstName: 'Cleo', lastName: 'Seeker' });
    const cleo = await signIn(stack, user);
    const cleoId = (await cleo.get('/api/auth/user')).body.id;
    await stack.stopWorker();
    const sessionId = await groupSessionWithSeats(db, mentor, service, [cleoId]);

    context = await browser.newContext({
      baseURL: stack.baseUrl,
      permissions: ['camera', 'microphone'],
      locale: 'en-US',
      timezoneId: 'UTC',
    });
    await context.addCookies([
      { name: 'sid', value: cleo.cookies.sid, url: stack.baseUrl },
      { name: 'signed_in', value: '1', url: stack.baseUrl },
    ]);
    // Her socket reaches the server only when the test lets it: the start is announced before.
    let letThrough;
    const gate = new Promise((resolve) => (letThrough = resolve));
    await context.routeWebSocket(/\/api\/ws$/, async (ws) => {
      await gate;
      ws.connectToServer();
    });
    const page = await context.newPage();
    await page.goto(`/group-video-call/${sessionId}`);
    await expect(page.getByText('Waiting for the mentor to start the session')).toBeVisible();

    const start = await mentor.c.put(`/api/group-sessions/${sessionId}`, { status: 'active' });
    expect(start.status, show(start)).toBe(200);
    letThrough();

    await expect(page.getByText('Group Session Started')).toBeVisible();
    await expect(page.getByLabel('Live')).toBeVisible();
  } finally {
    await context?.close();
    await db.end();
    await stack.stop();
  }
});

/** Marks the stream `page` shows in tile `testId` now, so a later one can be told apart. */
const markStream = (page, testId) =>
  page.getByTestId(testId).evaluate((v) => {
    if (v.srcObject) v.srcObject.__seen = true;
  });
/** Whether tile `testId` shows live video from a stream it did not show when it was marked. */
const freshVideo = (page, testId) =>
  page
    .getByTestId(testId)
    .evaluate((v) => Boolean(v.srcObject && !v.srcObject.__seen && v.videoWidth > 0))
    .catch(() => false);

test('a participant whose socket drops, or who reloads, is back in the call within 10 s', async ({ browser }) => {
  test.setTimeout(180_000);
  // Issue 19, point 7: the page rejoins by itself within this time, and the others see it return.
  const BACK_WITHIN_MS = 10_000;
  const stack = await startStack({ janus: true });
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const contexts = [];
  try {
    const mentor = await bookableMentor(stack);
    const service = await groupService(mentor);
    const user = await createVerifiedUser(stack, { firstName: 'Dan', lastName: 'Seeker' });
    const dan = await signIn(stack, user);
    const danId = (await dan.get('/api/auth/user')).body.id;
    await stack.stopWorker();
    const sessionId = await groupSessionWithSeats(db, mentor, service, [danId]);
    const mentorUserId = mentor.mentor.userId;

    const open = async (client, route) => {
      const context = await browser.newContext({
        baseURL: stack.baseUrl,
        permissions: ['camera', 'microphone'],
        locale: 'en-US',
        timezoneId: 'UTC',
      });
      contexts.push(context);
      await context.addCookies([
        { name: 'sid', value: client.cookies.sid, url: stack.baseUrl },
        { name: 'signed_in', value: '1', url: stack.baseUrl },
      ]);
      if (route) await context.routeWebSocket(/\/api\/ws$/, route);
      const page = await context.newPage();
      await page.goto(`/group-video-call/${sessionId}`);
      return page;
    };
    // Dan's socket passes through the test, which can cut it.
    let danSocket = null;
    const mentorPage = await open(mentor.c);
    const danPage = await open(dan, (ws) => {
      danSocket = { page: ws, server: ws.connectToServer() };
    });
    const seeEachOther = async (timeout) => {
      await Promise.all([
        expect.poll(() => freshVideo(mentorPage, `remote-video-${danId}`), { timeout }).toBe(true),
        expect.poll(() => freshVideo(danPage, `remote-video-${mentorUserId}`), { timeout }).toBe(true),
      ]);
      await markStream(mentorPage, `remote-video-${danId}`);
      await markStream(danPage, `remote-video-${mentorUserId}`);
    };
    await seeEachOther(60_000);

    // The test cuts Dan's socket: his page reconnects and rejoins, and the mentor sees him again.
    const socket = danSocket;
    await socket.server.close();
    await socket.page.close();
    await seeEachOther(BACK_WITHIN_MS);
    expect(danSocket).not.toBe(socket);

    // A reload brings him back too.
    await danPage.reload();
    await seeEachOther(BACK_WITHIN_MS);
    await expect(mentorPage.getByTestId('participant-count')).toHaveText('2 participants');
  } finally {
    for (const context of contexts) await context.close();
    await db.end();
    await stack.stop();
  }
});

test('the call opens 15 minutes early: a waiting room says when it starts and who is there, and the mentor may start', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const stack = await startStack({ janus: true });
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const contexts = [];
  try {
    const mentor = await bookableMentor(stack);
    const service = await groupService(mentor);
    const user = await createVerifiedUser(stack, { firstName: 'Cleo', lastName: 'Seeker' });
    const cleo = await signIn(stack, user);
    const cleoId = (await cleo.get('/api/auth/user')).body.id;
    // The worker would start the session at its start: this test is about the minutes before.
    await stack.stopWorker();
    const sessionId = await groupSessionWithSeats(db, mentor, service, [cleoId], { startMinutes: 10 });
    const open = async (client) => {
      const context = await browser.newContext({
        baseURL: stack.baseUrl,
        permissions: ['camera', 'microphone'],
        locale: 'en-US',
        timezoneId: 'UTC',
      });
      contexts.push(context);
      await context.addCookies([
        { name: 'sid', value: client.cookies.sid, url: stack.baseUrl },
        { name: 'signed_in', value: '1', url: stack.baseUrl },
      ]);
      return context.newPage();
    };

    // Cleo's dashboard leads into the call ten minutes before the start.
    const cleoPage = await open(cleo);
    await cleoPage.goto('/dashboard');
    await cleoPage.getByRole('link', { name: /Join Video Call/ }).click();
    await expect(cleoPage).toHaveURL(new RegExp(`/group-video-call/${sessionId}$`));
    const waiting = cleoPage.getByRole('region', { name: 'Waiting room' });
    await expect(waiting.getByText('Waiting for the mentor to start the session')).toBeVisible();
    await expect(waiting.getByTestId('starts-at')).toHaveText(
      /^Starts at \d{1,2}:\d{2} (AM|PM) \(in (9|10) minutes\)$/,
    );
    await expect(waiting.getByTestId('here-now')).toHaveText('You');

    // The mentor's card on /group-sessions leads to the call as well.
    const mentorPage = await open(mentor.c);
    await mentorPage.goto('/group-sessions');
    const start = mentorPage.getByRole('link', { name: 'Start Group Session' });
    await expect(start).toHaveAttribute('href', `/group-video-call/${sessionId}`);
    await start.click();
    await expect(mentorPage.getByRole('figure', { name: 'You (Mentor)' })).toBeVisible();
    await expect(waiting.getByTestId('here-now')).toHaveText(/^You, .+ \(Mentor\)$/, { timeout: 60_000 });
    await expect(mentorPage.getByRole('region', { name: 'Waiting room' }).getByTestId('here-now')).toHaveText(
      'You, Cleo Seeker',
      { timeout: 60_000 },
    );

    // The mentor starts ten minutes early; Cleo's room goes live.
    await mentorPage.getByRole('button', { name: 'Start Session' }).click();
    await expect(cleoPage.getByText('Group Session Started')).toBeVisible();
    await expect(cleoPage.getByLabel('Live')).toBeVisible();
    await expect(waiting).toBeHidden();
    expect((await db.query('SELECT status FROM group_sessions WHERE id = $1', [sessionId])).rows[0].status).toBe(
      'active',
    );
  } finally {
    for (const context of contexts) await context.close();
    await db.end();
    await stack.stop();
  }
});

// A group call through TURN only (issue 19, point 2, the group half): both browsers force
// `iceTransportPolicy: 'relay'` on every peer connection (harness/relay.mjs), Janus relays through
// the same coturn, and the call still carries video both ways over the new signalling (the api
// relays SDP and candidates; the ICE servers are the call response's, with TURN credentials).
import pg from 'pg';
import { test, expect, createVerifiedUser, signIn, launchOptions, mediaArgs } from '../harness/fixtures.mjs';
import { bookableMentor } from '../harness/booking.mjs';
import { groupService, groupSessionWithSeats } from '../harness/group-sessions.mjs';
import { expectRelayed, forceRelay } from '../harness/relay.mjs';
import { startStack } from '../harness/stack.mjs';

test.use({ launchOptions: { ...launchOptions, args: [...launchOptions.args, ...mediaArgs] } });

const videoWidth = (page, testId) => page.getByTestId(testId).evaluate((v) => v.videoWidth);

// Janus offers only the machine's own address, so the stack's coturn relays from there
// (startStack({ janus: true, turn: true }), harness/turn.mjs relayAddress).
test('a relay-only group call shows video both ways through TURN', async ({ browser }) => {
  test.setTimeout(180_000);
  const stack = await startStack({ janus: true, turn: true });
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const contexts = [];
  try {
    const mentor = await bookableMentor(stack);
    const service = await groupService(mentor);
    const user = await createVerifiedUser(stack, { firstName: 'Eve', lastName: 'Seeker' });
    const eve = await signIn(stack, user);
    const eveId = (await eve.get('/api/auth/user')).body.id;
    await stack.stopWorker();
    const sessionId = await groupSessionWithSeats(db, mentor, service, [eveId]);

    const call = (await eve.get(`/api/group-sessions/${sessionId}/call`)).body;
    expect(call.iceServers.some((s) => s.urls.some((u) => u.startsWith('turn:')) && s.credential)).toBe(true);

    const open = async (client) => {
      const context = await browser.newContext({
        baseURL: stack.baseUrl,
        permissions: ['camera', 'microphone'],
        locale: 'en-US',
        timezoneId: 'UTC',
      });
      contexts.push(context);
      await context.addInitScript(forceRelay);
      await context.addCookies([
        { name: 'sid', value: client.cookies.sid, url: stack.baseUrl },
        { name: 'signed_in', value: '1', url: stack.baseUrl },
      ]);
      const page = await context.newPage();
      await page.goto(`/group-video-call/${sessionId}`);
      return page;
    };
    const mentorPage = await open(mentor.c);
    const evePage = await open(eve);

    for (const [page, other] of [
      [mentorPage, eveId],
      [evePage, mentor.mentor.userId],
    ]) {
      await expect
        .poll(() => videoWidth(page, `remote-video-${other}`).catch(() => 0), {
          timeout: 60_000,
          message: `video of ${other} through TURN`,
        })
        .toBeGreaterThan(0);
    }
    // Each page's publisher and subscriber connections selected a relayed local candidate.
    await expectRelayed(mentorPage, { min: 2 });
    await expectRelayed(evePage, { min: 2 });
  } finally {
    for (const context of contexts) await context.close();
    await db.end();
    await stack.stop();
  }
});

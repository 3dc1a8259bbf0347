// Issue 33 §4: every user's private calendar feed. GET /api/user/calendar-feed → {url};
// GET /api/calendar/{token}.ics (no sign-in: the address is the secret) lists the user's sessions
// with the e-mail invitations' UIDs, cancelled ones as STATUS:CANCELLED; group sessions included;
// POST /api/user/calendar-feed/rotate makes a new address and the old one answers 404.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { groupService, groupSessionWithSeats } from '../harness/group-sessions.mjs';
import { startStack } from '../harness/stack.mjs';

let stack;
let db;
before(async () => {
  stack = await startStack();
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

const DAY_MS = 86_400_000;

async function feedUrl(c) {
  const r = await c.get('/api/user/calendar-feed');
  assert.equal(r.status, 200, show(r));
  assert.deepEqual(Object.keys(r.body), ['url']);
  assert.match(r.body.url, /\/api\/calendar\/[A-Za-z0-9_-]{40,}\.ics$/);
  return r.body.url;
}

/** The feed at `url`, fetched as a calendar app does: no cookie. */
async function fetchFeed(url) {
  const path = new URL(url).pathname;
  const res = await fetch(new URL(path, stack.baseUrl));
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

/** The unfolded VEVENTs of a feed, each as a map of its properties. */
function events(ics) {
  const unfolded = ics.replace(/\r\n /g, '');
  return unfolded
    .split('BEGIN:VEVENT\r\n')
    .slice(1)
    .map((block) => {
      const props = {};
      for (const line of block.split('\r\n')) {
        const at = line.indexOf(':');
        if (at > 0) props[line.slice(0, at)] = line.slice(at + 1);
      }
      return props;
    });
}

describe('the private calendar feed', () => {
  it('lists the sessions of seekers and mentors with the invitation UIDs, and cancellations', async () => {
    const mentor = await bookableMentor(stack, { price: '0.00' });
    const seekerUser = await createVerifiedUser(stack, { firstName: 'Fenna', lastName: 'Feedley' });
    const seeker = await signIn(stack, seekerUser);
    const start = new Date(Math.floor((Date.now() + 3 * DAY_MS) / 3_600_000) * 3_600_000).toISOString();
    const r = await seeker.post('/api/reservations', {
      serviceId: mentor.service.id,
      mentorId: mentor.mentor.id,
      scheduledAt: start,
    });
    assert.equal(r.status, 201, show(r));
    const bookingId = r.body.booking?.id;
    assert.ok(bookingId, show(r));
    const group = await groupService(mentor);
    const seekerId = (await seeker.get('/api/user/profile')).body.id;
    const groupId = await groupSessionWithSeats(db, mentor, group, [seekerId], { startMinutes: 5 * 24 * 60 });

    const seekerFeed = await fetchFeed(await feedUrl(seeker));
    assert.equal(seekerFeed.status, 200, seekerFeed.body);
    assert.match(seekerFeed.type, /^text\/calendar/);
    const mine = events(seekerFeed.body);
    const one = mine.find((e) => e.UID === `booking-${bookingId}@mystic-mentors`);
    assert.ok(one, seekerFeed.body);
    assert.equal(one.SUMMARY, 'Hour reading with Orla Ops');
    assert.equal(one.STATUS, 'CONFIRMED');
    assert.equal(one.DTSTART, start.replace(/[-:]/g, '').replace('.000', ''));
    assert.ok(
      mine.some((e) => e.SUMMARY === 'Full moon circle with Orla Ops'),
      'the seat in the group session',
    );

    const mentorFeed = events((await fetchFeed(await feedUrl(mentor.c))).body);
    const theirs = mentorFeed.find((e) => e.UID === `booking-${bookingId}@mystic-mentors`);
    assert.equal(theirs?.SUMMARY, 'Hour reading with Fenna Feedley', JSON.stringify(mentorFeed));
    const circle = mentorFeed.filter((e) => e.UID === `group-session-${groupId}@mystic-mentors`);
    assert.equal(circle.length, 1, 'a group session once, however many seats');

    const cancel = await seeker.put(`/api/user/bookings/${bookingId}/cancel`, { acknowledgePolicy: true });
    assert.equal(cancel.status, 200, show(cancel));
    const after = events((await fetchFeed(await feedUrl(seeker))).body);
    const cancelled = after.find((e) => e.UID === `booking-${bookingId}@mystic-mentors`);
    assert.equal(cancelled?.STATUS, 'CANCELLED');
  });

  it('keeps one address until it is rotated, after which the old one answers 404', async () => {
    const c = await signIn(stack, await createVerifiedUser(stack));
    const first = await feedUrl(c);
    assert.equal(await feedUrl(c), first, 'the same address each time');
    assert.equal((await fetchFeed(first)).status, 200);
    const rotated = await c.post('/api/user/calendar-feed/rotate');
    assert.equal(rotated.status, 200, show(rotated));
    assert.notEqual(rotated.body.url, first);
    assert.equal((await fetchFeed(first)).status, 404);
    assert.equal((await fetchFeed(rotated.body.url)).status, 200);
    assert.equal(await feedUrl(c), rotated.body.url);
    const guessed = await fetch(
      new URL('/api/calendar/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics', stack.baseUrl),
    );
    assert.equal(guessed.status, 404);
    const anonymous = await fetch(new URL('/api/user/calendar-feed', stack.baseUrl));
    assert.equal(anonymous.status, 401);
  });
});

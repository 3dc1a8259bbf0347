// Issue 33 §1-3 against a real CalDAV server (Radicale, tests/harness/radicale.mjs): a mentor
// connects their calendar; events put into it (a one-off, a weekly one with an exception and an
// overridden instance, an all-day one, a transparent one) block slots after a sync and a
// reservation into one answers 409; a paid booking is written back, moved and deleted with the
// booking; a server that stops keeps the last busy times in force and says `failing`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor, pay, reserve } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { groupService } from '../harness/group-sessions.mjs';
import { startRadicale } from '../harness/radicale.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const WRONG_CREDENTIALS = 'The calendar server refused these credentials.';
const SLOT_TAKEN = 'This time is no longer available';
const DAY_MS = 86_400_000;
const SYNC_TIMEOUT_MS = 30_000;

let stack;
let cal;
let anon;
let m;
before(async () => {
  cal = await startRadicale();
  await cal.makeCalendar('work', 'Work');
  await cal.makeCalendar('home', 'Home');
  stack = await startStack({ env: { CALDAV_ALLOW_LOCAL_URLS: 'true' } });
  anon = client(stack.baseUrl);
  m = await bookableMentor(stack);
});
after(async () => {
  await stack?.stop();
  await cal?.stop();
});

/** The UTC date `n` days after the test's first day (three days from now), YYYY-MM-DD. */
const day = (n) => new Date(Date.now() + (3 + n) * DAY_MS).toISOString().slice(0, 10);
/** An iCalendar UTC stamp of `date` at `hh`:00. */
const at = (date, hh) => `${date.replaceAll('-', '')}T${String(hh).padStart(2, '0')}0000Z`;
const ics = (...events) =>
  `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//caldav test//EN\r\n${events.join('')}END:VCALENDAR\r\n`;
const vevent = (lines) => `BEGIN:VEVENT\r\nDTSTAMP:20260101T000000Z\r\n${lines.join('\r\n')}\r\nEND:VEVENT\r\n`;

async function slots(date) {
  const r = await anon.get(`/api/mentors/${m.mentor.id}/available-slots?date=${date}&duration=60&timeZone=UTC`);
  assert.equal(r.status, 200, show(r));
  return r.body;
}

async function connection() {
  const r = await m.c.get('/api/mentor/calendar-connection');
  assert.equal(r.status, 200, show(r));
  return r.body;
}

/** 'Sync now', then waits for a sync that read the server after the request. */
async function syncNow() {
  const asked = Date.now() - 1_000;
  const r = await m.c.post('/api/mentor/calendar-connection/sync');
  assert.equal(r.status, 202, show(r));
  assert.equal(r.body.state, 'syncing', show(r));
  return until(
    'a sync after the request',
    async () => {
      const c = await connection();
      return c.state === 'ok' && Date.parse(c.lastSyncedAt) >= asked && c;
    },
    SYNC_TIMEOUT_MS,
  );
}

function connect(body) {
  return m.c.put('/api/mentor/calendar-connection', body);
}

describe('a mentor connects their CalDAV calendar', () => {
  it('refuses wrong credentials, addresses that are not CalDAV and addresses it may not call', async () => {
    const wrong = await connect({ url: cal.url, username: cal.user, password: 'not-the-password' });
    assert.equal(wrong.status, 400, show(wrong));
    assert.equal(wrong.body.message, WRONG_CREDENTIALS, show(wrong));

    const notCaldav = await connect({ url: `${stack.baseUrl}/`, username: 'a', password: 'b' });
    assert.equal(notCaldav.status, 400, show(notCaldav));
    assert.match(notCaldav.body.message, /not a CalDAV server/, show(notCaldav));

    const closed = await connect({ url: 'http://127.0.0.1:1/', username: 'a', password: 'b' });
    assert.equal(closed.status, 400, show(closed));
    assert.match(closed.body.message, /could not be reached/, show(closed));

    const inside = await connect({ url: 'http://10.1.2.3/', username: 'a', password: 'b' });
    assert.equal(inside.status, 400, show(inside));
    assert.match(inside.body.message, /public internet/, show(inside));

    const none = await m.c.get('/api/mentor/calendar-connection');
    assert.equal(none.status, 404, show(none));
  });

  it('discovers the calendars from the server address and syncs them', async () => {
    const r = await connect({ url: cal.url, username: cal.user, password: cal.password });
    assert.equal(r.status, 200, show(r));
    assert.ok(['syncing', 'ok'].includes(r.body.state), show(r));
    assert.equal(r.body.error, null, show(r));
    assert.ok(!JSON.stringify(r.body).includes(cal.password), 'the password is never returned');
    const names = r.body.calendars.map((c) => c.name).sort();
    assert.deepEqual(names, ['Home', 'Work'], show(r));
    assert.ok(
      r.body.calendars.every((c) => c.blocksSlots && c.writable),
      show(r),
    );
    assert.equal(r.body.calendars.filter((c) => c.receivesBookings).length, 1, show(r));
    const synced = await until(
      'the first sync',
      async () => {
        const c = await connection();
        return c.state === 'ok' && c;
      },
      SYNC_TIMEOUT_MS,
    );
    assert.ok(synced.lastSyncedAt, show({ body: synced }));

    const work = synced.calendars.find((c) => c.name === 'Work');
    const home = synced.calendars.find((c) => c.name === 'Home');
    // Bookings go to Work; exactly one calendar receives them.
    const moved = await m.c.patch(`/api/mentor/calendar-connection/calendars/${work.id}`, {
      receivesBookings: true,
    });
    assert.equal(moved.status, 200, show(moved));
    const receiving = moved.body.calendars.filter((c) => c.receivesBookings).map((c) => c.id);
    assert.deepEqual(receiving, [work.id], show(moved));
    const off = await m.c.patch(`/api/mentor/calendar-connection/calendars/${work.id}`, {
      receivesBookings: false,
    });
    assert.equal(off.status, 400, show(off));
    const unknown = await m.c.patch(`/api/mentor/calendar-connection/calendars/${m.mentor.id}`, {
      blocksSlots: false,
    });
    assert.equal(unknown.status, 404, show(unknown));
    assert.ok(home);
  });

  it("leaves out slots the calendar's events make busy, and refuses reservations into them", async () => {
    const d = day(0);
    await cal.put(
      'work',
      'dentist.ics',
      ics(vevent(['UID:dentist-1', `DTSTART:${at(d, 10)}`, `DTEND:${at(d, 11)}`, 'SUMMARY:Dentist'])),
    );
    await cal.put(
      'work',
      'yoga.ics',
      ics(
        vevent([
          'UID:yoga-weekly',
          `DTSTART:${at(day(1), 14)}`,
          `DTEND:${at(day(1), 15)}`,
          'RRULE:FREQ=WEEKLY;COUNT=4',
          `EXDATE:${at(day(8), 14)}`,
          'SUMMARY:Yoga',
        ]),
        vevent([
          'UID:yoga-weekly',
          `RECURRENCE-ID:${at(day(15), 14)}`,
          `DTSTART:${at(day(15), 16)}`,
          `DTEND:${at(day(15), 17)}`,
          'SUMMARY:Yoga (moved)',
        ]),
      ),
    );
    const allDay = day(2).replaceAll('-', '');
    const next = day(3).replaceAll('-', '');
    await cal.put(
      'home',
      'holiday.ics',
      ics(vevent(['UID:holiday-1', `DTSTART;VALUE=DATE:${allDay}`, `DTEND;VALUE=DATE:${next}`, 'SUMMARY:Off'])),
    );
    await cal.put(
      'home',
      'reminder.ics',
      ics(vevent(['UID:free-1', `DTSTART:${at(d, 12)}`, `DTEND:${at(d, 13)}`, 'TRANSP:TRANSPARENT'])),
    );
    await syncNow();

    const first = await slots(d);
    assert.ok(!first.includes('10:00'), `the one-off blocks 10:00: ${first}`);
    assert.ok(first.includes('09:00') && first.includes('11:00'), `around it stays free: ${first}`);
    assert.ok(first.includes('12:00'), `a transparent event blocks nothing: ${first}`);
    assert.ok(!(await slots(day(1))).includes('14:00'), 'the weekly event');
    assert.ok((await slots(day(8))).includes('14:00'), 'its exception (EXDATE) is free');
    const overridden = await slots(day(15));
    assert.ok(overridden.includes('14:00') && !overridden.includes('16:00'), `the moved instance: ${overridden}`);
    assert.ok(!(await slots(day(22))).includes('14:00'), 'the fourth instance');
    assert.ok((await slots(day(29))).includes('14:00'), 'after COUNT=4');
    assert.deepEqual(await slots(day(2)), [], 'an all-day event blocks the whole day');

    const seeker = await signIn(stack, await createVerifiedUser(stack));
    const refused = await seeker.post('/api/reservations', {
      serviceId: m.service.id,
      mentorId: m.mentor.id,
      scheduledAt: `${d}T10:00:00.000Z`,
      totalAmount: m.service.price,
    });
    assert.equal(refused.status, 409, show(refused));
    assert.equal(refused.body.code, 'slot_taken', show(refused));
    assert.equal(refused.body.message, SLOT_TAKEN, show(refused));

    // A calendar that no longer blocks slots frees its times.
    const home = (await connection()).calendars.find((c) => c.name === 'Home');
    const unblock = await m.c.patch(`/api/mentor/calendar-connection/calendars/${home.id}`, { blocksSlots: false });
    assert.equal(unblock.status, 200, show(unblock));
    await syncNow();
    assert.ok((await slots(day(2))).includes('10:00'), 'the all-day event of Home no longer blocks');
    assert.ok(!(await slots(d)).includes('10:00'), 'Work still does');
    const block = await m.c.patch(`/api/mentor/calendar-connection/calendars/${home.id}`, { blocksSlots: true });
    assert.equal(block.status, 200, show(block));
    await syncNow();
    assert.deepEqual(await slots(day(2)), []);
  });

  it('writes a paid booking into the calendar, moves it with the booking and deletes it on cancellation', async () => {
    const user = await createVerifiedUser(stack);
    const seeker = await signIn(stack, user);
    const hold = await reserve(seeker, m, `${day(0)}T18:00:00.000Z`);
    const booking = await pay(seeker, hold.reservation.id, user);
    const file = `booking-${booking.id}.ics`;
    const uid = `UID:booking-${booking.id}@mystic-mentors`;
    const written = await until(
      'the booking in the calendar',
      async () => {
        const r = await cal.get('work', file);
        return r.status === 200 && r;
      },
      SYNC_TIMEOUT_MS,
    );
    assert.ok(written.text.includes(uid), written.text);
    assert.ok(written.text.includes(`DTSTART:${at(day(0), 18)}`), written.text);
    assert.ok(written.text.includes(`${user.firstName} ${user.lastName}`), written.text);
    assert.equal((await cal.get('home', file)).status, 404, 'one calendar receives bookings');

    // The event written back is the session itself: a sync does not count it twice (no block
    // beyond the booking's own hour).
    await syncNow();
    const around = await slots(day(0));
    assert.ok(around.includes('17:00') && around.includes('19:00'), `${around}`);

    const moved = await seeker.put(`/api/user/bookings/${booking.id}/reschedule`, {
      scheduledAt: `${day(1)}T09:00:00.000Z`,
    });
    assert.equal(moved.status, 200, show(moved));
    const updated = await until(
      'the moved booking in the calendar',
      async () => {
        const r = await cal.get('work', file);
        return r.status === 200 && r.text.includes(`DTSTART:${at(day(1), 9)}`) && r;
      },
      SYNC_TIMEOUT_MS,
    );
    assert.ok(updated.text.includes(uid), updated.text);
    const listing = await cal.request('PROPFIND', cal.calendarUrl('work'), { headers: { Depth: '1' } });
    assert.equal((listing.text.match(/booking-/g) ?? []).length, 1, 'never two events for one booking');

    const cancelled = await seeker.put(`/api/user/bookings/${booking.id}/cancel`, { acknowledgePolicy: true });
    assert.equal(cancelled.status, 200, show(cancelled));
    await until(
      'the cancelled booking gone from the calendar',
      async () => (await cal.get('work', file)).status === 404,
      SYNC_TIMEOUT_MS,
    );
  });

  it('writes a group session into the calendar and deletes it when the session is cancelled', async () => {
    const service = await groupService(m);
    const created = await m.c.post('/api/group-sessions', {
      serviceId: service.id,
      title: 'Full moon circle',
      scheduledAt: `${day(4)}T20:00:00.000Z`,
      maxParticipants: 4,
    });
    assert.equal(created.status, 201, show(created));
    const id = created.body.id;
    const file = `group-session-${id}.ics`;
    const written = await until(
      'the group session in the calendar',
      async () => {
        const r = await cal.get('work', file);
        return r.status === 200 && r;
      },
      SYNC_TIMEOUT_MS,
    );
    assert.ok(written.text.includes(`UID:group-session-${id}@mystic-mentors`), written.text);
    assert.ok(written.text.includes('Full moon circle (group session)'), written.text);
    assert.ok(written.text.includes(`DTSTART:${at(day(4), 20)}`), written.text);
    const cancelled = await m.c.put(`/api/group-sessions/${id}`, { status: 'cancelled' });
    assert.equal(cancelled.status, 200, show(cancelled));
    await until(
      'the cancelled group session gone from the calendar',
      async () => (await cal.get('work', file)).status === 404,
      SYNC_TIMEOUT_MS,
    );
  });

  it('keeps the last busy times and says failing when the server stops, and tells the mentor once', async () => {
    const before = await connection();
    assert.equal(before.state, 'ok');
    await cal.stop();
    const r = await m.c.post('/api/mentor/calendar-connection/sync');
    assert.equal(r.status, 202, show(r));
    const failing = await until(
      'the connection to fail',
      async () => {
        const c = await connection();
        return c.state === 'failing' && c;
      },
      SYNC_TIMEOUT_MS,
    );
    assert.ok(failing.error, show({ body: failing }));
    assert.equal(failing.lastSyncedAt, before.lastSyncedAt, 'the time of the last success');
    assert.ok(failing.failingSince, show({ body: failing }));
    assert.equal(failing.needsAttention, false, 'flagged only after 24 hours');
    assert.ok(!(await slots(day(0))).includes('10:00'), 'the last busy times stay in force');
    const told = () =>
      m.c.get('/api/notifications?limit=100').then((n) => n.body.filter((x) => x.type === 'calendar_failing'));
    await until('the mentor to be told', async () => (await told()).length === 1, SYNC_TIMEOUT_MS);

    const again = await m.c.post('/api/mentor/calendar-connection/sync');
    assert.equal(again.status, 202, show(again));
    await until('the second failure', async () => (await connection()).state === 'failing', SYNC_TIMEOUT_MS);
    assert.equal((await told()).length, 1, 'once per failure streak');

    await cal.start();
    const back = await syncNow();
    assert.equal(back.error, null);
    assert.equal(back.failingSince, null);
  });

  it('removes the connection and every busy time read from it', async () => {
    const r = await m.c.delete('/api/mentor/calendar-connection');
    assert.equal(r.status, 200, show(r));
    const gone = await m.c.get('/api/mentor/calendar-connection');
    assert.equal(gone.status, 404, show(gone));
    assert.ok((await slots(day(0))).includes('10:00'));
    assert.ok((await slots(day(2))).includes('10:00'));
  });

  it("also connects from the account's principal address or one calendar's address", async () => {
    const principal = await connect({ url: `${cal.url}${cal.user}/`, username: cal.user, password: cal.password });
    assert.equal(principal.status, 200, show(principal));
    assert.deepEqual(principal.body.calendars.map((c) => c.name).sort(), ['Home', 'Work'], show(principal));
    const one = await connect({ url: cal.calendarUrl('work'), username: cal.user, password: cal.password });
    assert.equal(one.status, 200, show(one));
    assert.deepEqual(
      one.body.calendars.map((c) => c.name),
      ['Work'],
      show(one),
    );
    assert.equal(one.body.calendars[0].receivesBookings, true, show(one));
    const done = await m.c.delete('/api/mentor/calendar-connection');
    assert.equal(done.status, 200, show(done));
  });
});

// GET /api/mentors/{id}/available-days?month=YYYY-MM&duration&timeZone(&excludeBooking) (issue 30):
// `{days: [...]}`, the viewer-local days of the month with at least one free start: exactly the
// days available-slots offers times on, from the same computation (minimum notice, the 90-day
// window, date overrides, bookings and group sessions), public like available-slots.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { pay } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';

let stack;
let anon;
before(async () => {
  stack = await startStack();
  anon = client(stack.baseUrl);
});
after(async () => {
  await stack?.stop();
});

const DAY_MS = 86_400_000;
/** YYYY-MM of `date` in UTC, and of the months after it. */
const monthOf = (date, plus = 0) => {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + plus, 1));
  return d.toISOString().slice(0, 7);
};
/** Every YYYY-MM-DD of a month. */
function daysOfMonth(month) {
  const [y, m] = month.split('-').map(Number);
  const out = [];
  for (let d = new Date(Date.UTC(y, m - 1, 1)); d.getUTCMonth() === m - 1; d = new Date(d.getTime() + DAY_MS)) {
    out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

/** A mentor in UTC free on Mondays 10:00 to 11:00 only, with one paid 60-minute service. */
async function mondayMentor({ minimumNoticeMinutes = 0 } = {}) {
  const user = await createVerifiedUser(stack);
  const c = await signIn(stack, user);
  const m = await c.post('/api/mentors', {
    displayName: 'Mona Monday',
    bio: 'Only on Monday mornings, for the black-box tests of the booking calendar, at length.',
    specialties: ['Astrology'],
    basePrice: '30.00',
    timeZone: 'UTC',
    minimumNoticeMinutes,
  });
  assert.equal(m.status, 201, show(m));
  const a = await c.post('/api/mentor/availability', { dayOfWeek: 1, startTime: '10:00', endTime: '11:00' });
  assert.equal(a.status, 201, show(a));
  const s = await c.post('/api/services', {
    title: 'Monday reading',
    description: 'Sixty minutes of reading on a Monday morning.',
    serviceType: 'astrology',
    price: '30.00',
    duration: 60,
  });
  assert.equal(s.status, 201, show(s));
  return { c, mentor: m.body, service: s.body };
}

async function days(mentorId, query) {
  const r = await anon.get(`/api/mentors/${mentorId}/available-days?${new URLSearchParams(query)}`);
  assert.equal(r.status, 200, show(r));
  assert.deepEqual(Object.keys(r.body), ['days']);
  return r.body.days;
}

async function slots(mentorId, query) {
  const r = await anon.get(`/api/mentors/${mentorId}/available-slots?${new URLSearchParams(query)}`);
  assert.equal(r.status, 200, show(r));
  return r.body;
}

/** The Mondays of the coming weeks (UTC dates) from tomorrow on. */
function comingMondays(count) {
  const out = [];
  for (let t = Date.now() + DAY_MS; out.length < count; t += DAY_MS) {
    const d = new Date(t);
    if (d.getUTCDay() === 1) out.push(d.toISOString().slice(0, 10));
  }
  return out;
}

describe('GET /api/mentors/{id}/available-days', () => {
  it('lists exactly the days available-slots offers times on, month by month, in the viewer zone', async () => {
    const { mentor } = await mondayMentor();
    const now = new Date();
    for (const plus of [0, 1, 2]) {
      const month = monthOf(now, plus);
      const listed = await days(mentor.id, { month, duration: '60', timeZone: 'UTC' });
      for (const day of daysOfMonth(month)) {
        const times = await slots(mentor.id, { date: day, duration: '60', timeZone: 'UTC' });
        assert.equal(listed.includes(day), times.length > 0, `${day}: ${times}`);
      }
      for (const day of listed) assert.equal(new Date(`${day}T00:00:00Z`).getUTCDay(), 1, day);
    }
    // Monday 10:00 UTC is already Tuesday at UTC+14: the days are the viewer's.
    const month = monthOf(now, 1);
    const kiritimati = await days(mentor.id, { month, duration: '60', timeZone: 'Pacific/Kiritimati' });
    assert.ok(kiritimati.length > 0);
    for (const day of kiritimati) assert.equal(new Date(`${day}T00:00:00Z`).getUTCDay(), 2, day);
    // A longer session fits no Monday window.
    assert.deepEqual(await days(mentor.id, { month, duration: '90', timeZone: 'UTC' }), []);
  });

  it('leaves out a day off, and a day whose only slot is booked (but not for the booking being moved)', async () => {
    const monona = await mondayMentor();
    const [first, second] = comingMondays(2);
    const dayOff = await monona.c.post('/api/mentor/availability/overrides', { date: second, isDayOff: true });
    assert.equal(dayOff.status, 201, show(dayOff));
    const seeker = await createVerifiedUser(stack);
    const s = await signIn(stack, seeker);
    const held = await s.post('/api/reservations', {
      serviceId: monona.service.id,
      mentorId: monona.mentor.id,
      scheduledAt: `${first}T10:00:00.000Z`,
      totalAmount: '30.00',
    });
    assert.equal(held.status, 201, show(held));
    const booking = await pay(s, held.body.reservation.id, seeker);
    const query = (day) => ({ month: day.slice(0, 7), duration: '60', timeZone: 'UTC' });
    assert.ok(!(await days(monona.mentor.id, query(first))).includes(first), 'booked');
    assert.ok(!(await days(monona.mentor.id, query(second))).includes(second), 'day off');
    const moving = await days(monona.mentor.id, { ...query(first), excludeBooking: booking.id });
    assert.ok(moving.includes(first), 'the booking being moved frees its own time');
  });

  it('honours the minimum notice and the 90-day window', async () => {
    const { mentor } = await mondayMentor({ minimumNoticeMinutes: 7 * 24 * 60 });
    const now = new Date();
    const all = [];
    for (let plus = 0; plus <= 4; plus += 1) {
      all.push(...(await days(mentor.id, { month: monthOf(now, plus), duration: '60', timeZone: 'UTC' })));
    }
    const earliest = now.getTime() + 7 * DAY_MS;
    const latest = now.getTime() + 90 * DAY_MS;
    assert.ok(all.length >= 10, all.join());
    for (const day of all) {
      const start = Date.parse(`${day}T10:00:00Z`);
      assert.ok(start >= earliest && start <= latest, `${day} is outside the notice or the window`);
    }
    // Every Monday from a week ahead to 90 days ahead is there.
    const expected = [];
    for (let t = earliest; t <= latest + DAY_MS; t += DAY_MS) {
      const d = new Date(t).toISOString().slice(0, 10);
      const start = Date.parse(`${d}T10:00:00Z`);
      if (new Date(start).getUTCDay() === 1 && start >= earliest && start <= latest && !expected.includes(d))
        expected.push(d);
    }
    assert.deepEqual(all, expected);
    assert.deepEqual(await days(mentor.id, { month: monthOf(now, 5), duration: '60', timeZone: 'UTC' }), []);
  });

  it('refuses a malformed month or zone, and answers 404 for an unknown mentor', async () => {
    const { mentor } = await mondayMentor();
    for (const month of ['', '2026-13', '2026-1', 'next', '2026-12-01']) {
      const r = await anon.get(`/api/mentors/${mentor.id}/available-days?month=${month}`);
      assert.equal(r.status, 400, `${month}: ${show(r)}`);
      assert.equal(r.body.message, 'Month must be YYYY-MM');
    }
    const zone = await anon.get(`/api/mentors/${mentor.id}/available-days?month=2026-12&timeZone=Mars%2FOlympus`);
    assert.equal(zone.status, 400, show(zone));
    const missing = await anon.get('/api/mentors/00000000-0000-4000-8000-000000000000/available-days?month=2026-12');
    assert.equal(missing.status, 404, show(missing));
  });
});

// Issue 33 §5: a mentor's buffers around this platform's sessions and their cap of sessions per
// local day (`bufferBeforeMinutes`, `bufferAfterMinutes`, `maxBookingsPerDay` on
// PUT /api/mentor/profile). Slots, available days and reservations honour them on the server, and
// parallel reservations never exceed the cap.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { groupService, groupSessionWithSeats } from '../harness/group-sessions.mjs';
import { startStack } from '../harness/stack.mjs';

let stack;
let anon;
let db;
before(async () => {
  stack = await startStack();
  anon = client(stack.baseUrl);
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

const DAY_MS = 86_400_000;
/** The UTC date `days` from today, YYYY-MM-DD. */
const dayAhead = (days) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

async function slots(mentorId, date) {
  const r = await anon.get(`/api/mentors/${mentorId}/available-slots?date=${date}&duration=60&timeZone=UTC`);
  assert.equal(r.status, 200, show(r));
  return r.body;
}

async function availableDays(mentorId, date) {
  const r = await anon.get(
    `/api/mentors/${mentorId}/available-days?month=${date.slice(0, 7)}&duration=60&timeZone=UTC`,
  );
  assert.equal(r.status, 200, show(r));
  return r.body.days;
}

async function seeker() {
  return signIn(stack, await createVerifiedUser(stack));
}

function reserveAt(c, m, date, time) {
  return c.post('/api/reservations', {
    serviceId: m.service.id,
    mentorId: m.mentor.id,
    scheduledAt: `${date}T${time}:00.000Z`,
    totalAmount: m.service.price,
  });
}

describe('buffers and daily limits', () => {
  it('are mentor settings, validated, and shown on the mentor view', async () => {
    const m = await bookableMentor(stack);
    const fresh = await m.c.get('/api/mentor/profile');
    assert.equal(fresh.status, 200, show(fresh));
    assert.equal(fresh.body.bufferBeforeMinutes, 0);
    assert.equal(fresh.body.bufferAfterMinutes, 0);
    assert.equal(fresh.body.maxBookingsPerDay, null);
    for (const bad of [{ bufferBeforeMinutes: 121 }, { bufferAfterMinutes: -1 }]) {
      const r = await m.c.put('/api/mentor/profile', bad);
      assert.equal(r.status, 400, show(r));
      assert.equal(r.body.message, 'Buffers must be a whole number of minutes from 0 to 120', show(r));
    }
    const tooMany = await m.c.put('/api/mentor/profile', { maxBookingsPerDay: 51 });
    assert.equal(tooMany.status, 400, show(tooMany));
    assert.equal(
      tooMany.body.message,
      'Maximum bookings per day must be a whole number from 1 to 50, or 0 for no limit',
      show(tooMany),
    );
    const set = await m.c.put('/api/mentor/profile', {
      bufferBeforeMinutes: 15,
      bufferAfterMinutes: 120,
      maxBookingsPerDay: 4,
    });
    assert.equal(set.status, 200, show(set));
    assert.equal(set.body.bufferBeforeMinutes, 15);
    assert.equal(set.body.bufferAfterMinutes, 120);
    assert.equal(set.body.maxBookingsPerDay, 4);
    // Absent leaves them; 0 removes the cap.
    const other = await m.c.put('/api/mentor/profile', { bufferBeforeMinutes: 0 });
    assert.equal(other.status, 200, show(other));
    assert.equal(other.body.bufferAfterMinutes, 120);
    assert.equal(other.body.maxBookingsPerDay, 4);
    const uncapped = await m.c.put('/api/mentor/profile', { maxBookingsPerDay: 0 });
    assert.equal(uncapped.body.maxBookingsPerDay, null, show(uncapped));
    const pub = await anon.get(`/api/mentors/${m.mentor.id}`);
    assert.equal(pub.status, 200, show(pub));
    assert.equal(pub.body.bufferAfterMinutes, 120);
    assert.equal(pub.body.maxBookingsPerDay, null);
  });

  it('keep slots and reservations the buffer away from a session', async () => {
    const m = await bookableMentor(stack);
    const set = await m.c.put('/api/mentor/profile', { bufferAfterMinutes: 30 });
    assert.equal(set.status, 200, show(set));
    const day = dayAhead(3);
    const held = await reserveAt(await seeker(), m, day, '10:00');
    assert.equal(held.status, 201, show(held));
    const times = await slots(m.mentor.id, day);
    for (const gone of ['09:00', '09:30', '10:00', '10:30', '11:00'])
      assert.ok(!times.includes(gone), `${gone}: ${times}`);
    for (const kept of ['08:30', '11:30', '12:00']) assert.ok(times.includes(kept), `${kept}: ${times}`);
    const other = await seeker();
    const inside = await reserveAt(other, m, day, '11:00');
    assert.equal(inside.status, 409, show(inside));
    assert.equal(inside.body.message, 'This time is no longer available', show(inside));
    const before = await reserveAt(other, m, day, '09:00');
    assert.equal(before.status, 409, 'its own after-buffer would reach the next session');
    const outside = await reserveAt(other, m, day, '11:30');
    assert.equal(outside.status, 201, show(outside));
  });

  it('cap the sessions of a day, with parallel reservations never exceeding it', async () => {
    const m = await bookableMentor(stack);
    const set = await m.c.put('/api/mentor/profile', { maxBookingsPerDay: 2 });
    assert.equal(set.status, 200, show(set));
    const day = dayAhead(4);
    const next = dayAhead(5);
    const seekers = await Promise.all([0, 1, 2, 3, 4, 5].map(() => seeker()));
    const times = ['06:00', '08:00', '10:00', '12:00', '14:00', '16:00'];
    const answers = await Promise.all(seekers.map((c, i) => reserveAt(c, m, day, times[i])));
    const statuses = answers.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 201, 409, 409, 409, 409], answers.map(show).join('\n'));
    assert.deepEqual(await slots(m.mentor.id, day), [], 'a full day offers nothing');
    const days = await availableDays(m.mentor.id, day);
    assert.ok(!days.includes(day), days.join());
    assert.ok((await slots(m.mentor.id, next)).length > 0, 'the next day is free');
    // Lifting the cap offers the day again.
    const lifted = await m.c.put('/api/mentor/profile', { maxBookingsPerDay: 0 });
    assert.equal(lifted.status, 200, show(lifted));
    assert.ok((await slots(m.mentor.id, day)).includes('18:00'));
  });

  it('count a group session once toward the cap, however many seats it has', async () => {
    const m = await bookableMentor(stack);
    const set = await m.c.put('/api/mentor/profile', { maxBookingsPerDay: 2 });
    assert.equal(set.status, 200, show(set));
    const day = dayAhead(6);
    const seats = [];
    for (let i = 0; i < 3; i += 1) {
      const c = await seeker();
      seats.push((await c.get('/api/auth/user')).body.id);
    }
    const minutesToNoon = Math.round((Date.parse(`${day}T12:00:00Z`) - Date.now()) / 60_000);
    await groupSessionWithSeats(db, m, await groupService(m), seats, { startMinutes: minutesToNoon });
    assert.ok((await slots(m.mentor.id, day)).includes('08:00'), 'one of two taken: the day has room');
    const first = await reserveAt(await seeker(), m, day, '08:00');
    assert.equal(first.status, 201, show(first));
    assert.deepEqual(await slots(m.mentor.id, day), [], 'the group session and the booking fill the day');
    const third = await reserveAt(await seeker(), m, day, '16:00');
    assert.equal(third.status, 409, show(third));
  });

  it('hold for reschedules too, the moved booking not counting against itself', async () => {
    const m = await bookableMentor(stack, { price: '0.00' });
    const set = await m.c.put('/api/mentor/profile', { bufferAfterMinutes: 30, maxBookingsPerDay: 2 });
    assert.equal(set.status, 200, show(set));
    const day = dayAhead(7);
    const first = await reserveAt(await seeker(), m, day, '10:00');
    assert.equal(first.status, 201, show(first));
    const mover = await seeker();
    const second = await reserveAt(mover, m, day, '14:00');
    assert.equal(second.status, 201, show(second));
    const id = second.body.booking.id;
    const near = await mover.put(`/api/user/bookings/${id}/reschedule`, { scheduledAt: `${day}T11:00:00.000Z` });
    assert.equal(near.status, 409, show(near));
    const clear = await mover.put(`/api/user/bookings/${id}/reschedule`, { scheduledAt: `${day}T11:30:00.000Z` });
    assert.equal(clear.status, 200, 'the day is at its limit, but the booking moving is one of the two');
  });
});

// A participant the mentor removes from a group call is told so: a removed_from_session
// notification (written by the worker, pushed live), and their seat in GET /api/group-sessions
// says isUserRemoved, so the page offers no way back into the call. No Janus is needed: without it
// the removal is still recorded and announced.
//
// Issue 30: a removal names its reason, which decides the money: `other` cancels the seat and
// refunds it in full through the refund job (a removed_by_mentor refund), `conduct` keeps it paid.
// The removed seeker's notification and e-mail say which, and every view of the seat (the
// dashboard, the session) shows the removal and the session's state at once.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor, pay, startIn } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { groupService, groupSessionWithSeats } from '../harness/group-sessions.mjs';
import { mailTo } from '../harness/mail.mjs';
import { connect } from '../harness/realtime.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const REMOVED_KIND = 'removed_from_session';
const REASON_REQUIRED = 'Choose why you are removing this participant: conduct or other';
const REMOVED = 'You were removed from this session';
const NOT_LIVE = 'This session is not live';
const REFUNDED = 'Your seat is cancelled and refunded in full: $20.00 goes back to your card.';
const NOT_REFUNDED = 'The mentor removed you for conduct, so your seat is not refunded.';

let stack;
let db;
before(async () => {
  stack = await startStack({ worker: true });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

async function seeker() {
  const user = await createVerifiedUser(stack);
  const c = await signIn(stack, user);
  const me = await c.get('/api/auth/user');
  return { c, id: me.body.id, user };
}

/**
 * A $20 group session whose seekers each paid for their seat through the api, then moved in SQL to
 * have started five minutes ago (the api schedules sessions in the future only). Resolves to its id
 * and each seeker's booking id.
 */
async function paidSessionUnderWay(mentor, seekers) {
  const service = await groupService(mentor, { price: '20.00' });
  const created = await mentor.c.post('/api/group-sessions', {
    serviceId: service.id,
    title: 'Paid circle',
    scheduledAt: startIn(48),
    maxParticipants: 4,
  });
  assert.equal(created.status, 201, show(created));
  const id = created.body.id;
  const seats = {};
  for (const s of seekers) {
    const held = await s.c.post('/api/reservations', { groupSessionId: id, totalAmount: '20.00', notes: '' });
    assert.equal(held.status, 201, show(held));
    seats[s.id] = (await pay(s.c, held.body.reservation.id, s.user)).id;
  }
  await db.query(
    `UPDATE group_sessions SET scheduled_at = now() - interval '5 minutes', ends_at = now() + interval '55 minutes' WHERE id = $1`,
    [id],
  );
  await db.query(
    `UPDATE bookings SET scheduled_at = now() - interval '5 minutes', ends_at = now() + interval '55 minutes',
       earliest_scheduled_at = now() - interval '5 minutes' WHERE group_session_id = $1`,
    [id],
  );
  return { id, seats };
}

const seatOf = async (s, bookingId) =>
  (await s.c.get('/api/user/dashboard')).body.bookings.find((b) => b.id === bookingId);

describe('removal from a group call', () => {
  it('notifies the removed participant and marks their seat removed, and no one else', async () => {
    const mentor = await bookableMentor(stack);
    const [ann, ben] = [await seeker(), await seeker()];
    const service = await groupService(mentor);
    const id = await groupSessionWithSeats(db, mentor, service, [ann.id, ben.id], { startMinutes: -5 });
    const [m, b] = [await connect(stack, mentor.c), await connect(stack, ben.c)];
    try {
      const before = await ben.c.get('/api/group-sessions');
      assert.equal(before.status, 200, show(before));
      const seatBefore = before.body.find((s) => s.id === id);
      assert.equal(seatBefore.isUserBooked, true);
      assert.equal(seatBefore.isUserRemoved, false);
      assert.equal(seatBefore.userRemoval, null);

      m.send('remove-participant', { groupSessionId: id, participantId: ben.id, reason: 'conduct' });
      await b.next('participant-left', (d) => d.participantId === ben.id && d.reason === 'removed');

      // The notice arrives live and stays in the list.
      const live = await b.next('notification', (d) => d.type === REMOVED_KIND);
      assert.equal(live.title, 'Removed from session');
      assert.ok(
        live.message.startsWith(`The mentor removed you from the group session "${service.title}". ${NOT_REFUNDED}`),
        live.message,
      );
      assert.equal(live.actionUrl, `/group-video-call/${id}`);
      const listed = await until('the notification is listed', async () => {
        const r = await ben.c.get('/api/notifications');
        return r.body.find?.((n) => n.type === REMOVED_KIND);
      });
      assert.equal(listed.id, live.id);

      const after = await ben.c.get('/api/group-sessions');
      const seat = after.body.find((s) => s.id === id);
      assert.equal(seat.isUserRemoved, true, JSON.stringify(seat));
      assert.equal(seat.userRemoval.reason, 'conduct');
      const annSeat = (await ann.c.get('/api/group-sessions')).body.find((s) => s.id === id);
      assert.equal(annSeat.isUserRemoved, false);
      assert.equal(annSeat.userRemoval, null);
      const one = await ben.c.get(`/api/group-sessions/${id}`);
      assert.equal(one.body.isUserRemoved, true);

      // Only Ben is told.
      const others = await Promise.all([ann, mentor].map((u) => u.c.get('/api/notifications')));
      for (const r of others) assert.equal(r.body.filter((n) => n.type === REMOVED_KIND).length, 0);
    } finally {
      for (const s of [m, b]) s.close?.();
    }
  });

  it('refuses a removal without a reason, or of a session whose call is not open, and changes nothing', async () => {
    const mentor = await bookableMentor(stack);
    const ann = await seeker();
    const service = await groupService(mentor);
    const live = await groupSessionWithSeats(db, mentor, service, [ann.id], { startMinutes: -5 });
    const later = await groupSessionWithSeats(db, mentor, service, [ann.id], { startMinutes: 24 * 60 });
    const m = await connect(stack, mentor.c);
    try {
      m.send('remove-participant', { groupSessionId: live, participantId: ann.id });
      const missing = await m.next('error', (d) => d.event === 'remove-participant');
      assert.equal(missing.message, REASON_REQUIRED);
      assert.equal(missing.code, 'validation');
      m.send('remove-participant', { groupSessionId: live, participantId: ann.id, reason: 'mood' });
      const unknown = await m.next('error', (d) => d.event === 'remove-participant');
      assert.match(unknown.message, /conduct/);
      m.send('remove-participant', { groupSessionId: later, participantId: ann.id, reason: 'other' });
      const early = await m.next('error', (d) => d.event === 'remove-participant');
      assert.equal(early.message, NOT_LIVE);
      assert.equal(early.code, 'conflict');
      const { rows } = await db.query('SELECT count(*)::int AS n FROM group_call_removals WHERE user_id = $1', [
        ann.id,
      ]);
      assert.equal(rows[0].n, 0);
    } finally {
      m.close?.();
    }
  });

  it("'other' refunds the seat in full through the refund job; 'conduct' keeps it paid; each is told which", async () => {
    const mentor = await bookableMentor(stack);
    const [ann, ben, cleo] = [await seeker(), await seeker(), await seeker()];
    const { id, seats } = await paidSessionUnderWay(mentor, [ann, ben, cleo]);
    const [m, a, b, c] = await Promise.all([mentor, ann, ben, cleo].map((u) => connect(stack, u.c)));
    try {
      m.send('remove-participant', { groupSessionId: id, participantId: ann.id, reason: 'other' });
      m.send('remove-participant', { groupSessionId: id, participantId: ben.id, reason: 'conduct' });
      for (const s of [a, b, c]) {
        await s.next('participant-left', (d) => d.participantId === ann.id && d.reason === 'removed');
      }
      // Removed members hear nothing more of the session: Ann does not hear of Ben's removal.
      for (const s of [b, c]) {
        await s.next('participant-left', (d) => d.participantId === ben.id && d.reason === 'removed');
      }

      // Ann ('other'): her seat is cancelled and refunded in full by the refund job, as a
      // removed_by_mentor refund.
      const refund = await until('the refund is paid', async () => {
        const r = await db.query(
          'SELECT reason, status, percentage, amount_cents::int AS cents FROM refunds WHERE booking_id = $1',
          [seats[ann.id]],
        );
        return r.rows[0]?.status === 'succeeded' && r.rows[0];
      });
      assert.deepEqual(refund, { reason: 'removed_by_mentor', status: 'succeeded', percentage: 100, cents: 2000 });
      const annSeat = await seatOf(ann, seats[ann.id]);
      assert.equal(annSeat.status, 'cancelled');
      assert.deepEqual(annSeat.refund, { percentage: 100, amount: '20.00', status: 'succeeded' });
      assert.deepEqual(annSeat.groupSession, {
        id,
        status: 'scheduled',
        isUserRemoved: true,
        removalReason: 'other',
      });
      assert.equal((await ann.c.get('/api/user/dashboard')).body.stats.totalSpent, '0.00');
      const annNotice = await a.next('notification', (d) => d.type === REMOVED_KIND);
      assert.ok(annNotice.message.endsWith(REFUNDED), annNotice.message);
      const annMail = await stack.waitForMail(mailTo(ann.user.email, 'Removed from group session: Paid circle'));
      assert.match(annMail.text, /refunded in full: \$20\.00 goes back to your card/);
      const annView = (await ann.c.get(`/api/group-sessions/${id}`)).body.userRemoval;
      assert.deepEqual(annView, { reason: 'other', refundAmount: '20.00', message: REFUNDED });

      // Ben ('conduct'): his seat stays paid and confirmed (it completes with the session, so the
      // mentor is paid); no refund exists; he is told so and how to complain.
      const benSeat = await seatOf(ben, seats[ben.id]);
      assert.equal(benSeat.status, 'confirmed');
      assert.equal(benSeat.refund, null);
      assert.equal(benSeat.groupSession.isUserRemoved, true);
      assert.equal(benSeat.groupSession.removalReason, 'conduct');
      const { rows } = await db.query('SELECT count(*)::int AS n FROM refunds WHERE booking_id = $1', [seats[ben.id]]);
      assert.equal(rows[0].n, 0);
      const benNotice = await b.next('notification', (d) => d.type === REMOVED_KIND);
      assert.match(benNotice.message, /for conduct, so your seat is not refunded\. If you think this was unfair/);
      const benMail = await stack.waitForMail(mailTo(ben.user.email, 'Removed from group session: Paid circle'));
      assert.match(benMail.text, /for conduct, so your seat is not refunded/);
      assert.equal((await ben.c.get(`/api/group-sessions/${id}`)).body.userRemoval.refundAmount, '0.00');

      // A second removal (a double click, another tab) changes nothing: the first reason stands and
      // the money is settled once.
      m.send('remove-participant', { groupSessionId: id, participantId: ben.id, reason: 'other' });
      const again = await m.next('error', (d) => d.event === 'remove-participant');
      assert.equal(again.message, 'That person is not a participant of this session');
      assert.equal((await seatOf(ben, seats[ben.id])).status, 'confirmed');
      const benRefunds = await db.query('SELECT count(*)::int AS n FROM refunds WHERE booking_id = $1', [
        seats[ben.id],
      ]);
      assert.equal(benRefunds.rows[0].n, 0);

      // Neither takes a seat again.
      for (const s of [ann, ben]) {
        const again = await s.c.post('/api/reservations', { groupSessionId: id, totalAmount: '20.00', notes: '' });
        assert.equal(again.status, 409, show(again));
        assert.equal(again.body.message, REMOVED);
      }
      // Cleo stays; her seat is untouched.
      const cleoSeat = await seatOf(cleo, seats[cleo.id]);
      assert.equal(cleoSeat.status, 'confirmed');
      assert.equal(cleoSeat.groupSession.isUserRemoved, false);
    } finally {
      for (const s of [m, a, b, c]) s.close?.();
    }
  });

  it('a session the mentor ended shows as ended on the seat at once, live and on reload; the mentor may start 15 minutes early', async () => {
    const mentor = await bookableMentor(stack);
    const cleo = await seeker();
    const service = await groupService(mentor);
    const id = await groupSessionWithSeats(db, mentor, service, [cleo.id], { startMinutes: -5 });
    const c = await connect(stack, cleo.c);
    try {
      const seatId = (await cleo.c.get('/api/user/dashboard')).body.bookings.find((x) => x.groupSessionId === id).id;
      assert.equal((await seatOf(cleo, seatId)).groupSession.status, 'scheduled');
      const started = await mentor.c.put(`/api/group-sessions/${id}`, { status: 'active' });
      assert.equal(started.status, 200, show(started));
      await c.next('group-session-started', (d) => d.groupSessionId === id);
      assert.equal((await seatOf(cleo, seatId)).groupSession.status, 'active');
      const ended = await mentor.c.put(`/api/group-sessions/${id}`, { status: 'completed' });
      assert.equal(ended.status, 200, show(ended));
      await c.next('group-session-ended', (d) => d.groupSessionId === id);
      const seat = await seatOf(cleo, seatId);
      assert.equal(seat.groupSession.status, 'completed');
      // The booking itself completes after the complaint window, as any session's does.
      assert.equal(seat.status, 'confirmed');
    } finally {
      c.close?.();
    }

    // The call opens 15 minutes before the start: the mentor may start then, not a minute sooner.
    const soon = await groupSessionWithSeats(db, mentor, service, [cleo.id], { startMinutes: 14 });
    const tooSoon = await groupSessionWithSeats(db, mentor, service, [cleo.id], { startMinutes: 120 });
    const early = await mentor.c.put(`/api/group-sessions/${soon}`, { status: 'active' });
    assert.equal(early.status, 200, show(early));
    assert.equal(early.body.status, 'active');
    const refused = await mentor.c.put(`/api/group-sessions/${tooSoon}`, { status: 'active' });
    assert.equal(refused.status, 409, show(refused));
  });
});

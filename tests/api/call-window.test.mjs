// A one-to-one call about a booking opens 15 minutes before the start and closes at its end
// (issue 30): GET /api/bookings/{id}/video-window says when, for the booking's two parties only, so
// the Messages page can say when the call opens instead of failing; a call asked for outside the
// window is refused with the HTTP API's error code (`validation`), never as a fault.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { connect } from '../harness/realtime.mjs';
import { startStack } from '../harness/stack.mjs';

const OUTSIDE_WINDOW = 'Video sessions open 15 minutes before the start and close at the end of the session';
const MINUTE = 60_000;

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

describe('the video window of a booking', () => {
  it('says when the call opens and closes, to the two parties only, and a call outside it is a refusal', async () => {
    const mentor = await bookableMentor(stack);
    const user = await createVerifiedUser(stack);
    const seeker = await signIn(stack, user);
    const stranger = await signIn(stack, await createVerifiedUser(stack));
    const scheduledAt = startIn(3);
    const held = await reserve(seeker, mentor, scheduledAt);
    const booking = await pay(seeker, held.reservation.id, user);

    for (const who of [seeker, mentor.c]) {
      const r = await who.get(`/api/bookings/${booking.id}/video-window`);
      assert.equal(r.status, 200, show(r));
      assert.equal(r.body.bookingId, booking.id);
      assert.equal(r.body.status, 'confirmed');
      assert.equal(Date.parse(r.body.opensAt), Date.parse(scheduledAt) - 15 * MINUTE);
      assert.equal(Date.parse(r.body.closesAt), Date.parse(scheduledAt) + 60 * MINUTE);
      assert.equal(r.body.isOpen, false);
    }
    const refused = await stranger.get(`/api/bookings/${booking.id}/video-window`);
    assert.equal(refused.status, 404, show(refused));
    assert.equal(refused.body.message, 'Booking not found');

    // Asked for anyway (an old page, say), the call is refused as a rule, not as a fault.
    const conversation = await seeker.post('/api/conversations', {
      mentorId: mentor.mentor.id,
      bookingId: booking.id,
    });
    assert.ok([200, 201].includes(conversation.status), show(conversation));
    const s = await connect(stack, seeker);
    try {
      s.send('initiateCall', { conversationId: conversation.body.id, bookingId: booking.id });
      const error = await s.next('error', (d) => d.event === 'initiateCall');
      assert.deepEqual(error, { message: OUTSIDE_WINDOW, event: 'initiateCall', code: 'validation' });

      // Ten minutes before the start the window is open.
      await db.query(
        `UPDATE bookings SET scheduled_at = now() + interval '10 minutes', ends_at = now() + interval '70 minutes' WHERE id = $1`,
        [booking.id],
      );
      const open = await seeker.get(`/api/bookings/${booking.id}/video-window`);
      assert.equal(open.body.isOpen, true, show(open));
      s.send('initiateCall', { conversationId: conversation.body.id, bookingId: booking.id });
      const call = await s.next('callInitiated');
      assert.equal(call.bookingId, booking.id);
    } finally {
      await s.close();
    }
  });
});

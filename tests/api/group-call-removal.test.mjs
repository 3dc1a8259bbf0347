// A participant the mentor removes from a group call is told so: a removed_from_session
// notification (written by the worker, pushed live), and their seat in GET /api/group-sessions
// says isUserRemoved, so the page offers no way back into the call. No Janus is needed: without it
// the removal is still recorded and announced.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { groupService, groupSessionWithSeats } from '../harness/group-sessions.mjs';
import { connect } from '../harness/realtime.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const REMOVED_KIND = 'removed_from_session';

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

      m.send('remove-participant', { groupSessionId: id, participantId: ben.id });
      await b.next('participant-left', (d) => d.participantId === ben.id && d.reason === 'removed');

      // The notice arrives live and stays in the list.
      const live = await b.next('notification', (d) => d.type === REMOVED_KIND);
      assert.equal(live.title, 'Removed from session');
      assert.equal(live.message, `The mentor removed you from the group session "${service.title}".`);
      assert.equal(live.actionUrl, `/group-video-call/${id}`);
      const listed = await until('the notification is listed', async () => {
        const r = await ben.c.get('/api/notifications');
        return r.body.find?.((n) => n.type === REMOVED_KIND);
      });
      assert.equal(listed.id, live.id);

      const after = await ben.c.get('/api/group-sessions');
      const seat = after.body.find((s) => s.id === id);
      assert.equal(seat.isUserRemoved, true, JSON.stringify(seat));
      const annSeat = (await ann.c.get('/api/group-sessions')).body.find((s) => s.id === id);
      assert.equal(annSeat.isUserRemoved, false);
      const one = await ben.c.get(`/api/group-sessions/${id}`);
      assert.equal(one.body.isUserRemoved, true);

      // Only Ben is told.
      const others = await Promise.all([ann, mentor].map((u) => u.c.get('/api/notifications')));
      for (const r of others) assert.equal(r.body.filter((n) => n.type === REMOVED_KIND).length, 0);
    } finally {
      for (const s of [m, b]) s.close?.();
    }
  });
});

// Group calls through a real Janus: only the mentor and the seated participants of a live session
// may enter a call, which the api alone signals with Janus (browsers get no Janus token); the
// mentor's moderation over /api/ws reaches every member and Janus itself; a removed participant
// cannot enter again; ending the session destroys its room.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { groupService, groupSessionWithSeats } from '../harness/group-sessions.mjs';
import { participants, roomExists } from '../harness/janus.mjs';
import { connect } from '../harness/realtime.mjs';
import { startStack } from '../harness/stack.mjs';

const NOT_A_PARTICIPANT = 'Only the mentor and the participants of this session can join its call';
const REMOVED = 'You were removed from this session';
const NOT_LIVE = 'This session is not live';
const MENTOR_ONLY = 'Only the mentor of this session can do that';

let stack;
let db;
before(async () => {
  stack = await startStack({ janus: true });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

/** A group session of `mentor` starting `startMinutes` from now, with a confirmed seat for each seeker. */
async function groupSession(mentor, seekers, startMinutes) {
  const service = await groupService(mentor);
  return groupSessionWithSeats(
    db,
    mentor,
    service,
    seekers.map((s) => s.id),
    { startMinutes },
  );
}

async function seeker() {
  const user = await createVerifiedUser(stack);
  const c = await signIn(stack, user);
  const me = await c.get('/api/auth/user');
  return { c, id: me.body.id, user };
}

describe('group calls', () => {
  it('lets only the mentor and the seated participants of a live session enter its call', async () => {
    const mentor = await bookableMentor(stack);
    const [ann, ben, outsider] = [await seeker(), await seeker(), await seeker()];
    const live = await groupSession(mentor, [ann, ben], -5);

    const call = await ann.c.get(`/api/group-sessions/${live}/call`);
    assert.equal(call.status, 200, show(call));
    assert.equal(call.body.role, 'participant');
    // Nothing for Janus's API: the call is signalled over /api/ws.
    for (const gone of ['janusUrl', 'sessionToken', 'roomToken']) assert.ok(!(gone in call.body), gone);
    // The call may run until half an hour after the session's end.
    assert.equal(Date.parse(call.body.expiresAt) - Date.parse(call.body.endsAt), 30 * 60_000);
    assert.equal(call.body.mentorUserId, mentor.mentor.userId);
    assert.deepEqual(
      call.body.members.map((m) => `${m.id}:${m.isMentor}`).sort(),
      [`${ann.id}:false`, `${ben.id}:false`, `${mentor.mentor.userId}:true`].sort(),
    );
    // The room exists in Janus, and the keys that make and moderate it never reach a browser.
    assert.equal(await roomExists(stack.janus, call.body.roomId), true);
    const text = JSON.stringify(call.body);
    assert.ok(!text.includes(stack.env.JANUS_ADMIN_KEY) && !text.includes(stack.env.JANUS_TOKEN_SECRET), text);

    const mentorCall = await mentor.c.get(`/api/group-sessions/${live}/call`);
    assert.equal(mentorCall.status, 200, show(mentorCall));
    assert.equal(mentorCall.body.role, 'mentor');

    const refused = await outsider.c.get(`/api/group-sessions/${live}/call`);
    assert.equal(refused.status, 403, show(refused));
    assert.equal(refused.body.message, NOT_A_PARTICIPANT);
    assert.equal((await client(stack.baseUrl).get(`/api/group-sessions/${live}/call`)).status, 401);
    assert.equal((await ann.c.get(`/api/group-sessions/00000000-0000-4000-8000-000000000000/call`)).status, 404);

    const later = await groupSession(mentor, [ann], 180);
    const early = await ann.c.get(`/api/group-sessions/${later}/call`);
    assert.equal(early.status, 409, show(early));
    assert.equal(early.body.message, NOT_LIVE);

    // Issue 30: the call opens 15 minutes before the start (the waiting room), for the seated
    // participants and the mentor; not a minute sooner. (Another mentor: this one's time is taken.)
    const other = await bookableMentor(stack);
    const soon = await groupSession(other, [ann], 14);
    const waiting = await ann.c.get(`/api/group-sessions/${soon}/call`);
    assert.equal(waiting.status, 200, show(waiting));
    assert.equal(waiting.body.status, 'scheduled');
    assert.equal((await other.c.get(`/api/group-sessions/${soon}/call`)).status, 200);
    assert.equal((await outsider.c.get(`/api/group-sessions/${soon}/call`)).status, 403);
    const notYet = await groupSession(await bookableMentor(stack), [ann], 16);
    assert.equal((await ann.c.get(`/api/group-sessions/${notYet}/call`)).status, 409);
  });

  it("moderation is the mentor's, reaches every member, and a removed participant gets no token again", async () => {
    const mentor = await bookableMentor(stack);
    const [ann, ben] = [await seeker(), await seeker()];
    const id = await groupSession(mentor, [ann, ben], -5);
    const token = (await mentor.c.get(`/api/group-sessions/${id}/call`)).body;
    const [m, a, b] = [await connect(stack, mentor.c), await connect(stack, ann.c), await connect(stack, ben.c)];
    try {
      m.send('start-group-session', { groupSessionId: id });
      for (const s of [m, a, b]) await s.next('group-session-started', (d) => d.groupSessionId === id);
      const status = await db.query('SELECT status FROM group_sessions WHERE id = $1', [id]);
      assert.equal(status.rows[0].status, 'active');

      a.send('join-group-session', { groupSessionId: id });
      const joined = await b.next('participant-joined', (d) => d.participant?.id === ann.id);
      assert.equal(joined.participant.firstName, ann.user.firstName);

      // Only the mentor moderates.
      b.send('mute-participant', { groupSessionId: id, participantId: ann.id });
      assert.equal((await b.next('error', (d) => d.event === 'mute-participant')).message, MENTOR_ONLY);

      m.send('mute-participant', { groupSessionId: id, participantId: ann.id });
      for (const s of [m, a, b]) await s.next('participant-muted', (d) => d.participantId === ann.id);
      // The mute outlives a reload: the call Ann loads again says she is muted.
      const mutedFlag = async () =>
        (await ann.c.get(`/api/group-sessions/${id}/call`)).body.members.find((x) => x.id === ann.id).isMutedByMentor;
      assert.equal(await mutedFlag(), true);
      m.send('unmute-participant', { groupSessionId: id, participantId: ann.id });
      await b.next('participant-unmuted', (d) => d.participantId === ann.id);
      assert.equal(await mutedFlag(), false);

      a.send('toggle-video', { groupSessionId: id, isVideoEnabled: false });
      assert.equal((await b.next('toggle-video', (d) => d.participantId === ann.id)).isVideoEnabled, false);

      // Ben is in the room (the api joined him), until the mentor removes him.
      b.send('join-group-session', { groupSessionId: id });
      await m.next('participant-joined', (d) => d.participant?.id === ben.id);
      const benJanusId = (await ben.c.get(`/api/group-sessions/${id}/call`)).body.participantId;
      assert.ok((await participants(stack.janus, token.roomId)).some((p) => p.id === benJanusId));
      m.send('remove-participant', { groupSessionId: id, participantId: ben.id, reason: 'conduct' });
      for (const s of [m, a, b])
        await s.next('participant-left', (d) => d.participantId === ben.id && d.reason === 'removed');
      const again = await ben.c.get(`/api/group-sessions/${id}/call`);
      assert.equal(again.status, 403, show(again));
      assert.equal(again.body.message, REMOVED);
      // He was kicked from the room, and the api joins him no more.
      assert.ok(!(await participants(stack.janus, token.roomId)).some((p) => p.id === benJanusId));
      b.send('join-group-session', { groupSessionId: id });
      assert.equal((await b.next('error', (d) => d.event === 'join-group-session')).message, REMOVED);
      assert.ok(!(await participants(stack.janus, token.roomId)).some((p) => p.id === benJanusId));
      // Removed members hear nothing more of the session.
      m.send('end-group-session', { groupSessionId: id });
      for (const s of [m, a]) await s.next('group-session-ended', (d) => d.groupSessionId === id);
      assert.equal(
        (await db.query('SELECT status FROM group_sessions WHERE id = $1', [id])).rows[0].status,
        'completed',
      );
      assert.equal(await roomExists(stack.janus, token.roomId), false);
      assert.equal(b.received('group-session-ended').length, 0);
      const ended = await ann.c.get(`/api/group-sessions/${id}/call`);
      assert.equal(ended.status, 409, show(ended));
    } finally {
      for (const s of [m, a, b]) s.close?.();
    }
  });
});

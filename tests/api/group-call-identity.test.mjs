// Identity in group calls (issue 19, point 1): only the api speaks to Janus's API. Nothing a member
// receives opens Janus, rooms are private, a member is in a room only as themself whatever their
// frames say, and the mentor's own join always succeeds, also when a stale copy of them is left in
// the room by an api process that was killed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { groupService, groupSessionWithSeats } from '../harness/group-sessions.mjs';
import { apiToken, participants, videoroom } from '../harness/janus.mjs';
import { connect } from '../harness/realtime.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

let stack;
let db;
before(async () => {
  stack = await startStack({ janus: true, apis: 2 });
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
  return { c, id: (await c.get('/api/auth/user')).body.id };
}

async function liveSession(mentor, seekers) {
  const service = await groupService(mentor);
  return groupSessionWithSeats(
    db,
    mentor,
    service,
    seekers.map((s) => s.id),
    { startMinutes: -5 },
  );
}

/** Every string in a JSON value. */
const strings = (value) =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : [];

describe('identity in group calls', () => {
  it('gives a member nothing that opens Janus, and its rooms are private', async () => {
    const mentor = await bookableMentor(stack);
    const ann = await seeker();
    const id = await liveSession(mentor, [ann]);
    const call = await ann.c.get(`/api/group-sessions/${id}/call`);
    assert.equal(call.status, 200, show(call));
    for (const gone of ['janusUrl', 'sessionToken', 'roomToken']) assert.ok(!(gone in call.body), gone);

    // Janus's API refuses a client without the api's token, and with anything Ann received.
    const room = call.body.roomId;
    for (const token of [undefined, ...strings(call.body), ann.c.cookies.sid]) {
      for (const body of [
        { request: 'list' },
        { request: 'listparticipants', room },
        { request: 'join', ptype: 'publisher', room, id: call.body.participantId },
      ]) {
        const answer = await videoroom(stack.janus, token, body);
        assert.match(
          answer.refused ?? '',
          /Unauthorized/,
          `${JSON.stringify(body)} with ${token}: ${JSON.stringify(answer)}`,
        );
      }
    }
    // Even the api's own session does not see the room in a list: it is private.
    const list = await videoroom(stack.janus, apiToken(stack.janus), { request: 'list' });
    assert.ok(Array.isArray(list.list), JSON.stringify(list));
    assert.ok(!list.list.some((r) => r.room === room), JSON.stringify(list));
    assert.equal((await videoroom(stack.janus, apiToken(stack.janus), { request: 'exists', room })).exists, true);
  });

  it('joins a member only as themself, whatever their frames name', async () => {
    const mentor = await bookableMentor(stack);
    const ann = await seeker();
    const id = await liveSession(mentor, [ann]);
    const mentorCall = (await mentor.c.get(`/api/group-sessions/${id}/call`)).body;
    const annCall = (await ann.c.get(`/api/group-sessions/${id}/call`)).body;
    const room = mentorCall.roomId;
    const [m, a] = [await connect(stack, mentor.c), await connect(stack, ann.c)];
    try {
      m.send('join-group-session', { groupSessionId: id });
      await m.next('participant-joined', (d) => d.participant?.id === mentor.mentor.userId);
      // Ann names the mentor every way a frame could; the api joins her as Ann.
      const mentorJanusId = mentorCall.participantId;
      a.send('join-group-session', {
        groupSessionId: id,
        id: mentorJanusId,
        janusId: mentorJanusId,
        participantId: mentor.mentor.userId,
        userId: mentor.mentor.userId,
      });
      await a.next('participant-joined', (d) => d.participant?.id === ann.id);
      a.send('group-call-offer', { groupSessionId: id, sdp: 'v=0', participantId: mentor.mentor.userId });
      await a.next('error', (d) => d.event === 'group-call-offer');
      const inRoom = await participants(stack.janus, room);
      assert.deepEqual(
        inRoom.map((p) => `${p.id}:${p.display}`).sort(),
        [`${mentorJanusId}:${mentor.mentor.userId}`, `${annCall.participantId}:${ann.id}`].sort(),
      );
      assert.equal(a.received('error').filter((e) => e.event === 'join-group-session').length, 0);
    } finally {
      for (const s of [m, a]) s.close?.();
    }
  });

  it("the mentor's own join succeeds after the api process holding their stale handle was killed", async () => {
    const mentor = await bookableMentor(stack);
    const ann = await seeker();
    const id = await liveSession(mentor, [ann]);
    const { roomId: room, participantId: mentorJanusId } = (await mentor.c.get(`/api/group-sessions/${id}/call`)).body;
    const inRoom = async () => (await participants(stack.janus, room)).filter((p) => p.id === mentorJanusId).length;

    // The mentor is in the call through api process 1, which then dies without a word.
    const first = await connect(stack, mentor.c, 1);
    first.send('join-group-session', { groupSessionId: id });
    await first.next('participant-joined', (d) => d.participant?.id === mentor.mentor.userId);
    await stack.killApi(1);
    await first.closed;
    // Janus still holds that copy (its session has not timed out).
    assert.equal(await inRoom(), 1);

    // Reconnected to process 0, the mentor joins again: the stale copy goes, the new one stays.
    const again = await connect(stack, mentor.c, 0);
    try {
      again.send('join-group-session', { groupSessionId: id });
      await again.next('participant-joined', (d) => d.participant?.id === mentor.mentor.userId);
      assert.equal(again.received('error').length, 0, JSON.stringify(again.received('error')));
      assert.equal(await inRoom(), 1);
    } finally {
      again.close();
    }
    // The copy in the room was the new one: it leaves with its socket (the dead one's would stay).
    await until('the mentor to leave the room with their socket', async () => (await inRoom()) === 0, 10_000);
  });
});

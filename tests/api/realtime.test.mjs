// The real-time channel across two api processes and a worker on one database: chat both ways,
// typing, read receipts, call signalling and its timeouts, refusals, bad frames, throttling,
// sessions that end, and a killed api process whose clients reconnect to the other.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { apiMetric } from '../harness/nats.mjs';
import { connect, refused } from '../harness/realtime.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

let stack;
let mentor; // { c, user, mentor, service }
let seeker; // a signed-in client
let seekerUser;
let seekerId;
let third;
let conversationId;

before(async () => {
  stack = await startStack({ apis: 2, env: { CALL_RING_TIMEOUT_SECONDS: '2', CALL_RECONNECT_GRACE_SECONDS: '3' } });
  mentor = await bookableMentor(stack);
  seekerUser = await createVerifiedUser(stack, { firstName: 'Sam', lastName: 'Seeker' });
  seeker = await signIn(stack, seekerUser);
  seekerId = (await seeker.get('/api/auth/user')).body.id;
  third = await signIn(stack, await createVerifiedUser(stack));
  const r = await seeker.post('/api/conversations', { mentorId: mentor.mentor.id });
  assert.equal(r.status, 201, show(r));
  conversationId = r.body.id;
});
after(async () => {
  await stack?.stop();
});

const mentorUserId = () => mentor.mentor.userId;
let counter = 0;
const clientId = (prefix) => `${prefix}-${++counter}`;

/** How many notification fan-out tasks (queued or done) carry `text`. */
async function fanOutsMentioning(text) {
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query(
      "SELECT count(*)::int AS n FROM apalis.jobs WHERE job_type = 'notification_fanout' AND position($1 in convert_from(job, 'UTF8')) > 0",
      [text],
    );
    return rows[0].n;
  } finally {
    await db.end();
  }
}

/** A round trip on `socket`: every frame it sent before has been handled. */
async function settled(socket) {
  const before = socket.received('pong').length;
  socket.send('ping', {});
  await until('a pong', () => socket.received('pong').length > before, 10_000, 20);
}

describe('real-time channel across two api processes', () => {
  it('lets two users on different processes chat both ways with typing and read receipts', async () => {
    const s = await connect(stack, seeker, 0);
    const m = await connect(stack, mentor.c, 1);
    try {
      const notesBefore = (await mentor.c.get('/api/notifications?limit=100')).body.length;
      const first = clientId('hello');
      s.send('sendMessage', {
        conversationId,
        content: '  Hello from process one  ',
        messageType: 'text',
        clientId: first,
      });
      const ack = await s.next('messageReceived', (d) => d.clientId === first);
      const got = await m.next('messageReceived', (d) => d.clientId === first);
      assert.equal(got.id, ack.id);
      assert.equal(got.content, 'Hello from process one');
      assert.equal(got.conversationId, conversationId);
      assert.equal(got.senderId, seekerId);
      assert.equal(got.sender.firstName, 'Sam');
      assert.equal(got.isRead, false);

      const replyId = clientId('reply');
      m.send('sendMessage', { conversationId, content: 'And hello back from process two', clientId: replyId });
      const reply = await s.next('messageReceived', (d) => d.clientId === replyId);
      assert.equal(reply.senderId, mentorUserId());

      s.send('startTyping', { conversationId });
      assert.deepEqual(await m.next('userTyping', (d) => d.isTyping), {
        conversationId,
        userId: seekerId,
        isTyping: true,
      });
      s.send('stopTyping', { conversationId });
      assert.deepEqual(await m.next('userTyping', (d) => !d.isTyping), {
        conversationId,
        userId: seekerId,
        isTyping: false,
      });
      assert.equal(s.received('userTyping').length, 0, 'typing goes to the other party only');

      m.send('markMessageRead', { messageId: got.id });
      const read = await s.next('messageRead', (d) => d.messageId === got.id);
      assert.equal(read.readerId, mentorUserId());
      assert.equal(read.conversationId, conversationId);
      assert.ok(read.readAt);
      await m.next('messageRead', (d) => d.messageId === got.id);

      s.send('markConversationRead', { conversationId });
      const whole = await m.next('conversationRead', (d) => d.readerId === seekerId);
      assert.deepEqual(whole, { conversationId, readerId: seekerId, count: 1 });
      assert.equal((await seeker.get('/api/messages/unread-count')).body.count, 0);

      // The mentor was not viewing the thread: one new_message notification for them, live too.
      const live = await m.next('notification', (d) => d.type === 'new_message');
      assert.equal(live.message, 'Sam Seeker: Hello from process one');
      const notes = await until('the new_message notification', async () => {
        const list = (await mentor.c.get('/api/notifications?limit=100')).body;
        return list.length === notesBefore + 1 && list;
      });
      assert.equal(notes[0].type, 'new_message');
      assert.equal(notes[0].message, 'Sam Seeker: Hello from process one');
      assert.equal(notes[0].actionUrl, `/messages?conversation=${conversationId}`);

      // Viewing it, they get none: no fan-out is queued with the message (it would be queued in
      // the transaction that stored it, so it exists once the message was delivered).
      m.send('joinConversation', { conversationId });
      await settled(m);
      const viewed = clientId('viewed');
      s.send('sendMessage', { conversationId, content: 'You are looking at this', clientId: viewed });
      await m.next('messageReceived', (d) => d.clientId === viewed);
      const queued = await fanOutsMentioning('You are looking at this');
      assert.equal(queued, 0, 'no notification for a recipient viewing the conversation');
      assert.equal(await fanOutsMentioning('Hello from process one'), 1, 'the query finds fan-outs');
      m.send('leaveConversation', { conversationId });
      await settled(m);
    } finally {
      await s.close();
      await m.close();
    }
  });

  it(
    'has every process read every event from LISTEN, connected recipient or not (NOTIFY)',
    { skip: process.env.REALTIME_BUS === 'nats' && 'NOTIFY is not the bus here' },
    async () => {
      const s = await connect(stack, seeker, 0);
      try {
        const read = () => Promise.all([0, 1].map((i) => apiMetric(stack, i, 'realtime_notify_received_total')));
        const before = await read();
        const id = clientId('everywhere');
        s.send('sendMessage', { conversationId, content: 'Read by every process', clientId: id });
        await s.next('messageReceived', (d) => d.clientId === id);
        // Process 1 has neither user connected, and reads the event all the same.
        await until('both processes to read the event', async () => {
          const now = await read();
          return now[0] > before[0] && now[1] > before[1];
        });
      } finally {
        s.close();
      }
    },
  );

  it('keeps a third user out: errors, 404s and nothing delivered', async () => {
    const s = await connect(stack, seeker, 0);
    const m = await connect(stack, mentor.c, 1);
    const t = await connect(stack, third, 1);
    try {
      for (const [event, data] of [
        ['joinConversation', { conversationId }],
        ['sendMessage', { conversationId, content: 'let me in' }],
        ['markConversationRead', { conversationId }],
        ['startTyping', { conversationId }],
        ['initiateCall', { conversationId }],
      ]) {
        t.send(event, data);
        const error = await t.next('error', (d) => d.event === event);
        assert.equal(error.message, 'Conversation not found', event);
      }
      const r = await third.get(`/api/conversations/${conversationId}/messages`);
      assert.equal(r.status, 404, show(r));

      const id = clientId('private');
      s.send('sendMessage', { conversationId, content: 'Between the two of us', clientId: id });
      await m.next('messageReceived', (d) => d.clientId === id);
      s.send('startTyping', { conversationId });
      await m.next('userTyping', (d) => d.isTyping);
      await settled(t);
      assert.deepEqual(
        t.frames.map((f) => f.event).filter((e) => !['ready', 'error', 'pong'].includes(e)),
        [],
      );
      const history = (await seeker.get(`/api/conversations/${conversationId}/messages?limit=100`)).body;
      assert.ok(!history.some((msg) => msg.content === 'let me in'));
    } finally {
      await Promise.all([s.close(), m.close(), t.close()]);
    }
  });

  it('refuses upgrades without a live session (401) or from another site (403)', async () => {
    assert.deepEqual(await refused(stack, {}), {
      status: 401,
      body: { code: 'unauthorized', message: 'Unauthorized' },
    });
    assert.equal((await refused(stack, { cookie: 'sid=not-a-session', apiIndex: 1 })).status, 401);
    const cross = await refused(stack, { who: seeker, origin: 'https://evil.example' });
    assert.deepEqual(cross, {
      status: 403,
      body: { code: 'forbidden', message: 'Cross-site requests are not allowed' },
    });
    // Same host, other port: another origin.
    assert.equal((await refused(stack, { who: seeker, origin: stack.baseUrls[1] })).status, 403);
    // A client that sends no Origin (not a browser) is fine.
    const ok = await connect(stack, seeker, 0, { origin: null });
    await ok.close();
  });

  it('holds at most 20 sockets per user across processes: the next gets 429, the older stay open', async () => {
    const user = await signIn(stack, await createVerifiedUser(stack));
    const open = [];
    for (let i = 0; i < 20; i += 1) open.push(await connect(stack, user, i % 2));
    for (const apiIndex of [0, 1]) {
      assert.deepEqual(await refused(stack, { who: user, apiIndex }), {
        status: 429,
        body: {
          code: 'rate_limited',
          message: 'Too many open connections. Close some of your other tabs and try again.',
        },
      });
    }
    // Another user is not affected.
    const other = await connect(stack, third, 1);
    await other.close();
    // Closing one makes room for one.
    await open.pop().close();
    const again = await until('a socket once another closed', () => connect(stack, user, 1));
    await again.close();
    for (const s of open) await s.close();
  });

  it('answers bad frames with an error and keeps the socket open', async () => {
    const s = await connect(stack, seeker, 1);
    try {
      s.raw('not json at all');
      assert.match((await s.next('error')).message, /JSON/);
      s.raw(JSON.stringify({ event: 'launchRockets', data: {} }));
      assert.equal((await s.next('error')).message, 'Unknown event: launchRockets');
      s.raw(JSON.stringify({ event: 'joinConversation', data: {} }));
      assert.match((await s.next('error')).message, /conversationId/);
      s.raw(JSON.stringify({ event: 'joinConversation', data: conversationId }));
      assert.equal((await s.next('error')).message, 'data must be a JSON object');
      s.send('sendMessage', { conversationId, content: '   ' });
      assert.equal((await s.next('error', (d) => d.event === 'sendMessage')).message, 'Message cannot be empty');
      s.send('sendMessage', { conversationId, content: 'x'.repeat(5001) });
      assert.equal(
        (await s.next('error', (d) => d.event === 'sendMessage')).message,
        'Message must be at most 5000 characters',
      );
      s.send('markMessageRead', { messageId: '00000000-0000-4000-8000-000000000000' });
      assert.equal((await s.next('error', (d) => d.event === 'markMessageRead')).message, 'Message not found');
      s.send('ping', {});
      assert.deepEqual(await s.next('pong'), {});
    } finally {
      await s.close();
    }
  });

  it('stores a repeated clientId once and acknowledges it again to the sender only', async () => {
    const s = await connect(stack, seeker, 0);
    const m = await connect(stack, mentor.c, 1);
    try {
      const dup = clientId('dup');
      s.send('sendMessage', { conversationId, content: 'Sent twice, stored once', clientId: dup });
      const first = await s.next('messageReceived', (d) => d.clientId === dup);
      s.send('sendMessage', { conversationId, content: 'Sent twice, stored once', clientId: dup });
      const second = await s.next('messageReceived', (d) => d.clientId === dup);
      assert.equal(second.id, first.id);
      const marker = clientId('marker');
      s.send('sendMessage', { conversationId, content: 'after the repeat', clientId: marker });
      await m.next('messageReceived', (d) => d.clientId === marker);
      assert.equal(
        m.received('messageReceived').filter((d) => d.clientId === dup).length,
        1,
        'the other party got it once',
      );
      const history = (await seeker.get(`/api/conversations/${conversationId}/messages?limit=100`)).body;
      assert.equal(history.filter((msg) => msg.clientId === dup).length, 1);
    } finally {
      await Promise.all([s.close(), m.close()]);
    }
  });

  it('throttles a flood with an error and drops the extra frames, without closing', async () => {
    const f = await connect(stack, third, 0);
    try {
      for (let i = 0; i < 120; i += 1) f.send('ping', {});
      const error = await f.next('error', (d) => d.message === 'Too many messages: slow down');
      assert.ok(error);
      await until(
        'every answer to the flood',
        () => f.received('pong').length + f.received('error').length === 120,
        10_000,
        20,
      );
      assert.ok(f.received('pong').length < 120, 'some frames were dropped');
      await until('the bucket to refill and a ping to pass', async () => {
        const before = f.received('pong').length;
        f.send('ping', {});
        await new Promise((r) => setTimeout(r, 100));
        return f.received('pong').length > before;
      });
    } finally {
      await f.close();
    }
  });

  it('signals a call across processes: initiate, incoming, accept, offer/answer/ICE relayed, end', async () => {
    const s = await connect(stack, seeker, 0);
    const m = await connect(stack, mentor.c, 1);
    const mOther = await connect(stack, mentor.c, 0);
    const t = await connect(stack, third, 1);
    try {
      s.send('initiateCall', { conversationId });
      const call = await s.next('callInitiated');
      assert.equal(call.conversationId, conversationId);
      assert.equal(call.bookingId, null);
      const incoming = await m.next('incomingCall', (d) => d.callId === call.callId);
      assert.equal(incoming.roomId, call.roomId);
      assert.equal(incoming.conversationId, conversationId);
      assert.deepEqual(incoming.caller, { id: seekerId, firstName: 'Sam', lastName: 'Seeker', profileImageUrl: null });
      await mOther.next('incomingCall', (d) => d.callId === call.callId);

      // One call at a time in a conversation.
      m.send('initiateCall', { conversationId });
      assert.equal(
        (await m.next('error', (d) => d.event === 'initiateCall')).message,
        'A call is already in progress in this conversation',
      );

      m.send('acceptCall', { callId: call.callId });
      assert.deepEqual(await s.next('callAccepted'), { callId: call.callId, roomId: call.roomId });
      assert.equal((await mOther.next('callEnded', (d) => d.callId === call.callId)).reason, 'answered elsewhere');

      // An offer larger than a NOTIFY payload travels by reference.
      const offer = { type: 'offer', sdp: `v=0\r\n${'a=candidate:x\r\n'.repeat(800)}` };
      s.send('sendOffer', { roomId: call.roomId, offer });
      assert.deepEqual(await m.next('offer'), { roomId: call.roomId, offer, from: seekerId });
      const answer = { type: 'answer', sdp: 'v=0\r\n' };
      m.send('sendAnswer', { roomId: call.roomId, answer });
      assert.deepEqual(await s.next('answer'), { roomId: call.roomId, answer, from: mentorUserId() });
      const candidate = {
        candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host',
        sdpMid: '0',
        sdpMLineIndex: 0,
      };
      s.send('sendIceCandidate', { roomId: call.roomId, candidate });
      assert.deepEqual(await m.next('iceCandidate'), { roomId: call.roomId, candidate, from: seekerId });
      m.send('sendIceCandidate', { roomId: call.roomId, candidate });
      await s.next('iceCandidate');
      assert.equal(
        mOther.received('offer').length + mOther.received('iceCandidate').length,
        0,
        'signalling goes to the call socket only',
      );

      // Someone else can neither signal nor end it.
      t.send('sendOffer', { roomId: call.roomId, offer });
      assert.equal((await t.next('error', (d) => d.event === 'sendOffer')).message, 'Call not found');
      t.send('endCall', { callId: call.callId });
      assert.equal((await t.next('error', (d) => d.event === 'endCall')).message, 'Call not found');

      m.send('endCall', { callId: call.callId });
      assert.deepEqual(await s.next('callEnded', (d) => d.callId === call.callId), {
        callId: call.callId,
        roomId: call.roomId,
        reason: 'ended',
      });
      assert.equal((await m.next('callEnded', (d) => d.callId === call.callId)).reason, 'ended');
      await settled(t);
      assert.equal(t.received('incomingCall').length + t.received('offer').length, 0);
    } finally {
      await Promise.all([s.close(), m.close(), mOther.close(), t.close()]);
    }
  });

  it('keeps an answered call whose socket drops for its party to resume, and ends it if they do not', async () => {
    const m = await connect(stack, mentor.c, 0);
    const caller = await connect(stack, seeker, 1);
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    const status = async (id) => (await db.query('SELECT status FROM calls WHERE id = $1', [id])).rows[0].status;
    /** The closed socket's grace task is queued: the server has handled the close. */
    const graceQueued = (id) =>
      until(
        'the reconnect grace task',
        async () =>
          (
            await db.query(
              "SELECT count(*)::int AS n FROM apalis.jobs WHERE job_type = 'call_reconnect_grace' AND position($1 in convert_from(job, 'UTF8')) > 0",
              [id],
            )
          ).rows[0].n > 0,
        10_000,
        50,
      );
    let back;
    try {
      caller.send('initiateCall', { conversationId });
      const call = await caller.next('callInitiated');
      await m.next('incomingCall', (d) => d.callId === call.callId);
      m.send('acceptCall', { callId: call.callId });
      await caller.next('callAccepted');

      // The caller's socket drops (CALL_RECONNECT_GRACE_SECONDS=3 here): the call is not over.
      await caller.close();
      await graceQueued(call.callId);
      assert.equal(await status(call.callId), 'active');
      assert.equal(m.received('callEnded').filter((d) => d.callId === call.callId).length, 0);

      // They come back on another process and resume it: both sides hear so, signalling flows again.
      back = await connect(stack, seeker, 0);
      back.send('resumeCall', { callId: call.callId });
      const mine = await back.next('callResumed');
      assert.deepEqual(
        { ...mine, answeredAt: typeof mine.answeredAt },
        {
          callId: call.callId,
          roomId: call.roomId,
          conversationId,
          bookingId: null,
          answeredAt: 'string',
          role: 'caller',
          userId: seekerId,
        },
      );
      const theirs = await m.next('callResumed', (d) => d.callId === call.callId);
      assert.equal(theirs.role, 'callee');
      assert.equal(theirs.userId, seekerId);
      back.send('sendOffer', { roomId: call.roomId, offer: { type: 'offer', sdp: 'v=0 again' } });
      assert.equal((await m.next('offer', (d) => d.roomId === call.roomId)).offer.sdp, 'v=0 again');
      m.send('sendAnswer', { roomId: call.roomId, answer: { type: 'answer', sdp: 'v=0 back' } });
      assert.equal((await back.next('answer')).answer.sdp, 'v=0 back');
      // Someone else cannot take the call over.
      const t = await connect(stack, third, 0);
      t.send('resumeCall', { callId: call.callId });
      assert.equal((await t.next('error', (d) => d.event === 'resumeCall')).message, 'Call not found');
      await t.close();

      // The old socket's grace passes: the resumed call goes on.
      await until(
        'the first grace task to run',
        async () =>
          (
            await db.query(
              "SELECT count(*)::int AS n FROM apalis.jobs WHERE job_type = 'call_reconnect_grace' AND position($1 in convert_from(job, 'UTF8')) > 0 AND status = 'Done'",
              [call.callId],
            )
          ).rows[0].n > 0,
        20_000,
        100,
      );
      assert.equal(await status(call.callId), 'active');

      // Dropped again and not back within the grace: the worker ends it as 'disconnected'.
      await back.close();
      back = null;
      assert.equal((await m.next('callEnded', (d) => d.callId === call.callId, 20_000)).reason, 'disconnected');
      assert.equal(await status(call.callId), 'ended');
      const late = await connect(stack, seeker, 1);
      late.send('resumeCall', { callId: call.callId });
      assert.deepEqual(await late.next('callEnded'), { callId: call.callId, roomId: call.roomId, reason: 'ended' });
      await late.close();
    } finally {
      await db.end();
      await Promise.all([m.close(), back?.close()]);
    }
  });

  it('ends calls that are rejected, unanswered (missed after the ring timeout) or whose socket drops', async () => {
    const s = await connect(stack, seeker, 0);
    const m = await connect(stack, mentor.c, 1);
    try {
      s.send('initiateCall', { conversationId });
      const rejected = await s.next('callInitiated');
      await m.next('incomingCall', (d) => d.callId === rejected.callId);
      m.send('rejectCall', { callId: rejected.callId });
      assert.deepEqual(await s.next('callRejected'), { callId: rejected.callId, roomId: rejected.roomId });
      assert.equal((await s.next('callEnded', (d) => d.callId === rejected.callId)).reason, 'rejected');
      assert.equal((await m.next('callEnded', (d) => d.callId === rejected.callId)).reason, 'rejected');

      // CALL_RING_TIMEOUT_SECONDS=2 in this stack: the worker ends it as missed.
      s.send('initiateCall', { conversationId });
      const missed = await s.next('callInitiated');
      await m.next('incomingCall', (d) => d.callId === missed.callId);
      assert.equal((await s.next('callEnded', (d) => d.callId === missed.callId, 20_000)).reason, 'missed');
      assert.equal((await m.next('callEnded', (d) => d.callId === missed.callId, 20_000)).reason, 'missed');
      m.send('acceptCall', { callId: missed.callId });
      assert.equal((await m.next('error', (d) => d.event === 'acceptCall')).message, 'This call is no longer ringing');

      const caller = await connect(stack, seeker, 1);
      caller.send('initiateCall', { conversationId });
      const dropped = await caller.next('callInitiated');
      await m.next('incomingCall', (d) => d.callId === dropped.callId);
      m.send('acceptCall', { callId: dropped.callId });
      await caller.next('callAccepted');
      await caller.close();
      assert.equal((await m.next('callEnded', (d) => d.callId === dropped.callId)).reason, 'disconnected');
    } finally {
      await Promise.all([s.close(), m.close()]);
    }
  });

  it('closes the sockets of a session that logs out, and only those', async () => {
    const other = await signIn(stack, seekerUser);
    const doomed = await connect(stack, other, 1);
    const kept = await connect(stack, seeker, 1);
    const sid = other.cookies.sid;
    try {
      const r = await other.post('/api/logout', {});
      assert.equal(r.status, 200, show(r));
      const closed = await doomed.closed;
      assert.ok(closed.code >= 1000, JSON.stringify(closed));
      kept.send('ping', {});
      await kept.next('pong');
      assert.equal(
        (await refused(stack, { cookie: `sid=${sid}` })).status,
        401,
        'the ended session cannot connect again',
      );
    } finally {
      await kept.close();
    }
  });

  it('loses no message when an api process dies: its client reconnects to the other', async () => {
    const victim = await connect(stack, seeker, 1);
    const m = await connect(stack, mentor.c, 0);
    victim.send('initiateCall', { conversationId });
    const call = await victim.next('callInitiated');
    await m.next('incomingCall', (d) => d.callId === call.callId);
    m.send('acceptCall', { callId: call.callId });
    await victim.next('callAccepted');
    await stack.killApi(1);
    await victim.closed;

    // The dead process could not end its call; once its socket is stale (90 s without a ping,
    // simulated here) the call no longer keeps the conversation busy.
    m.send('initiateCall', { conversationId });
    assert.equal(
      (await m.next('error', (d) => d.event === 'initiateCall')).message,
      'A call is already in progress in this conversation',
    );
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      await db.query("UPDATE realtime_sockets SET seen_at = now() - interval '91 seconds' WHERE user_id = $1", [
        seekerId,
      ]);
    } finally {
      await db.end();
    }
    m.send('initiateCall', { conversationId });
    assert.equal((await m.next('callEnded', (d) => d.callId === call.callId)).reason, 'disconnected');
    const next = await m.next('callInitiated');
    m.send('endCall', { callId: next.callId });
    await m.next('callEnded', (d) => d.callId === next.callId);

    const whileAway = [clientId('away'), clientId('away')];
    for (const id of whileAway)
      m.send('sendMessage', { conversationId, content: `sent while you were away ${id}`, clientId: id });
    for (const id of whileAway) await m.next('messageReceived', (d) => d.clientId === id);

    const back = await connect(stack, seeker, 0);
    try {
      const history = (await seeker.get(`/api/conversations/${conversationId}/messages?limit=100`)).body;
      for (const id of whileAway)
        assert.ok(
          history.some((msg) => msg.clientId === id),
          `${id} is in the history`,
        );
      const live = clientId('live');
      m.send('sendMessage', { conversationId, content: 'and now live again', clientId: live });
      await back.next('messageReceived', (d) => d.clientId === live);
    } finally {
      await Promise.all([back.close(), m.close()]);
    }
  });
});

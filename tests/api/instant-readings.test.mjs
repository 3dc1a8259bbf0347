// Issue 36, §3: a reading from request to end. The 402 and 409 rules; request, accept, minutes
// charged (time moved in SQL, never slept), free minutes once per pair, the end's figures; running
// out of balance ends it and a top-up prevents that; a worker killed and restarted mid-reading
// charges every minute once; concurrent accepts leave one active reading.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createAdmin } from '../harness/admin.mjs';
import { show } from '../harness/client.mjs';
import { readings } from '../harness/readings.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

let stack;
let db;
let harness;
let onlineMentor, seeker, startReading, moveBack, topUp, balanceCents, entriesSum;
before(async () => {
  stack = await startStack();
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  harness = readings(stack, db);
  ({ onlineMentor, seeker, startReading, moveBack, topUp, balanceCents, entriesSum } = harness);
});
after(async () => {
  harness?.closeSockets();
  await db?.end();
  await stack?.stop();
});

const one = async (sql, params = []) => (await db.query(sql, params)).rows[0];

/** Every charge task of the reading that waits for its minute runs now. */
async function runDueCharges(id) {
  await db.query(
    "UPDATE apalis.jobs SET run_at = now() WHERE job_type = 'instant_session_charges' AND status = 'Pending' AND convert_from(job, 'UTF8') LIKE '%' || $1 || '%'",
    [id],
  );
}

const charges = async (id) =>
  (
    await db.query(
      'SELECT minute_index, amount_cents::int AS cents FROM wallet_entries WHERE instant_session_id = $1 ORDER BY minute_index',
      [id],
    )
  ).rows;

describe('requesting a reading', () => {
  it('answers 402 insufficient_balance with what is missing for three paid minutes', async () => {
    const m = await onlineMentor('5.00');
    const s = await seeker('10.00');
    const r = await s.c.post('/api/instant-sessions', { mentorId: m.mentor.id, mode: 'chat' });
    assert.equal(r.status, 402, show(r));
    assert.equal(r.body.code, 'insufficient_balance');
    assert.deepEqual(r.body.details, { missing: '5.00' });
    assert.ok(r.body.message);
  });

  it('answers 409 when the mentor is not available or the seeker has another reading open', async () => {
    const m = await onlineMentor();
    const other = await onlineMentor();
    const s = await seeker();
    assert.equal((await m.c.put('/api/mentor/presence', { status: 'offline' })).status, 200);
    const offline = await s.c.post('/api/instant-sessions', { mentorId: m.mentor.id, mode: 'chat' });
    assert.equal(offline.status, 409, show(offline));
    const first = await s.c.post('/api/instant-sessions', { mentorId: other.mentor.id, mode: 'video' });
    assert.equal(first.status, 201, show(first));
    assert.equal((await m.c.put('/api/mentor/presence', { status: 'available' })).status, 200);
    const second = await s.c.post('/api/instant-sessions', { mentorId: m.mentor.id, mode: 'chat' });
    assert.equal(second.status, 409, show(second));
    const badMode = await s.c.post('/api/instant-sessions', { mentorId: m.mentor.id, mode: 'phone' });
    assert.equal(badMode.status, 400, show(badMode));
    const self = await m.c.post('/api/instant-sessions', { mentorId: m.mentor.id, mode: 'chat' });
    assert.equal(self.status, 400, show(self));
  });

  it('201 requested with the rate, the free minutes and the expiry; the mentor hears of it', async () => {
    const m = await onlineMentor('1.99');
    const s = await seeker();
    const r = await s.c.post('/api/instant-sessions', { mentorId: m.mentor.id, mode: 'chat' });
    assert.equal(r.status, 201, show(r));
    assert.equal(r.body.status, 'requested');
    assert.equal(r.body.mode, 'chat');
    assert.equal(r.body.perMinuteRate, '1.99');
    assert.equal(r.body.freeMinutes, 3);
    const ttl = (Date.parse(r.body.expiresAt) - Date.now()) / 1000;
    assert.ok(ttl > 50 && ttl <= 61, `expires in ${ttl} s`);
    const heard = await m.socket.next('instantSessionRequested', (d) => d.id === r.body.id);
    assert.equal(heard.mode, 'chat');
    assert.equal(heard.seekerName, `${s.user.firstName} ${s.user.lastName[0]}`);
  });

  it('expires after 60 s unanswered (the job), and declined or expired readings cost nothing', async () => {
    const m = await onlineMentor();
    const s = await seeker('20.00');
    const r = await s.c.post('/api/instant-sessions', { mentorId: m.mentor.id, mode: 'chat' });
    await db.query(
      "UPDATE apalis.jobs SET run_at = now() WHERE job_type = 'instant_session_expiry' AND convert_from(job, 'UTF8') LIKE '%' || $1 || '%'",
      [r.body.id],
    );
    await until(
      'the request to expire',
      async () => (await s.c.get(`/api/instant-sessions/${r.body.id}`)).body.status === 'expired',
    );
    const late = await m.c.post(`/api/instant-sessions/${r.body.id}/accept`);
    assert.equal(late.status, 409, show(late));
    const again = await s.c.post('/api/instant-sessions', { mentorId: m.mentor.id, mode: 'chat' });
    assert.equal(again.status, 201, show(again));
    const declined = await m.c.post(`/api/instant-sessions/${again.body.id}/decline`);
    assert.equal(declined.status, 200, show(declined));
    assert.equal(declined.body.status, 'declined');
    assert.equal(await balanceCents(s.id), 2000);
    // Neither used the free minutes.
    const third = await s.c.post('/api/instant-sessions', { mentorId: m.mentor.id, mode: 'chat' });
    assert.equal(third.body.freeMinutes, 3);
  });
});

describe('a reading', () => {
  it('accepted: active, the mentor busy, a second accept 409; minutes charged after the free ones; the end figures', async () => {
    const m = await onlineMentor('2.00');
    const s = await seeker('50.00');
    const reading = await startReading(s, m, 'chat');
    assert.equal(reading.status, 'active');
    assert.ok(reading.startedAt);
    assert.ok(reading.conversationId, 'a chat reading uses the pair’s conversation');
    const presence = await s.c.get(`/api/mentors/presence?ids=${m.mentor.id}`);
    assert.equal(presence.body[0].status, 'busy');
    const again = await m.c.post(`/api/instant-sessions/${reading.id}/accept`);
    assert.equal(again.status, 409, show(again));
    const stranger = await seeker(null);
    assert.equal((await stranger.c.get(`/api/instant-sessions/${reading.id}`)).status, 404);

    await moveBack(reading.id, 5 * 60 + 30);
    await runDueCharges(reading.id);
    await until('minutes 3, 4 and 5 to be charged', async () => (await charges(reading.id)).length === 3);
    assert.deepEqual(
      (await charges(reading.id)).map((c) => [c.minute_index, c.cents]),
      [
        [3, -200],
        [4, -200],
        [5, -200],
      ],
    );
    const ended = await s.c.post(`/api/instant-sessions/${reading.id}/end`);
    assert.equal(ended.status, 200, show(ended));
    const view = (await m.c.get(`/api/instant-sessions/${reading.id}`)).body;
    assert.equal(view.status, 'ended');
    assert.equal(view.endReason, 'seeker');
    assert.equal(view.minutesBilled, 6);
    assert.equal(view.freeMinutes, 3);
    assert.equal(view.amountCharged, '6.00');
    assert.ok(view.startedAt && view.endedAt);
    assert.equal(await balanceCents(s.id), 4400);
    assert.equal(await entriesSum(s.id), 4400);
    const wallet = await s.c.get('/api/wallet');
    assert.equal(wallet.body.entries.filter((e) => e.kind === 'session_charge').length, 3);
    assert.equal((await s.c.get(`/api/mentors/presence?ids=${m.mentor.id}`)).body[0].status, 'available');

    // The free minutes were the pair's, once.
    const second = await s.c.post('/api/instant-sessions', { mentorId: m.mentor.id, mode: 'chat' });
    assert.equal(second.status, 201, show(second));
    assert.equal(second.body.freeMinutes, 0);
    const endTwice = await s.c.post(`/api/instant-sessions/${reading.id}/end`);
    assert.equal(endTwice.status, 409, show(endTwice));
  });

  it('ends when the balance runs out, with balanceLow a minute before', async () => {
    const m = await onlineMentor('5.00');
    const s = await seeker('25.00');
    const reading = await startReading(s, m, 'video');
    assert.equal(reading.freeMinutes, 3);
    // Minutes 3..6 paid (20.00): 5.00 left pays minute 7, not minute 8.
    await moveBack(reading.id, 6 * 60 + 10);
    await runDueCharges(reading.id);
    const low = await s.socket.next('balanceLow', (d) => d.instantSessionId === reading.id);
    assert.equal(low.balance, '5.00');
    await moveBack(reading.id, 2 * 60);
    await runDueCharges(reading.id);
    await until(
      'the reading to end on the balance',
      async () => (await s.c.get(`/api/instant-sessions/${reading.id}`)).body.status === 'ended',
    );
    const view = (await s.c.get(`/api/instant-sessions/${reading.id}`)).body;
    assert.equal(view.endReason, 'balance');
    assert.equal(view.minutesBilled, 8);
    assert.equal(view.amountCharged, '25.00');
    assert.equal(await balanceCents(s.id), 0);
    assert.equal(await entriesSum(s.id), 0);
  });

  it('a top-up after balanceLow continues it without a break', async () => {
    const m = await onlineMentor('5.00');
    const s = await seeker('25.00');
    const reading = await startReading(s, m, 'chat');
    await moveBack(reading.id, 6 * 60 + 10);
    await runDueCharges(reading.id);
    await s.socket.next('balanceLow', (d) => d.instantSessionId === reading.id);
    assert.equal((await topUp(s.c, '20.00')).body.success, true);
    await moveBack(reading.id, 2 * 60);
    await runDueCharges(reading.id);
    await until('minutes 7 and 8 to be charged', async () => (await charges(reading.id)).length === 6);
    assert.equal((await s.c.get(`/api/instant-sessions/${reading.id}`)).body.status, 'active');
    const ended = await m.c.post(`/api/instant-sessions/${reading.id}/end`);
    assert.equal(ended.body.endReason, 'mentor');
    assert.equal(ended.body.minutesBilled, 9);
    assert.equal(ended.body.amountCharged, '30.00');
    assert.equal(await balanceCents(s.id), 1500);
  });

  it('worker killed and restarted mid-reading charges every minute once', async () => {
    const m = await onlineMentor('1.00');
    const s = await seeker('100.00');
    // The pair's free minutes are spent first, so every minute of the second reading is paid.
    const first = await startReading(s, m, 'chat');
    assert.equal((await s.c.post(`/api/instant-sessions/${first.id}/end`)).status, 200);
    const reading = await startReading(s, m, 'chat');
    assert.equal(reading.freeMinutes, 0);
    await until('minute 0 to be charged', async () => (await charges(reading.id)).length === 1);
    await stack.killWorker();
    await moveBack(reading.id, 4 * 60 + 5);
    await stack.startWorker();
    await runDueCharges(reading.id);
    await until('minutes 0..4 to be charged', async () => (await charges(reading.id)).length === 5);
    // Killed again while it catches up, and restarted: nothing twice.
    await stack.killWorker();
    await moveBack(reading.id, 60);
    await stack.startWorker();
    await runDueCharges(reading.id);
    await until('minute 5 to be charged', async () => (await charges(reading.id)).length === 6);
    const rows = await charges(reading.id);
    assert.deepEqual(
      rows.map((r) => r.minute_index),
      [0, 1, 2, 3, 4, 5],
    );
    const ended = await s.c.post(`/api/instant-sessions/${reading.id}/end`);
    assert.equal(ended.body.minutesBilled, 6);
    assert.equal(ended.body.amountCharged, '6.00');
    const firstView = (await s.c.get(`/api/instant-sessions/${first.id}`)).body;
    assert.equal(await entriesSum(s.id), await balanceCents(s.id));
    assert.equal(await balanceCents(s.id), 10000 - 600 - Math.round(Number(firstView.amountCharged) * 100));
  });

  it('concurrent requests and accepts to one mentor leave one active reading', async () => {
    const m = await onlineMentor('1.00');
    const seekers = await Promise.all(Array.from({ length: 5 }, () => seeker('20.00')));
    const requests = await Promise.all(
      seekers.map((s) => s.c.post('/api/instant-sessions', { mentorId: m.mentor.id, mode: 'chat' })),
    );
    const made = requests.filter((r) => r.status === 201);
    assert.ok(made.length >= 1, requests.map(show).join('\n'));
    const accepts = await Promise.all(made.map((r) => m.c.post(`/api/instant-sessions/${r.body.id}/accept`)));
    assert.equal(accepts.filter((a) => a.status === 200).length, 1, accepts.map(show).join('\n'));
    assert.ok(accepts.filter((a) => a.status !== 200).every((a) => a.status === 409));
    const active = await one(
      "SELECT count(*)::int AS n FROM instant_sessions WHERE mentor_id = $1 AND status = 'active'",
      [m.mentor.id],
    );
    assert.equal(active.n, 1);
    const again = await seekers[0].c.post('/api/instant-sessions', { mentorId: m.mentor.id, mode: 'chat' });
    assert.equal(again.status, 409, show(again));
  });
});

describe('readings in payouts', () => {
  it('the batch pays the mentor per reading, less the fee: earnings, pending payouts, the CSV and mark-paid', async () => {
    const m = await onlineMentor('2.00');
    const prefs = await m.c.post('/api/mentor/payout-preferences', {
      method: 'paypal',
      paypalEmail: `reader-${crypto.randomUUID().slice(0, 8)}@pay.example`,
      minimumPayout: '1.00',
    });
    assert.equal(prefs.status, 200, show(prefs));
    const s = await seeker('50.00');
    const reading = await startReading(s, m, 'chat');
    await moveBack(reading.id, 5 * 60 + 30);
    const ended = await s.c.post(`/api/instant-sessions/${reading.id}/end`);
    assert.equal(ended.body.amountCharged, '6.00', show(ended));

    const before = await m.c.get('/api/mentor/earnings');
    assert.equal(before.status, 200, show(before));
    const listed = before.body.readings.find((r) => r.id === reading.id);
    assert.deepEqual(
      { amount: listed.amount, fee: listed.platformFee, net: listed.mentorNet, payout: listed.payoutId },
      { amount: '6.00', fee: '0.90', net: '5.10', payout: null },
    );
    assert.equal(before.body.nextPayout.pendingAmount, '6.00');

    const admin = await createAdmin(stack);
    assert.equal((await admin.c.post('/api/admin/payouts/run', {})).status, 202);
    await until(
      'the batch to take the reading',
      async () =>
        (await one('SELECT count(*)::int AS n FROM payout_readings WHERE instant_session_id = $1', [reading.id])).n ===
        1,
      30_000,
    );
    const pending = (await admin.c.get('/api/admin/payouts/pending')).body.find((p) => p.mentorId === m.mentor.id);
    assert.ok(pending, 'a pending payout for the mentor');
    assert.deepEqual(pending.readingIds, [reading.id]);
    assert.deepEqual(pending.bookingIds, []);
    assert.equal(pending.pendingAmount, '6.00');
    assert.equal(pending.platformFee, '0.90');
    assert.equal(pending.mentorNet, '5.10');
    const csv = await admin.c.get('/api/admin/payouts/export?status=pending');
    assert.equal(csv.status, 200, show(csv));
    assert.match(csv.text, /,5\.10,/);

    const after = await m.c.get('/api/mentor/earnings');
    assert.equal(after.body.readings.find((r) => r.id === reading.id).payoutId, pending.id);
    const wrong = await admin.c.post('/api/admin/payouts/mark-paid', { mentorId: m.mentor.id, bookingIds: [] });
    assert.equal(wrong.status, 409, show(wrong));
    const paid = await admin.c.post('/api/admin/payouts/mark-paid', {
      mentorId: m.mentor.id,
      bookingIds: [],
      readingIds: [reading.id],
    });
    assert.equal(paid.status, 200, show(paid));
    const done = await m.c.get('/api/mentor/earnings');
    assert.equal(done.body.readings.find((r) => r.id === reading.id).payoutStatus, 'paid');
  });
});

describe('after a reading', () => {
  it('the seeker reviews it once, and reports a problem under the rules of booking complaints', async () => {
    const m = await onlineMentor('2.00');
    const s = await seeker('50.00');
    const waiting = await s.c.post('/api/instant-sessions', { mentorId: m.mentor.id, mode: 'chat' });
    const early = await s.c.post(`/api/instant-sessions/${waiting.body.id}/complaint`, {
      reason: 'other',
      details: 'It never started.',
    });
    assert.equal(early.status, 409, show(early));
    assert.equal(early.body.message, 'You can report a problem once the session has started.');
    assert.equal((await m.c.post(`/api/instant-sessions/${waiting.body.id}/decline`)).status, 200);

    const reading = await startReading(s, m, 'chat');
    const notYet = await s.c.post(`/api/instant-sessions/${reading.id}/review`, { rating: 5 });
    assert.equal(notYet.status, 409, show(notYet));
    await moveBack(reading.id, 4 * 60 + 10);
    assert.equal((await s.c.post(`/api/instant-sessions/${reading.id}/end`)).status, 200);

    const review = await s.c.post(`/api/instant-sessions/${reading.id}/review`, {
      rating: 5,
      comment: 'Clear and kind.',
    });
    assert.equal(review.status, 201, show(review));
    assert.equal(review.body.rating, 5);
    const twice = await s.c.post(`/api/instant-sessions/${reading.id}/review`, { rating: 4 });
    assert.equal(twice.status, 409, show(twice));
    assert.equal(twice.body.code, 'already_reviewed');
    const byMentor = await m.c.post(`/api/instant-sessions/${reading.id}/review`, { rating: 1 });
    assert.equal(byMentor.status, 404, show(byMentor));
    const listed = await s.c.get(`/api/mentors/${m.mentor.id}/reviews`);
    assert.ok(
      listed.body.some((r) => r.comment === 'Clear and kind.'),
      show(listed),
    );

    const badReason = await s.c.post(`/api/instant-sessions/${reading.id}/complaint`, { reason: 'bored' });
    assert.equal(badReason.status, 400, show(badReason));
    assert.equal(badReason.body.message, 'Reason must be mentor_no_show, technical_problem, not_as_described or other');
    const noDetails = await s.c.post(`/api/instant-sessions/${reading.id}/complaint`, { reason: 'technical_problem' });
    assert.equal(noDetails.status, 400, show(noDetails));
    assert.equal(noDetails.body.message, 'Please describe what went wrong');
    const filed = await s.c.post(`/api/instant-sessions/${reading.id}/complaint`, {
      reason: 'technical_problem',
      details: 'The chat kept dropping.',
    });
    assert.equal(filed.status, 201, show(filed));
    assert.equal(filed.body.status, 'open');
    assert.equal(filed.body.instantSessionId, reading.id);
    const again = await s.c.post(`/api/instant-sessions/${reading.id}/complaint`, { reason: 'mentor_no_show' });
    assert.equal(again.status, 409, show(again));
    assert.equal(again.body.message, 'You have already reported a problem with this session.');
    // An open complaint holds the reading out of the next payout.
    const earnings = await m.c.get('/api/mentor/earnings');
    assert.equal(earnings.body.nextPayout.pendingAmount, '0.00', show(earnings));

    const other = await startReading(s, m, 'chat');
    await s.c.post(`/api/instant-sessions/${other.id}/end`);
    await db.query("UPDATE instant_sessions SET ended_at = now() - interval '25 hours' WHERE id = $1", [other.id]);
    const late = await s.c.post(`/api/instant-sessions/${other.id}/complaint`, { reason: 'mentor_no_show' });
    assert.equal(late.status, 409, show(late));
    assert.equal(late.body.message, 'The 24-hour window for reporting a problem with this session has closed.');
  });
});

describe('a chat reading in the pair’s conversation', () => {
  it('its messages carry the reading’s id; messages outside readings stay free and untagged', async () => {
    const m = await onlineMentor('2.00');
    const s = await seeker('50.00');
    const reading = await startReading(s, m, 'chat');
    const during = await s.c.post(`/api/conversations/${reading.conversationId}/messages`, { content: 'Hello' });
    assert.equal(during.status, 201, show(during));
    assert.equal(during.body.instantSessionId, reading.id);
    const live = await m.socket.next('messageReceived', (d) => d.content === 'Hello');
    assert.equal(live.instantSessionId, reading.id);
    assert.equal((await s.c.post(`/api/instant-sessions/${reading.id}/end`)).status, 200);
    const afterwards = await s.c.post(`/api/conversations/${reading.conversationId}/messages`, { content: 'Thanks!' });
    assert.equal(afterwards.status, 201, show(afterwards));
    assert.equal(afterwards.body.instantSessionId, null);
    const listed = await m.c.get(`/api/conversations/${reading.conversationId}/messages`);
    const tagged = Object.fromEntries(
      (listed.body.messages ?? listed.body).map((x) => [x.content, x.instantSessionId]),
    );
    assert.deepEqual(tagged, { Hello: reading.id, 'Thanks!': null });
  });
});

describe('a video reading', () => {
  it('uses the one-to-one call path: a call placed in the pair’s conversation names the reading', async () => {
    const m = await onlineMentor('2.00');
    const s = await seeker('50.00');
    const reading = await startReading(s, m, 'video');
    assert.ok(reading.conversationId, show({ body: reading }));
    s.socket.send('initiateCall', { conversationId: reading.conversationId });
    const started = await s.socket.next('callInitiated', (d) => d.conversationId === reading.conversationId);
    const row = await one('SELECT instant_session_id FROM calls WHERE id = $1', [started.callId]);
    assert.equal(row.instant_session_id, reading.id);
    // Messages of a video reading's conversation are not tagged (only a chat reading's are).
    const note = await s.c.post(`/api/conversations/${reading.conversationId}/messages`, {
      content: 'Can you hear me?',
    });
    assert.equal(note.body.instantSessionId, null);
    s.socket.send('endCall', { callId: started.callId });
    assert.equal((await s.c.post(`/api/instant-sessions/${reading.id}/end`)).status, 200);
  });
});

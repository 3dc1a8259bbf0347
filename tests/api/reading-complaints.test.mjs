// Issue 36, §3: a reading's complaint decided as a booking's. Admins list it with the reading's money,
// decide it once (8 concurrent decisions: one 200, the rest 409), the refund goes back to the seeker's
// wallet (the ledger's sum is the balance) and the reading's payout is what is left; the mentor answers
// once within 48 hours; strangers are refused. Time moves in SQL, never slept.
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
let onlineMentor, seeker, startReading, moveBack, balanceCents, entriesSum;
before(async () => {
  stack = await startStack();
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  harness = readings(stack, db);
  ({ onlineMentor, seeker, startReading, moveBack, balanceCents, entriesSum } = harness);
});
after(async () => {
  harness?.closeSockets();
  await db?.end();
  await stack?.stop();
});

const one = async (sql, params = []) => (await db.query(sql, params)).rows[0];

describe('a reading’s complaint', () => {
  it('admins list it and decide it once; the refund goes back to the wallet, the payout is what is left', async () => {
    const m = await onlineMentor('2.00');
    const s = await seeker('50.00');
    const reading = await startReading(s, m, 'chat');
    await moveBack(reading.id, 5 * 60 + 30);
    const ended = await s.c.post(`/api/instant-sessions/${reading.id}/end`);
    assert.equal(ended.body.amountCharged, '6.00', show(ended));
    const before = await s.c.get(`/api/instant-sessions/${reading.id}`);
    assert.equal(before.body.complaint, null, show(before));
    const filed = await s.c.post(`/api/instant-sessions/${reading.id}/complaint`, {
      reason: 'technical_problem',
      details: 'The chat kept dropping.',
    });
    assert.equal(filed.status, 201, show(filed));

    const admin = await createAdmin(stack);
    const queue = await admin.c.get('/api/admin/reading-complaints?status=open');
    assert.equal(queue.status, 200, show(queue));
    const item = queue.body.items.find((c) => c.id === filed.body.id);
    assert.ok(item, show(queue));
    assert.equal(item.instantSessionId, reading.id);
    assert.equal(item.amountCharged, '6.00');
    assert.equal(item.amountRefunded, '0.00');
    assert.equal(item.resolution, null);
    assert.equal(item.response, null);
    assert.equal(item.seeker.id, s.id);
    assert.equal(item.mentorId, m.mentor.id);
    const bad = await admin.c.get('/api/admin/reading-complaints?status=closed');
    assert.equal(bad.status, 400, show(bad));

    // Strangers are refused: the seeker, the mentor, anyone signed out.
    for (const c of [s.c, m.c]) {
      assert.equal((await c.get('/api/admin/reading-complaints')).status, 403);
      const r = await c.post(`/api/admin/reading-complaints/${filed.body.id}/resolve`, {
        outcome: 'full_refund',
        note: 'Mine.',
      });
      assert.equal(r.status, 403, show(r));
    }

    const url = `/api/admin/reading-complaints/${filed.body.id}/resolve`;
    const noNote = await admin.c.post(url, { outcome: 'no_refund' });
    assert.equal(noNote.status, 400, show(noNote));
    assert.equal(noNote.body.message, 'Please add a note (1 to 1,000 characters)');
    const tooMuch = await admin.c.post(url, { outcome: 'partial_refund', amount: '6.00', note: 'All of it.' });
    assert.equal(tooMuch.status, 409, show(tooMuch));
    assert.equal(tooMuch.body.message, 'A partial refund must be less than what is left to refund ($6.00)');
    const zero = await admin.c.post(url, { outcome: 'partial_refund', amount: '0.00', note: 'Nothing.' });
    assert.equal(zero.status, 400, show(zero));
    const missing = await admin.c.post(`/api/admin/reading-complaints/${crypto.randomUUID()}/resolve`, {
      outcome: 'no_refund',
      note: 'Who?',
    });
    assert.equal(missing.status, 404, show(missing));

    const balanceBefore = await balanceCents(s.id);
    const tries = await Promise.all(
      Array.from({ length: 8 }, () =>
        admin.c.post(url, { outcome: 'partial_refund', amount: '2.50', note: 'Half the chat was lost.' }),
      ),
    );
    const statuses = tries.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 409, 409, 409, 409, 409, 409, 409], show(tries.find((r) => r.status !== 409)));
    for (const r of tries.filter((r) => r.status === 409)) {
      assert.equal(r.body.message, 'This complaint has already been decided.');
    }
    const decided = tries.find((r) => r.status === 200).body;
    assert.equal(decided.status, 'resolved');
    // The decision stays on the complaint, with its note, as a booking complaint's resolution.
    assert.deepEqual(
      { ...decided.resolution, decidedAt: typeof decided.resolution.decidedAt },
      {
        outcome: 'partial_refund',
        amount: '2.50',
        note: 'Half the chat was lost.',
        automatic: false,
        decidedAt: 'string',
      },
    );
    assert.equal(await balanceCents(s.id), balanceBefore + 250);
    assert.equal(await entriesSum(s.id), await balanceCents(s.id));
    const credits = await db.query(
      "SELECT amount_cents::int AS cents FROM wallet_entries WHERE instant_session_id = $1 AND kind = 'adjustment'",
      [reading.id],
    );
    assert.deepEqual(credits.rows, [{ cents: 250 }]);
    const audits = await one(
      "SELECT count(*)::int AS n FROM admin_audit WHERE action = 'reading_complaint.decide' AND object_id = $1",
      [filed.body.id],
    );
    assert.equal(audits.n, 1);
    // Both parties' notices are made by fan-out jobs in the worker: waited for, not read once.
    const decidedNotices = async () =>
      (
        await one(
          "SELECT count(*)::int AS n FROM notifications WHERE type = 'complaint_decided' AND (user_id = $1 OR user_id = (SELECT user_id FROM mentors WHERE id = $2))",
          [s.id, m.mentor.id],
        )
      ).n;
    await until('both parties’ complaint_decided notices', async () => (await decidedNotices()) >= 2);
    assert.equal(await decidedNotices(), 2);

    const listed = await admin.c.get('/api/admin/reading-complaints?status=resolved');
    const now = listed.body.items.find((c) => c.id === filed.body.id);
    assert.equal(now.amountRefunded, '2.50', show(listed));
    assert.equal(now.resolution.note, 'Half the chat was lost.', show(listed));
    assert.equal(now.resolution.amount, '2.50');
    const again = await admin.c.post(url, { outcome: 'no_refund', note: 'Changed my mind.' });
    assert.equal(again.status, 409, show(again));

    // Released to payouts with what is left.
    const earnings = await m.c.get('/api/mentor/earnings');
    assert.equal(earnings.body.nextPayout.pendingAmount, '3.50', show(earnings));

    // The mentor answers once, within 48 hours; nobody else can.
    const mine = await m.c.get('/api/mentor/reading-complaints');
    assert.equal(mine.status, 200, show(mine));
    const row = mine.body.find((c) => c.id === filed.body.id);
    assert.ok(row, show(mine));
    assert.equal(row.response, null);
    assert.equal(row.resolution.outcome, 'partial_refund', show(mine));
    assert.equal(row.resolution.note, 'Half the chat was lost.');
    assert.equal(row.instantSessionId, reading.id);
    assert.ok([403, 404].includes((await s.c.get('/api/mentor/reading-complaints')).status));
    const answerUrl = `/api/mentor/reading-complaints/${filed.body.id}/response`;
    const stranger = await onlineMentor('2.00');
    for (const c of [s.c, stranger.c]) {
      const r = await c.post(answerUrl, { message: 'Not mine.' });
      assert.ok([403, 404].includes(r.status), show(r));
    }
    const empty = await m.c.post(answerUrl, { message: '  ' });
    assert.equal(empty.status, 400, show(empty));
    assert.equal(empty.body.message, 'Message must be 1 to 2000 characters');
    await db.query(
      "UPDATE instant_session_complaints SET created_at = created_at - interval '49 hours' WHERE id = $1",
      [filed.body.id],
    );
    const closed = await m.c.post(answerUrl, { message: 'Too late.' });
    assert.equal(closed.status, 409, show(closed));
    assert.equal(closed.body.message, 'Complaints can be answered within 48 hours of being opened.');
    await db.query("UPDATE instant_session_complaints SET created_at = now() - interval '1 hour' WHERE id = $1", [
      filed.body.id,
    ]);
    const answered = await m.c.post(answerUrl, { message: 'The connection on my side failed; sorry.' });
    assert.equal(answered.status, 201, show(answered));
    assert.equal(answered.body.response.message, 'The connection on my side failed; sorry.');
    const seen = (await admin.c.get('/api/admin/reading-complaints?status=resolved')).body.items.find(
      (c) => c.id === filed.body.id,
    );
    assert.equal(seen.response.message, 'The connection on my side failed; sorry.', show(seen));
    // The seeker follows it on the reading, as on a booking: the decision and the answer; the mentor sees it too.
    for (const c of [s.c, m.c]) {
      const view = await c.get(`/api/instant-sessions/${reading.id}`);
      assert.equal(view.status, 200, show(view));
      assert.equal(view.body.complaint.id, filed.body.id, show(view));
      assert.equal(view.body.complaint.status, 'resolved');
      assert.equal(view.body.complaint.resolution.note, 'Half the chat was lost.');
      assert.equal(view.body.complaint.response.message, 'The connection on my side failed; sorry.');
    }
    const twice = await m.c.post(answerUrl, { message: 'Again.' });
    assert.equal(twice.status, 409, show(twice));
    assert.equal(twice.body.message, 'You have already answered this complaint.');
    // The seeker's notice is made by a fan-out job in the worker: waited for, not read once.
    const answeredNotices = async () =>
      (
        await one("SELECT count(*)::int AS n FROM notifications WHERE type = 'complaint_answered' AND user_id = $1", [
          s.id,
        ])
      ).n;
    await until('the seeker’s complaint_answered notice', async () => (await answeredNotices()) >= 1);
    assert.equal(await answeredNotices(), 1);
  });
});

/** The mentor's payouts go to PayPal from 1.00 on, so one reading's earnings make a payout. */
async function paidByPaypal(m) {
  const r = await m.c.post('/api/mentor/payout-preferences', {
    method: 'paypal',
    paypalEmail: `reader-${crypto.randomUUID().slice(0, 8)}@pay.example`,
    minimumPayout: '1.00',
  });
  assert.equal(r.status, 200, show(r));
}

/** A reading of 5.5 minutes at 2.00 (3 free, 3 paid: 6.00 charged) with a complaint filed: { reading, filed }. */
async function complainedReading(s, m, { afterBatch } = {}) {
  const reading = await startReading(s, m, 'chat');
  await moveBack(reading.id, 5 * 60 + 30);
  const ended = await s.c.post(`/api/instant-sessions/${reading.id}/end`);
  assert.equal(ended.body.amountCharged, '6.00', show(ended));
  if (afterBatch) await afterBatch(reading);
  const filed = await s.c.post(`/api/instant-sessions/${reading.id}/complaint`, {
    reason: 'not_as_described',
    details: 'Not what the profile said.',
  });
  assert.equal(filed.status, 201, show(filed));
  return { reading, filed: filed.body };
}

async function runBatchFor(admin, readingId) {
  assert.equal((await admin.c.post('/api/admin/payouts/run', {})).status, 202);
  await until(
    'the batch to take the reading',
    async () =>
      (await one('SELECT count(*)::int AS n FROM payout_readings WHERE instant_session_id = $1', [readingId])).n === 1,
    30_000,
  );
}

describe('a reading’s complaint and the payouts', () => {
  it('a refund of a reading already paid out comes off the next payout as the mentor’s share', async () => {
    const admin = await createAdmin(stack);
    const m = await onlineMentor('2.00');
    await paidByPaypal(m);
    const s = await seeker('50.00');
    const { reading, filed } = await complainedReading(s, m, {
      afterBatch: async (r) => {
        await runBatchFor(admin, r.id);
        const paid = await admin.c.post('/api/admin/payouts/mark-paid', {
          mentorId: m.mentor.id,
          bookingIds: [],
          readingIds: [r.id],
        });
        assert.equal(paid.status, 200, show(paid));
      },
    });
    // A paid payout keeps the reading.
    assert.equal(
      (await one('SELECT count(*)::int AS n FROM payout_readings WHERE instant_session_id = $1', [reading.id])).n,
      1,
    );
    const r = await admin.c.post(`/api/admin/reading-complaints/${filed.id}/resolve`, {
      outcome: 'partial_refund',
      amount: '4.00',
      note: 'Most of it was off topic.',
    });
    assert.equal(r.status, 200, show(r));
    const adjustments = await db.query(
      'SELECT amount_cents::int AS cents, reason, payout_id FROM payout_adjustments WHERE instant_session_id = $1',
      [reading.id],
    );
    // 85% of 4.00 (the platform keeps its 15% of what it gives back).
    assert.deepEqual(adjustments.rows, [{ cents: -340, reason: 'refund', payout_id: null }]);
    const earnings = await m.c.get('/api/mentor/earnings');
    const listed = earnings.body.adjustments.find((a) => a.instantSessionId === reading.id);
    assert.ok(listed, show(earnings));
    assert.equal(listed.amount, '-3.40');
    assert.equal(listed.bookingId, null);
  });

  it('a complaint takes the reading out of a pending payout; a full refund leaves nothing to pay', async () => {
    const admin = await createAdmin(stack);
    const m = await onlineMentor('2.00');
    await paidByPaypal(m);
    const s = await seeker('50.00');
    const { reading, filed } = await complainedReading(s, m, { afterBatch: (r) => runBatchFor(admin, r.id) });
    assert.equal(
      (await one('SELECT count(*)::int AS n FROM payout_readings WHERE instant_session_id = $1', [reading.id])).n,
      0,
      'the open complaint took the reading out of the pending payout',
    );
    const pending = (await admin.c.get('/api/admin/payouts/pending')).body.find((p) => p.mentorId === m.mentor.id);
    assert.ok(pending, 'the payout stays, emptied');
    assert.deepEqual(pending.readingIds, []);
    assert.equal(pending.mentorNet, '0.00');
    const r = await admin.c.post(`/api/admin/reading-complaints/${filed.id}/resolve`, {
      outcome: 'full_refund',
      note: 'The reading did not happen as described.',
    });
    assert.equal(r.status, 200, show(r));
    assert.equal(r.body.resolution.amount, '6.00');
    assert.equal(
      (await one('SELECT count(*)::int AS n FROM payout_adjustments WHERE instant_session_id = $1', [reading.id])).n,
      0,
    );
    const earnings = await m.c.get('/api/mentor/earnings');
    assert.equal(earnings.body.nextPayout.pendingAmount, '0.00', show(earnings));
  });
});

describe('a reading’s refund that cannot be made', () => {
  it('says why: nothing was charged, or the wallet cannot take it', async () => {
    const admin = await createAdmin(stack);
    const m = await onlineMentor('2.00');
    const s = await seeker('50.00');
    // Within the pair's free minutes: nothing charged.
    const free = await startReading(s, m, 'chat');
    await moveBack(free.id, 90);
    const ended = await s.c.post(`/api/instant-sessions/${free.id}/end`);
    assert.equal(ended.body.amountCharged, '0.00', show(ended));
    const filed = await s.c.post(`/api/instant-sessions/${free.id}/complaint`, {
      reason: 'technical_problem',
      details: 'No sound.',
    });
    assert.equal(filed.status, 201, show(filed));
    const url = `/api/admin/reading-complaints/${filed.body.id}/resolve`;
    const NOTHING =
      'This reading has nothing left to refund: its charges went back to the wallet already, or it charged nothing (free minutes).';
    for (const body of [
      { outcome: 'full_refund', note: 'All of it.' },
      { outcome: 'partial_refund', amount: '1.00', note: 'Some of it.' },
    ]) {
      const r = await admin.c.post(url, body);
      assert.equal(r.status, 409, show(r));
      assert.equal(r.body.message, NOTHING);
    }
    const none = await admin.c.post(url, { outcome: 'no_refund', note: 'It was free.' });
    assert.equal(none.status, 200, show(none));
    assert.equal(none.body.status, 'rejected');

    // A charged reading whose refund would take the balance past 1,000.00.
    const s2 = await seeker('50.00');
    const { filed: capped } = await complainedReading(s2, m);
    // An adjustment written in SQL takes the balance to 1.00 under the cap.
    await db.query(
      "INSERT INTO wallet_entries (user_id, kind, amount_cents, note) VALUES ($1, 'adjustment', $2, 'Test: near the cap')",
      [s2.id, 100_000 - (await balanceCents(s2.id)) - 100],
    );
    const over = await admin.c.post(`/api/admin/reading-complaints/${capped.id}/resolve`, {
      outcome: 'full_refund',
      note: 'All of it.',
    });
    assert.equal(over.status, 409, show(over));
    assert.equal(
      over.body.message,
      "The refund would take the seeker's balance past its $1000.00 cap: at most $1.00 can go back to the wallet now.",
    );
    const fits = await admin.c.post(`/api/admin/reading-complaints/${capped.id}/resolve`, {
      outcome: 'partial_refund',
      amount: '1.00',
      note: 'What fits.',
    });
    assert.equal(fits.status, 200, show(fits));
    assert.equal(await balanceCents(s2.id), 100_000);
    assert.equal(await entriesSum(s2.id), 100_000);
  });
});

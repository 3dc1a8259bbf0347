// When a session goes wrong (issue 31), against the real api and worker: complaints within their
// window, once per booking; a no-show settled at once after a real call attempt over the socket; the
// mentor's answer; the admins' queue and decisions; goodwill refunds once under concurrency; payouts
// that follow a refund of a paid-out booking (never below zero, carrying over); receipts numbered
// without gaps under concurrent payments, their PDF read back with a PDF reader, refused to strangers;
// a group session whose mentor never joined; mentors' replies to reviews. Times move in SQL.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { PDFParse } from 'pdf-parse';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { createAdmin } from '../harness/admin.mjs';
import { APPROVED_CARD, bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { groupService } from '../harness/group-sessions.mjs';
import { mailTo } from '../harness/mail.mjs';
import { connect } from '../harness/realtime.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const NOT_STARTED = 'You can report a problem once the session has started.';
const WINDOW_CLOSED = 'The 24-hour window for reporting a problem with this session has closed.';
const WAIT_15 = 'Please give the mentor 15 minutes.';

let stack;
let db;
let admin;

before(async () => {
  stack = await startStack();
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  admin = await createAdmin(stack);
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

const one = async (sql, params = []) => (await db.query(sql, params)).rows[0];

/** A new seeker with a paid booking of `setup` starting `hours` from now: { c, user, id, booking }. */
async function paidBooking(setup, hours = 30) {
  const user = await createVerifiedUser(stack);
  const c = await signIn(stack, user);
  const held = await reserve(c, setup, startIn(hours));
  const booking = await pay(c, held.reservation.id, user);
  return { c, user, id: booking.id, booking };
}

/** Moves a booking so that it started `minutesAgo` minutes ago (60 minutes long). */
async function startedAgo(bookingId, minutesAgo) {
  await db.query(
    `UPDATE bookings SET scheduled_at = now() - make_interval(mins => $2), ends_at = now() - make_interval(mins => $2) + interval '60 minutes',
            earliest_scheduled_at = now() - make_interval(mins => $2) WHERE id = $1`,
    [bookingId, minutesAgo],
  );
}

const complain = (c, id, body) => c.post(`/api/bookings/${id}/complaint`, body);
const bookingOf = async (c, id) => (await c.get('/api/user/dashboard')).body.bookings.find((b) => b.id === id);
const notified = async (c, type) => (await c.get('/api/notifications')).body.filter((n) => n.type === type);

describe('complaints', () => {
  let setup; // a mentor
  let open; // { c, user, id, complaint }

  it('open from the start until 24 hours after the end, once per booking, by the seeker only', async () => {
    setup = await bookableMentor(stack);
    const b = await paidBooking(setup, 30);
    const details = { reason: 'technical_problem', details: 'The video froze every minute.' };

    let r = await complain(b.c, b.id, details);
    assert.equal(r.status, 409, show(r));
    assert.equal(r.body.message, NOT_STARTED);

    r = await complain(b.c, b.id, { reason: 'bogus', details: 'x' });
    assert.equal(r.status, 400, show(r));
    r = await complain(b.c, b.id, { reason: 'technical_problem' });
    assert.equal(r.status, 400, show(r));
    assert.equal(r.body.message, 'Please describe what went wrong');
    r = await complain(b.c, b.id, { reason: 'other', details: 'a'.repeat(2001) });
    assert.equal(r.status, 400, show(r));

    const stranger = await signIn(stack, await createVerifiedUser(stack));
    await startedAgo(b.id, 120);
    r = await complain(stranger, b.id, details);
    assert.equal(r.status, 404, show(r));
    r = await complain(setup.c, b.id, details);
    assert.equal(r.status, 404, 'not even the mentor');

    r = await complain(b.c, b.id, details);
    assert.equal(r.status, 201, show(r));
    assert.equal(r.body.bookingId, b.id);
    assert.equal(r.body.reason, 'technical_problem');
    assert.equal(r.body.details, details.details);
    assert.equal(r.body.status, 'open');
    assert.equal(r.body.resolution, null);
    assert.ok(r.body.id && r.body.createdAt);
    open = { ...b, complaint: r.body };

    r = await complain(b.c, b.id, details);
    assert.equal(r.status, 409, show(r));

    const view = await bookingOf(b.c, b.id);
    assert.equal(view.complaint.id, open.complaint.id);
    assert.equal(view.complaint.status, 'open');
    assert.deepEqual(view.refunds, []);
    assert.equal(view.refundedAmount, '0.00');
    assert.equal(view.refund, null);

    // The mentor hears of it, and cannot complete the session while it is open.
    await until('complaint_opened', async () => (await notified(setup.c, 'complaint_opened')).length === 1);
    await stack.waitForMail((m) => mailTo(setup.user.email)(m) && m.subject.includes('reported a problem'));
    r = await setup.c.put(`/api/mentor/bookings/${b.id}`, { status: 'completed' });
    assert.equal(r.status, 409, show(r));

    // Past the window: 24 hours after the end.
    const late = await paidBooking(setup, 40);
    await startedAgo(late.id, 60 + 24 * 60 + 1);
    r = await complain(late.c, late.id, details);
    assert.equal(r.status, 409, show(r));
    assert.equal(r.body.message, WINDOW_CLOSED);

    // A cancelled booking and an unpaid hold cannot be reported.
    const cancelled = await paidBooking(setup, 50);
    r = await cancelled.c.put(`/api/user/bookings/${cancelled.id}/cancel`, { acknowledgePolicy: true });
    assert.equal(r.status, 200, show(r));
    await startedAgo(cancelled.id, 200);
    r = await complain(cancelled.c, cancelled.id, details);
    assert.equal(r.status, 409, show(r));
    const holder = await signIn(stack, await createVerifiedUser(stack));
    const hold = await reserve(holder, setup, startIn(60));
    await startedAgo(hold.reservation.id, 300);
    r = await complain(holder, hold.reservation.id, details);
    assert.equal(r.status, 409, show(r));
  });

  it('settles a no-show at once after the seeker called in vain over the socket', async () => {
    const m = await bookableMentor(stack);
    const b = await paidBooking(m, 30);
    await startedAgo(b.id, 5);
    let r = await complain(b.c, b.id, { reason: 'mentor_no_show' });
    assert.equal(r.status, 409, show(r));
    assert.equal(r.body.message, WAIT_15);

    // A real call attempt for the booking, which the mentor never answers.
    await startedAgo(b.id, 20);
    const conversation = await b.c.post('/api/conversations', { mentorId: m.mentor.id });
    assert.equal(conversation.status, 201, show(conversation));
    const s = await connect(stack, b.c);
    try {
      s.send('initiateCall', { conversationId: conversation.body.id, bookingId: b.id });
      const call = await s.next('callInitiated');
      assert.equal(call.bookingId, b.id);
      s.send('endCall', { callId: call.callId });
      await s.next('callEnded', (d) => d.callId === call.callId);
    } finally {
      s.ws.close();
    }

    r = await complain(b.c, b.id, { reason: 'mentor_no_show' });
    assert.equal(r.status, 201, show(r));
    assert.equal(r.body.status, 'resolved');
    assert.equal(r.body.resolution.outcome, 'full_refund');
    assert.equal(r.body.resolution.amount, '30.00');
    assert.equal(r.body.resolution.automatic, true);

    await until('the no-show refund to be paid back', async () => {
      const v = await bookingOf(b.c, b.id);
      return v.refunds.length === 1 && v.refunds[0].status === 'succeeded';
    });
    const v = await bookingOf(b.c, b.id);
    assert.equal(v.status, 'cancelled');
    assert.equal(v.refunds[0].reason, 'no_show');
    assert.equal(v.refunds[0].amount, '30.00');
    assert.equal(v.refundedAmount, '30.00');
    assert.equal(v.complaint.status, 'resolved');
    await until('refund_issued to both', async () => {
      return (await notified(b.c, 'refund_issued')).length === 1 && (await notified(m.c, 'refund_issued')).length === 1;
    });
    assert.equal((await notified(b.c, 'complaint_decided')).length, 1);
    const receipts = (await b.c.get('/api/receipts')).body;
    assert.deepEqual(receipts.map((x) => x.kind).sort(), ['payment', 'refund']);
    const refundMail = await stack.waitForMail(
      (x) => mailTo(b.user.email)(x) && x.subject.startsWith('Refund of $30.00'),
    );
    assert.ok(refundMail.attachments.some((a) => a.mimeType === 'application/pdf'));

    // The evidence and the count of no-shows settled against the mentor.
    const q = await admin.c.get('/api/admin/complaints?status=resolved');
    assert.equal(q.status, 200, show(q));
    const item = q.body.items.find((i) => i.bookingId === b.id);
    assert.equal(item.mentor.noShowCount, 1);
    assert.equal(item.calls.length, 1);
    assert.equal(item.calls[0].placedBy, 'seeker');
    assert.equal(item.amountRefunded, '30.00');

    // Without a call from the seeker, a no-show waits for an admin.
    const quiet = await paidBooking(m, 40);
    await startedAgo(quiet.id, 180);
    r = await complain(quiet.c, quiet.id, { reason: 'mentor_no_show' });
    assert.equal(r.status, 201, show(r));
    assert.equal(r.body.status, 'open');
  });

  it('the mentor answers once within 48 hours', async () => {
    const other = await bookableMentor(stack);
    let r = await other.c.post(`/api/mentor/complaints/${open.complaint.id}/response`, { message: 'Not mine' });
    assert.equal(r.status, 404, show(r));
    const mine = await setup.c.get('/api/mentor/complaints?status=open');
    assert.equal(mine.status, 200, show(mine));
    assert.ok(mine.body.items.some((i) => i.id === open.complaint.id));
    r = await setup.c.post(`/api/mentor/complaints/${open.complaint.id}/response`, { message: '' });
    assert.equal(r.status, 400, show(r));
    r = await setup.c.post(`/api/mentor/complaints/${open.complaint.id}/response`, {
      message: 'My connection dropped; I am sorry.',
    });
    assert.equal(r.status, 201, show(r));
    assert.equal(r.body.response.message, 'My connection dropped; I am sorry.');
    r = await setup.c.post(`/api/mentor/complaints/${open.complaint.id}/response`, { message: 'Again' });
    assert.equal(r.status, 409, show(r));
    await until('complaint_answered', async () => (await notified(open.c, 'complaint_answered')).length === 1);

    const late = await paidBooking(setup, 70);
    await startedAgo(late.id, 400);
    const c = await complain(late.c, late.id, { reason: 'not_as_described', details: 'It was a lecture.' });
    assert.equal(c.status, 201, show(c));
    await db.query("UPDATE complaints SET created_at = now() - interval '48 hours 1 minute' WHERE id = $1", [
      c.body.id,
    ]);
    r = await setup.c.post(`/api/mentor/complaints/${c.body.id}/response`, { message: 'Too late' });
    assert.equal(r.status, 409, show(r));
  });

  it('admins see the queue oldest open first and decide partial and no refunds, once', async () => {
    const seekerView = await open.c.get('/api/admin/complaints');
    assert.equal(seekerView.status, 403, show(seekerView));
    let r = await admin.c.get('/api/admin/complaints?status=bogus');
    assert.equal(r.status, 400, show(r));
    r = await admin.c.get('/api/admin/complaints?status=open');
    assert.equal(r.status, 200, show(r));
    assert.equal(r.body.total, r.body.items.length);
    assert.ok(r.body.items.every((i) => i.status === 'open'));
    const created = r.body.items.map((i) => i.createdAt);
    assert.deepEqual(created, [...created].sort(), 'oldest open first');
    const item = r.body.items.find((i) => i.id === open.complaint.id);
    assert.equal(item.amountPaid, '30.00');
    assert.equal(item.amountRefunded, '0.00');
    assert.equal(item.response.message, 'My connection dropped; I am sorry.');
    assert.equal(item.seeker.email, open.user.email);
    assert.equal(item.mentor.id, setup.mentor.id);
    assert.ok(Array.isArray(item.calls));

    const resolve = (body) => admin.c.post(`/api/admin/complaints/${open.complaint.id}/resolve`, body);
    r = await resolve({ outcome: 'partial_refund', amount: '30.00', note: 'Half the session was lost' });
    assert.equal(r.status, 409, 'a partial refund is less than what is left');
    r = await resolve({ outcome: 'partial_refund', amount: '0', note: 'x' });
    assert.equal(r.status, 400, show(r));
    r = await resolve({ outcome: 'partial_refund', amount: '10.00' });
    assert.equal(r.status, 400, 'a note is required');
    r = await resolve({ outcome: 'maybe', note: 'x' });
    assert.equal(r.status, 400, show(r));
    r = await resolve({ outcome: 'partial_refund', amount: '10.00', note: 'Half the session was lost' });
    assert.equal(r.status, 200, show(r));
    assert.equal(r.body.status, 'resolved');
    assert.deepEqual(
      { ...r.body.resolution, decidedAt: undefined },
      {
        outcome: 'partial_refund',
        amount: '10.00',
        note: 'Half the session was lost',
        decidedAt: undefined,
        automatic: false,
      },
    );
    r = await resolve({ outcome: 'no_refund', note: 'Again' });
    assert.equal(r.status, 409, show(r));

    const v = await bookingOf(open.c, open.id);
    assert.equal(v.status, 'completed', 'released: the session had ended');
    assert.equal(v.refunds.length, 1);
    assert.equal(v.refunds[0].reason, 'complaint');
    assert.equal(v.refundedAmount, '10.00');
    await until('complaint_decided to both', async () => {
      return (
        (await notified(open.c, 'complaint_decided')).length === 1 &&
        (await notified(setup.c, 'complaint_decided')).length === 1
      );
    });
    await stack.waitForMail(
      (m) => mailTo(open.user.email)(m) && m.subject.includes('Complaint decided') && m.text.includes('$10.00'),
    );
    await stack.waitForMail((m) => mailTo(setup.user.email)(m) && m.subject.includes('Complaint decided'));
    const audit = await one(
      "SELECT count(*)::int AS n FROM admin_audit WHERE action = 'complaint.decide' AND object_id = $1",
      [open.complaint.id],
    );
    assert.equal(audit.n, 1);

    // No refund rejects.
    const list = (await admin.c.get('/api/admin/complaints?status=open')).body.items;
    const another = list.find((i) => i.reason === 'not_as_described');
    r = await admin.c.post(`/api/admin/complaints/${another.id}/resolve`, {
      outcome: 'no_refund',
      note: 'As described',
    });
    assert.equal(r.status, 200, show(r));
    assert.equal(r.body.status, 'rejected');
    assert.equal(r.body.resolution.amount, '0.00');
  });

  it('eight concurrent goodwill refunds of what is left refund once', async () => {
    let r = await admin.c.post(`/api/admin/bookings/${open.id}/refund`, { amount: '20.01', reason: 'Goodwill' });
    assert.equal(r.status, 409, show(r));
    r = await admin.c.post(`/api/admin/bookings/${open.id}/refund`, { amount: '5.00' });
    assert.equal(r.status, 400, 'a reason is required');
    r = await open.c.post(`/api/admin/bookings/${open.id}/refund`, { amount: '5.00', reason: 'Me' });
    assert.equal(r.status, 403, show(r));
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        admin.c.post(`/api/admin/bookings/${open.id}/refund`, { amount: '20.00', reason: 'Sorry for the trouble' }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409, 409, 409], answers.map(show).join('\n'));
    const v = await bookingOf(open.c, open.id);
    assert.equal(v.refundedAmount, '30.00');
    assert.deepEqual(
      v.refunds.map((x) => [x.reason, x.amount]),
      [
        ['complaint', '10.00'],
        ['goodwill', '20.00'],
      ],
    );
    const audit = await one(
      "SELECT count(*)::int AS n FROM admin_audit WHERE action = 'booking.refund' AND object_id = $1",
      [open.id],
    );
    assert.equal(audit.n, 1);
    await until('both refunds paid back', async () => {
      const { n } = await one("SELECT count(*)::int AS n FROM refunds WHERE booking_id = $1 AND status = 'succeeded'", [
        open.id,
      ]);
      return n === 2;
    });
  });
});

describe('payouts follow refunds', () => {
  it('a refund of a paid-out booking comes off the next payout, never below zero, the rest carried', async () => {
    const m = await bookableMentor(stack);
    let r = await m.c.post('/api/mentor/payout-preferences', {
      method: 'paypal',
      paypalEmail: 'orla@example.com',
      minimumPayout: '0',
    });
    assert.equal(r.status, 200, show(r));
    const completed = async (b, minutesAgo) => {
      await startedAgo(b.id, minutesAgo);
      const done = await m.c.put(`/api/mentor/bookings/${b.id}`, { status: 'completed' });
      assert.equal(done.status, 200, show(done));
    };
    const batch = async (count) => {
      const run = await admin.c.post('/api/admin/payouts/run');
      assert.equal(run.status, 202, show(run));
      let mine;
      await until(
        'the batch to pay the mentor',
        async () => {
          const pending = (await admin.c.get('/api/admin/payouts/pending')).body;
          mine = pending.filter((p) => p.mentorId === m.mentor.id);
          return mine.length === count;
        },
        60_000,
      );
      return mine;
    };

    const b1 = await paidBooking(m, 30);
    await completed(b1, 300);
    const [first] = await batch(1);
    r = await admin.c.post('/api/admin/payouts/mark-paid', { mentorId: m.mentor.id, bookingIds: first.bookingIds });
    assert.equal(r.status, 200, show(r));

    // Refunded in full after it was paid out: the mentor's share, 85% of 30.00, comes off.
    r = await admin.c.post(`/api/admin/bookings/${b1.id}/refund`, { amount: '30.00', reason: 'Never happened' });
    assert.equal(r.status, 201, show(r));
    let e = (await m.c.get('/api/mentor/earnings')).body;
    assert.equal(e.adjustments.length, 1);
    assert.equal(e.adjustments[0].amount, '-25.50');
    assert.equal(e.adjustments[0].bookingId, b1.id);
    assert.equal(e.waitingAdjustments, '-25.50');

    // The next payout earns 8.50 on a 10.00 session: it goes to zero and 17.00 carries over.
    const small = await m.c.post('/api/services', {
      title: 'Short reading',
      description: 'Ten dollars of reading for the payout tests.',
      serviceType: 'astrology',
      price: '10.00',
      duration: 60,
    });
    assert.equal(small.status, 201, show(small));
    const b2 = await paidBooking({ ...m, service: small.body }, 40);
    await completed(b2, 200);
    const second = (await batch(1))[0];
    assert.equal(second.pendingAmount, '10.00');
    assert.equal(second.platformFee, '1.50');
    assert.equal(second.adjustmentTotal, '-8.50');
    assert.equal(second.mentorNet, '0.00');
    assert.deepEqual(second.adjustments.map((a) => [a.reason, a.amount]).sort(), [
      ['carry_over', '17.00'],
      ['refund', '-25.50'],
    ]);
    e = (await m.c.get('/api/mentor/earnings')).body;
    assert.equal(e.waitingAdjustments, '-17.00');
    const csv = await admin.c.get('/api/admin/payouts/export?status=pending');
    assert.equal(csv.status, 200);
    const lines = csv.text.trim().split('\n');
    assert.equal(lines[0], 'mentor,method,recipient,amount,adjustments');
    assert.ok(lines.includes('Orla Ops,paypal,orla@example.com,0.00,-8.50'), csv.text);

    // A refund of a booking in a pending payout recomputes that payout instead.
    r = await admin.c.post(`/api/admin/bookings/${b2.id}/refund`, { amount: '2.00', reason: 'Started late' });
    assert.equal(r.status, 201, show(r));
    const [recomputed] = (await admin.c.get('/api/admin/payouts/pending')).body.filter(
      (p) => p.mentorId === m.mentor.id,
    );
    assert.equal(recomputed.pendingAmount, '8.00');
    assert.equal(recomputed.platformFee, '1.20');
    assert.equal(recomputed.mentorNet, '0.00');
    e = (await m.c.get('/api/mentor/earnings')).body;
    assert.equal(e.waitingAdjustments, '-18.70');
    const { sum } = await one('SELECT sum(amount_cents)::int AS sum FROM payout_adjustments WHERE mentor_id = $1', [
      m.mentor.id,
    ]);
    assert.equal(sum, -2550, 'the rows add up to what the refunds took back');
  });
});

describe('receipts', () => {
  it('numbers every payment without gaps under concurrent payments; the PDF reads back; strangers get 404', async () => {
    const m = await bookableMentor(stack);
    const seekers = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const user = await createVerifiedUser(stack);
        const c = await signIn(stack, user);
        const held = await reserve(c, m, startIn(80 + i));
        return { user, c, id: held.reservation.id };
      }),
    );
    const paid = await Promise.all(
      seekers.map((s) =>
        s.c.post('/api/process-payment-v2', {
          reservationId: s.id,
          cardNumber: APPROVED_CARD,
          expirationDate: '1230',
          cardCode: '123',
          billingInfo: { firstName: s.user.firstName, lastName: s.user.lastName, zip: '10001' },
        }),
      ),
    );
    for (const p of paid) assert.equal(p.status, 200, show(p));
    const { rows } = await db.query('SELECT year, seq, number, kind FROM receipts ORDER BY year, seq');
    const years = new Set(rows.map((x) => x.year));
    for (const year of years) {
      const seqs = rows.filter((x) => x.year === year).map((x) => x.seq);
      assert.deepEqual(
        seqs,
        seqs.map((_, i) => i + 1),
        `year ${year}: 1, 2, 3... without gaps`,
      );
    }
    for (const x of rows) assert.match(x.number, /^MM-\d{4}-\d{6}$/);
    const { n } = await one(
      "SELECT count(*)::int AS n FROM payments p WHERE p.status = 'approved' AND NOT EXISTS (SELECT 1 FROM receipts r WHERE r.payment_id = p.id AND r.kind = 'payment')",
    );
    assert.equal(n, 0, 'every approved payment has its receipt');

    const s = seekers[0];
    const list = await s.c.get('/api/receipts');
    assert.equal(list.status, 200, show(list));
    assert.equal(list.body.length, 1);
    const receipt = list.body[0];
    assert.equal(receipt.kind, 'payment');
    assert.equal(receipt.amount, '30.00');
    assert.equal(receipt.cardLast4, '1111');

    const pdf = await fetch(`${stack.baseUrl}/api/receipts/${receipt.number}/pdf`, {
      headers: { cookie: `sid=${s.c.cookies.sid}` },
    });
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    const parser = new PDFParse({ data: bytes });
    const text = (await parser.getText()).text;
    await parser.destroy();
    for (const wanted of [
      'Mystic Mentors',
      receipt.number,
      '$30.00',
      '1111',
      `${s.user.firstName} ${s.user.lastName}`,
    ]) {
      assert.ok(text.includes(wanted), `${wanted} in the PDF's text:\n${text}`);
    }

    const stranger = await signIn(stack, await createVerifiedUser(stack));
    let r = await stranger.get(`/api/receipts/${receipt.number}/pdf`);
    assert.equal(r.status, 404);
    r = await m.c.get(`/api/receipts/${receipt.number}/pdf`);
    assert.equal(r.status, 404, 'not even the mentor');
    r = await client(stack.baseUrl).get(`/api/receipts/${receipt.number}/pdf`);
    assert.equal(r.status, 401);
    r = await admin.c.get(`/api/receipts/${receipt.number}/pdf`);
    assert.equal(r.status, 200);
    r = await s.c.get('/api/receipts/MM-1999-000001/pdf');
    assert.equal(r.status, 404);

    // The confirmation carries it.
    const mail = await stack.waitForMail((x) => mailTo(s.user.email)(x) && x.subject.startsWith('Booking confirmed'));
    assert.ok(mail.attachments.some((a) => a.filename === `receipt-${receipt.number}.pdf`));
  });
});

describe('group sessions whose mentor never joined', () => {
  it('end cancelled with every paid seat refunded in full, the mentor told', async () => {
    const m = await bookableMentor(stack);
    const service = await groupService(m, { price: '20.00' });
    const start = new Date(Date.now() + 3 * 86_400_000);
    start.setUTCMinutes(0, 0, 0);
    const g = await m.c.post('/api/group-sessions', {
      serviceId: service.id,
      title: 'New moon circle',
      description: 'Together',
      scheduledAt: start.toISOString(),
      maxParticipants: 4,
    });
    assert.equal(g.status, 201, show(g));
    const seats = [];
    for (let i = 0; i < 2; i += 1) {
      const user = await createVerifiedUser(stack);
      const c = await signIn(stack, user);
      const r = await c.post('/api/reservations', { groupSessionId: g.body.id, totalAmount: 20 });
      assert.equal(r.status, 201, show(r));
      await pay(c, r.body.reservation.id, user);
      seats.push({ c, id: r.body.reservation.id });
    }
    // The session ran (it is over now) and its mentor never joined the call.
    await db.query(
      "UPDATE group_sessions SET scheduled_at = now() - interval '70 minutes', ends_at = now() - interval '10 minutes', status = 'active' WHERE id = $1",
      [g.body.id],
    );
    await db.query(
      "UPDATE bookings SET scheduled_at = now() - interval '70 minutes', ends_at = now() - interval '10 minutes' WHERE group_session_id = $1",
      [g.body.id],
    );
    await until(
      'the state job to end the session',
      async () => (await one('SELECT status FROM group_sessions WHERE id = $1', [g.body.id])).status === 'cancelled',
      40_000,
    );
    for (const s of seats) {
      await until('the seat refunded', async () => {
        const v = await bookingOf(s.c, s.id);
        return v.status === 'cancelled' && v.refunds.length === 1 && v.refunds[0].status === 'succeeded';
      });
      const v = await bookingOf(s.c, s.id);
      assert.deepEqual([v.refunds[0].reason, v.refunds[0].amount], ['no_show', '20.00']);
    }
    const told = (await m.c.get('/api/notifications')).body.filter(
      (n) => n.title === 'Group session ended without you',
    );
    assert.equal(told.length, 1);
  });
});

describe('mentors answer reviews', () => {
  it('once per review, only their own; the reply shows under the review and the reviewer hears', async () => {
    const m = await bookableMentor(stack);
    const b = await paidBooking(m, 30);
    await startedAgo(b.id, 120);
    let r = await m.c.put(`/api/mentor/bookings/${b.id}`, { status: 'completed' });
    assert.equal(r.status, 200, show(r));
    r = await b.c.post(`/api/bookings/${b.id}/review`, { rating: 4, comment: 'Insightful' });
    assert.equal(r.status, 201, show(r));
    const reviewId = r.body.id;
    const other = await bookableMentor(stack);
    r = await other.c.post(`/api/mentor/reviews/${reviewId}/reply`, { message: 'Thanks' });
    assert.equal(r.status, 404, show(r));
    r = await m.c.post(`/api/mentor/reviews/${reviewId}/reply`, { message: 'a'.repeat(1001) });
    assert.equal(r.status, 400, show(r));
    r = await m.c.post(`/api/mentor/reviews/${reviewId}/reply`, { message: 'Thank you for coming!' });
    assert.equal(r.status, 201, show(r));
    r = await m.c.post(`/api/mentor/reviews/${reviewId}/reply`, { message: 'Again' });
    assert.equal(r.status, 409, show(r));
    const reviews = (await b.c.get(`/api/mentors/${m.mentor.id}/reviews`)).body;
    assert.equal(reviews[0].reply.message, 'Thank you for coming!');
    await until('review_reply', async () => (await notified(b.c, 'review_reply')).length === 1);
  });
});

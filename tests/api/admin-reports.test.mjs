// The admin's reports over HTTP against the real api and worker: each report comes with what was
// reported (a review's text and rating, a message with the last lines of its conversation, a
// profile), who wrote it and about whom, a link to it, who reported it, the earlier reports on the
// same thing and outcomes in words ('Review hidden'), not enum names.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { createAdmin } from '../harness/admin.mjs';
import { bookableMentor } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';

/** A reported message comes with this many lines of its conversation (report_context::CONVERSATION_LINES). */
const CONVERSATION_LINES = 5;

let stack;
let db;
let admin;
let mentor;
let ann;
let annId;
let mentorUserId;

const userId = async (u) => (await db.query('SELECT id FROM users WHERE email = $1', [u.email])).rows[0].id;

before(async () => {
  stack = await startStack();
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  let annUser;
  [admin, mentor, annUser] = await Promise.all([
    createAdmin(stack),
    bookableMentor(stack),
    createVerifiedUser(stack, { firstName: 'Ann', lastName: 'Lee' }),
  ]);
  ann = await signIn(stack, annUser);
  annId = await userId(annUser);
  mentorUserId = mentor.mentor.userId ?? (await userId(mentor.user));
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

async function openReports() {
  const r = await admin.c.get('/api/admin/reports?status=open');
  assert.equal(r.status, 200, show(r));
  return r.body;
}

async function report(c, body) {
  const r = await c.post('/api/reports', body);
  assert.equal(r.status, 201, show(r));
  return r.body;
}

describe('admin reports', () => {
  it('a reported message comes with its author, its addressee and the last lines of its conversation', async () => {
    const conv = await ann.post('/api/conversations', { mentorId: mentor.mentor.id });
    assert.ok([200, 201].includes(conv.status), show(conv));
    const lines = ['Hello', 'Welcome, Ann', 'Can we talk?', 'Of course', 'You are a fraud', 'Please stop', 'Never'];
    const sent = [];
    for (const [i, content] of lines.entries()) {
      const from = i % 2 === 0 ? ann : mentor.c;
      const m = await from.post(`/api/conversations/${conv.body.id}/messages`, { content });
      assert.equal(m.status, 201, show(m));
      sent.push(m.body);
    }
    const abusive = sent[4];
    const filed = await report(mentor.c, { targetType: 'message', targetId: abusive.id, reason: 'harassment' });

    const r = (await openReports()).find((x) => x.id === filed.id);
    assert.ok(r, 'the report is listed');
    assert.equal(r.outcome, 'Open');
    assert.equal(r.reporter.id, mentorUserId);
    assert.equal(r.target.summary, `Message from Ann Lee to ${r.target.about.name}`);
    assert.equal(r.target.text, 'You are a fraud');
    assert.equal(r.target.author.id, annId);
    assert.equal(r.target.author.name, 'Ann Lee');
    assert.equal(r.target.about.id, mentorUserId);
    assert.equal(r.target.hidden, false);
    // The lines up to the reported one, oldest first, the reported one marked; nothing after it.
    assert.deepEqual(
      r.target.conversation.map((l) => [l.content, l.reported]),
      lines.slice(5 - CONVERSATION_LINES, 5).map((content, i, all) => [content, i === all.length - 1]),
    );
    assert.equal(r.target.conversation[0].senderName, 'Ann Lee');
    assert.deepEqual(r.earlierReports, []);

    // Hidden: the outcome in words, and the message shows as hidden.
    const done = await admin.c.post(`/api/admin/reports/${filed.id}/resolve`, { action: 'hide_message' });
    assert.equal(done.status, 200, show(done));
    assert.equal(done.body.outcome, 'Message hidden');
    assert.equal(done.body.target.hidden, true);
  });

  it('a reported review comes with its text, rating, author, mentor, link and the earlier reports', async () => {
    const { rows } = await db.query(
      `INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents, completed_at)
       VALUES ($1, $2, $3, 'completed', now() - interval '3 days', now() - interval '3 days' + interval '1 hour', 3000, now())
       RETURNING id`,
      [annId, mentor.mentor.id, mentor.service.id],
    );
    const {
      rows: [review],
    } = await db.query(
      'INSERT INTO reviews (mentor_id, user_id, booking_id, rating, comment) VALUES ($1, $2, $3, 1, $4) RETURNING id',
      [mentor.mentor.id, annId, rows[0].id, 'Utter rubbish, you fraud!!!'],
    );
    // Someone reported it before; the admin dismissed that one.
    const first = await signIn(stack, await createVerifiedUser(stack, { firstName: 'Bea', lastName: 'Bystander' }));
    const earlier = await report(first, {
      targetType: 'review',
      targetId: review.id,
      reason: 'other',
      details: 'Looks odd',
    });
    const dismissed = await admin.c.post(`/api/admin/reports/${earlier.id}/dismiss`, {});
    assert.equal(dismissed.status, 200, show(dismissed));
    assert.equal(dismissed.body.outcome, 'Dismissed');
    const filed = await report(mentor.c, {
      targetType: 'review',
      targetId: review.id,
      reason: 'inappropriate_content',
    });

    const r = (await openReports()).find((x) => x.id === filed.id);
    assert.ok(r, 'the report is listed');
    assert.equal(r.target.text, 'Utter rubbish, you fraud!!!');
    assert.equal(r.target.rating, 1);
    assert.equal(r.target.author.id, annId);
    assert.equal(r.target.about.id, mentorUserId);
    assert.equal(r.target.link, `/mentor/${mentor.mentor.id}`);
    assert.equal(r.target.summary, `Review of ${mentor.mentor.displayName} by Ann Lee`);
    assert.deepEqual(
      r.earlierReports.map((e) => [e.id, e.reason, e.status, e.outcome]),
      [[earlier.id, 'other', 'dismissed', 'Dismissed']],
    );

    const done = await admin.c.post(`/api/admin/reports/${filed.id}/resolve`, { action: 'hide_review' });
    assert.equal(done.status, 200, show(done));
    assert.equal(done.body.outcome, 'Review hidden');
    assert.equal(done.body.target.hidden, true);
  });

  it('a reported profile links to it; the reporter is named; a seeker’s own report carries no context', async () => {
    const filed = await report(mentor.c, { targetType: 'user', targetId: annId, reason: 'scam_or_fraud' });
    // What the reporter gets back is the report alone.
    assert.equal(filed.outcome, 'Open');
    assert.equal(filed.target, undefined);
    assert.equal(filed.reporter, undefined);

    const r = (await openReports()).find((x) => x.id === filed.id);
    assert.equal(r.target.summary, 'Member profile of Ann Lee');
    assert.equal(r.target.link, `/profile/${annId}`);
    assert.equal(r.target.author.id, annId);
    assert.equal(r.target.author.isActive, true);
    assert.equal(r.reporter.id, mentorUserId);
    assert.ok(r.reporter.email.includes('@'));

    const done = await admin.c.post(`/api/admin/reports/${filed.id}/resolve`, { action: 'deactivate_user' });
    assert.equal(done.status, 200, show(done));
    assert.equal(done.body.outcome, 'User deactivated');
    assert.equal(done.body.target.author.isActive, false);
  });
});

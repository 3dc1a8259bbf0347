// Mail that an e-mail preference governs: announcements arrive by e-mail for users whose
// "Marketing emails" preference is on (and only for them), every governed mail carries a one-click
// List-Unsubscribe address (RFC 8058) that turns that one preference off without signing in, and
// every kind of mail the product sends parses with a standard MIME parser (mailparser), its
// calendar part with a standard iCalendar parser (ical.js).
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import ICAL from 'ical.js';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { createAdmin } from '../harness/admin.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

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

const ONE_CLICK = 'List-Unsubscribe=One-Click';

/** The one-click address of a mail (postal-mime headers of the harness), or undefined. */
function unsubscribeUrl(mail) {
  const value = mail.headers.find((h) => h.key === 'list-unsubscribe')?.value;
  return value && /^<([^>]+)>$/.exec(value.trim())?.[1];
}
const header = (mail, key) => mail.headers.find((h) => h.key === key)?.value;

/** POSTs like a mail client's one-click: a form body, no cookie, no Origin. */
const oneClick = (url) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: ONE_CLICK,
  });

const preferences = async (c) => (await c.get('/api/user/email-preferences')).body;

let announcementCount = 0;
async function announce(admin, audience = 'all') {
  announcementCount += 1;
  const title = `News ${announcementCount} ${Date.now().toString(36)}`;
  const res = await admin.c.post('/api/admin/announcements', {
    audience,
    title,
    message: 'The full moon workshop series starts next week.',
  });
  assert.equal(res.status, 202, show(res));
  return { title, id: res.body.id };
}

/** The e-mail tasks queued for `userId` by the announcement `announcementId`. */
async function announcementMailTasks(announcementId, userId) {
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM apalis.jobs WHERE job_type = 'emails'
       AND convert_from(job, 'UTF8')::jsonb->>'kind' = 'announcement'
       AND convert_from(job, 'UTF8')::jsonb->>'announcement_id' = $1
       AND convert_from(job, 'UTF8')::jsonb->>'user_id' = $2`,
    [announcementId, userId],
  );
  return rows[0].n;
}

describe('announcements by e-mail', () => {
  it('e-mails users whose marketing preference is on, once each, and nobody with it off', async () => {
    const admin = await createAdmin(stack);
    const keen = await createVerifiedUser(stack, { firstName: 'Keen', marketingEmails: true });
    const quiet = await createVerifiedUser(stack, { firstName: 'Quiet' });
    const keenClient = await signIn(stack, keen);
    const quietClient = await signIn(stack, quiet);
    const off = await quietClient.put('/api/user/email-preferences', { marketingEmails: false });
    assert.equal(off.status, 200, show(off));
    const ids = {
      keen: (await keenClient.get('/api/auth/user')).body.id,
      quiet: (await quietClient.get('/api/auth/user')).body.id,
    };

    const { title, id } = await announce(admin);
    const mail = await stack.waitForMail((m) => m.to.includes(keen.email) && m.subject === title);
    assert.match(mail.text, /full moon workshop/);
    assert.ok(unsubscribeUrl(mail), 'an announcement carries List-Unsubscribe');
    // Delivery is done once every notification is written; the mails were queued with them.
    await until('the announcement to be delivered', async () => {
      const list = (await admin.c.get('/api/admin/announcements')).body;
      return list.find((a) => a.id === id)?.completedAt;
    });
    assert.equal(await announcementMailTasks(id, ids.keen), 1, 'one e-mail task for the user who wants them');
    assert.equal(await announcementMailTasks(id, ids.quiet), 0, 'no e-mail task for the user who does not');
    assert.ok(!(await stack.mails()).some((m) => m.to.includes(quiet.email) && m.subject === title));
    // The notification still reaches both.
    for (const c of [keenClient, quietClient]) {
      const list = (await c.get('/api/notifications?limit=100')).body;
      assert.ok(
        list.some((n) => n.type === 'system_announcement' && n.title === title),
        show({ status: 200, body: list }),
      );
    }
  });
});

/** A token signed with the server's key (read from the database), as `unsubscribe::sign_until`
 * makes them; without `expires`, as mail sent before tokens had an expiry carries. */
async function signed(userId, preference, expires) {
  const { rows } = await db.query("SELECT secret FROM signing_keys WHERE name = 'unsubscribe'");
  const mac = createHmac('sha256', rows[0].secret);
  mac.update('unsubscribe:');
  mac.update(Buffer.from(userId.replace(/-/g, ''), 'hex'));
  mac.update(':');
  mac.update(preference);
  if (expires !== undefined) mac.update(`:expires:${expires}`);
  const signature = mac.digest('base64url');
  return expires === undefined
    ? `${userId}.${preference}.${signature}`
    : `${userId}.${preference}.${expires}.${signature}`;
}

describe('one-click unsubscribe', () => {
  it('GET shows a page and changes nothing; POST turns the one preference off without a session', async () => {
    const admin = await createAdmin(stack);
    const user = await createVerifiedUser(stack, { firstName: 'Una', marketingEmails: true });
    const c = await signIn(stack, user);
    const { title } = await announce(admin);
    const mail = await stack.waitForMail((m) => m.to.includes(user.email) && m.subject === title);
    const url = unsubscribeUrl(mail);
    assert.ok(url?.startsWith(`${stack.baseUrl}/api/email/unsubscribe?token=`), url);
    assert.equal(header(mail, 'list-unsubscribe-post'), ONE_CLICK);

    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type'), /text\/html/);
    const html = await page.text();
    assert.match(html, /Marketing emails/);
    assert.match(html, /<form method="post">/);
    assert.match(html, /<button type="submit">Unsubscribe<\/button>/);
    // Styled like the site, with a policy that allows that style and still no script.
    assert.match(html, /<style>[^<]*font-family:Inter/);
    assert.match(html, /<a href="\/">Mystic Mentors<\/a>/);
    const csp = page.headers.get('content-security-policy');
    assert.match(csp, /style-src 'unsafe-inline'/);
    assert.match(csp, /form-action 'self'/);
    assert.doesNotMatch(csp, /script-src/);
    assert.equal((await preferences(c)).marketingEmails, true, 'a GET changes nothing');

    const done = await oneClick(url);
    assert.equal(done.status, 200, await done.clone().text());
    const doneHtml = await done.text();
    assert.match(doneHtml, /You are unsubscribed/);
    // Back to the e-mail preferences themselves, not the dashboard's first tab.
    assert.ok(doneHtml.includes(`href="${stack.baseUrl}/dashboard?tab=email-preferences"`), doneHtml);
    assert.deepEqual(await preferences(c), {
      bookingConfirmations: true,
      bookingReminders: true,
      marketingEmails: false,
      reviewRequests: true,
    });
    // Again: still off, still fine (mail clients may retry).
    assert.equal((await oneClick(url)).status, 200);
    assert.equal((await preferences(c)).marketingEmails, false);
  });

  it('refuses an altered or foreign token with 404 and changes nothing', async () => {
    const admin = await createAdmin(stack);
    const user = await createVerifiedUser(stack, { firstName: 'Tam', marketingEmails: true });
    const c = await signIn(stack, user);
    const { title } = await announce(admin);
    const mail = await stack.waitForMail((m) => m.to.includes(user.email) && m.subject === title);
    const url = new URL(unsubscribeUrl(mail));
    const token = url.searchParams.get('token');
    const [userId, preference, expires, signature] = token.split('.');
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    const bad = [
      '',
      'nonsense',
      `${userId}.${preference}.${expires}.${flipped}`,
      // The same signature cannot turn off another preference, name another user or live longer.
      `${userId}.booking_reminders.${expires}.${signature}`,
      `${'0'.repeat(32)}.${preference}.${expires}.${signature}`,
      `${userId}.${preference}.${Number(expires) + 1}.${signature}`,
      `${userId}.${preference}.${signature}`,
      // Signed with the server's key, but expired.
      await signed(userId, preference, Math.floor(Date.now() / 1000) - 60),
    ];
    for (const t of bad) {
      const target = `${url.origin}${url.pathname}?token=${encodeURIComponent(t)}`;
      const post = await oneClick(target);
      assert.equal(post.status, 404, `POST ${t}`);
      assert.match(await post.text(), /This unsubscribe link is not valid/);
      assert.equal((await fetch(target)).status, 404, `GET ${t}`);
    }
    assert.deepEqual(Object.values(await preferences(c)), [true, true, true, true]);
  });

  it('new links expire a year ahead; links of mail sent before expiries keep working, one click', async () => {
    const admin = await createAdmin(stack);
    const user = await createVerifiedUser(stack, { firstName: 'Old', marketingEmails: true });
    const c = await signIn(stack, user);
    const { title } = await announce(admin);
    const mail = await stack.waitForMail((m) => m.to.includes(user.email) && m.subject === title);
    const url = new URL(unsubscribeUrl(mail));
    const [userId, , expires] = url.searchParams.get('token').split('.');
    const yearAhead = Date.now() / 1000 + 365 * 24 * 3600;
    assert.ok(Math.abs(Number(expires) - yearAhead) < 600, `expires ${expires}`);
    const old = `${url.origin}${url.pathname}?token=${encodeURIComponent(await signed(userId, 'review_requests'))}`;
    assert.equal((await fetch(old)).status, 200, 'the page of an old link');
    const done = await oneClick(old);
    assert.equal(done.status, 200, await done.clone().text());
    assert.equal((await preferences(c)).reviewRequests, false);
  });
});

describe('every kind of mail', () => {
  it('parses with mailparser and ical.js; governed mails carry List-Unsubscribe, account mails do not', async () => {
    // Account mails (verification comes with every user made here).
    const seekerUser = await createVerifiedUser(stack, { firstName: 'Sage', marketingEmails: true });
    const seeker = await signIn(stack, seekerUser);
    const anon = client(stack.baseUrl);
    assert.equal((await anon.post('/api/forgot-password', { email: seekerUser.email })).status, 200);
    await stack.waitForMail((m) => m.to.includes(seekerUser.email) && m.subject === 'Reset your password');
    const again = await anon.post('/api/register', { ...seekerUser });
    assert.equal(again.status, 201, show(again));
    const contact = await anon.post('/api/contact', {
      name: 'Cora Contact',
      email: 'cora@example.com',
      subject: 'Hello',
      category: 'general',
      message: 'A question about group sessions that is long enough.',
    });
    assert.equal(contact.status, 201, show(contact));

    // Booking mails: confirmation and new booking, reschedule, reminder, cancellation.
    const mentor = await bookableMentor(stack);
    const held = await reserve(seeker, mentor, startIn(40));
    const booking = await pay(seeker, held.reservation.id, seekerUser);
    await stack.waitForMail((m) => m.to.includes(seekerUser.email) && m.subject.startsWith('Booking confirmed'));
    const moved = await seeker.put(`/api/user/bookings/${booking.id}/reschedule`, { scheduledAt: startIn(50) });
    assert.equal(moved.status, 200, show(moved));
    await db.query(
      `UPDATE apalis.jobs SET run_at = now() WHERE job_type = 'booking_reminders' AND status = 'Pending'
         AND convert_from(job, 'UTF8')::jsonb->>'booking_id' = $1`,
      [booking.id],
    );
    await stack.waitForMail((m) => m.to.includes(seekerUser.email) && m.subject.startsWith('Reminder:'));
    const cancel = await seeker.put(`/api/user/bookings/${booking.id}/cancel`, { acknowledgePolicy: true });
    assert.equal(cancel.status, 200, show(cancel));

    // A completed session's review request.
    const second = await pay(seeker, (await reserve(seeker, mentor, startIn(60))).reservation.id, seekerUser);
    await db.query(
      "UPDATE bookings SET scheduled_at = now() - interval '26 hours', ends_at = now() - interval '25 hours' WHERE id = $1",
      [second.id],
    );
    await db.query(
      `UPDATE apalis.jobs SET run_at = now() WHERE job_type = 'booking_completion' AND status = 'Pending'
         AND convert_from(job, 'UTF8')::jsonb->>'booking_id' = $1`,
      [second.id],
    );
    await stack.waitForMail((m) => m.to.includes(seekerUser.email) && m.subject.startsWith('How was your session'));

    // An announcement.
    const { title } = await announce(await createAdmin(stack));
    await stack.waitForMail((m) => m.to.includes(seekerUser.email) && m.subject === title);
    const cancelled = await stack.waitForMail(
      (m) => m.to.includes(seekerUser.email) && /cancel/i.test(m.subject),
      30_000,
    );
    assert.ok(cancelled);
    await stack.waitForMail((m) => m.to.includes(seekerUser.email) && m.subject.startsWith('Refund of $'), 30_000);

    // Every message in the outbox, parsed from its raw bytes by mailparser.
    const files = (await readdir(stack.mailDir)).filter((f) => f.endsWith('.eml'));
    assert.ok(files.length >= 10, `${files.length} mails`);
    const kinds = new Map();
    let calendars = 0;
    for (const file of files) {
      const raw = await readFile(path.join(stack.mailDir, file));
      const mail = await simpleParser(raw);
      const where = `${file} (${mail.subject})`;
      assert.ok(mail.messageId, `Message-ID: ${where}`);
      assert.ok(mail.from?.value?.[0]?.address, `From: ${where}`);
      assert.ok(mail.to?.value?.[0]?.address, `To: ${where}`);
      assert.ok(mail.subject, `Subject: ${where}`);
      assert.ok(mail.text?.trim(), `text part: ${where}`);
      assert.ok(mail.html, `HTML part: ${where}`);
      const kind = kindOf(mail.subject, mail.to.value[0].address);
      // mailparser gathers the List-* headers under 'list': { unsubscribe: { url }, ... }.
      const unsubscribe = mail.headers.get('list')?.unsubscribe;
      const governed = GOVERNED.has(kind);
      if (governed) {
        const url = unsubscribe?.url;
        assert.ok(url?.startsWith(`${stack.baseUrl}/api/email/unsubscribe?token=`), `List-Unsubscribe: ${where}`);
        assert.equal(raw.toString('latin1').match(/^List-Unsubscribe-Post: (.*)\r$/m)?.[1], ONE_CLICK, where);
        // The reader sees it too: a footer in both parts with the same address and the preferences.
        const preferencesUrl = `${stack.baseUrl}/dashboard?tab=email-preferences`;
        assert.ok(mail.text.includes(`Unsubscribe: ${url}\n`), `text footer: ${where}`);
        assert.ok(mail.text.includes(`Email preferences: ${preferencesUrl}\n`), `text footer: ${where}`);
        const links = [...mail.html.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map(([, href, label]) => [
          href.replaceAll('&amp;', '&'),
          label,
        ]);
        assert.ok(
          links.some(([href, label]) => href === url && label === 'Unsubscribe'),
          `HTML footer: ${where}`,
        );
        assert.ok(
          links.some(([href, label]) => href === preferencesUrl && label === 'Email preferences'),
          `HTML footer: ${where}`,
        );
      } else {
        assert.equal(unsubscribe, undefined, `no List-Unsubscribe on ${where}`);
        assert.ok(!mail.text.includes('Unsubscribe:'), `no unsubscribe footer on ${where}`);
      }
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      // A payment's confirmation and a refund's mail carry the receipt as a PDF (docs/payments.md).
      if (kind === 'refund' || (kind === 'booking confirmed' && mail.to.value[0].address === seekerUser.email)) {
        const pdf = mail.attachments.find((a) => a.contentType === 'application/pdf');
        assert.ok(pdf?.filename?.match(/^receipt-MM-\d{4}-\d{6}\.pdf$/), `a receipt on ${where}`);
        assert.equal(pdf.content.subarray(0, 5).toString(), '%PDF-', where);
      }

      const ics = mail.attachments.filter((a) => a.contentType === 'text/calendar');
      for (const part of ics) {
        calendars += 1;
        const calendar = new ICAL.Component(ICAL.parse(part.content.toString('utf8')));
        assert.match(calendar.getFirstPropertyValue('method'), /^(REQUEST|CANCEL)$/, where);
        const event = new ICAL.Event(calendar.getFirstSubcomponent('vevent'));
        assert.match(event.uid, /^booking-[0-9a-f-]{36}@/, where);
        assert.ok(event.startDate && event.endDate, where);
        assert.equal(event.endDate.toJSDate() - event.startDate.toJSDate(), 60 * 60_000, where);
        assert.match(event.organizer, /^mailto:/i, where);
        assert.ok(event.summary, where);
      }
    }
    for (const kind of [
      'verification',
      'reset',
      'account exists',
      'contact',
      'booking confirmed',
      'new booking',
      'rescheduled',
      'reminder',
      'cancelled',
      'refund',
      'review request',
      'announcement',
    ])
      assert.ok(kinds.get(kind) > 0, `a ${kind} mail was parsed (${JSON.stringify([...kinds])})`);
    assert.ok(calendars >= 3, `${calendars} calendar parts`);
  });
});

const GOVERNED = new Set([
  'booking confirmed',
  'new booking',
  'rescheduled',
  'reminder',
  'cancelled',
  'review request',
  'announcement',
]);

function kindOf(subject, to) {
  if (subject === 'Verify your email address') return 'verification';
  if (subject === 'Reset your password') return 'reset';
  if (/already|account/i.test(subject) && !/mentor/i.test(subject)) return 'account exists';
  if (subject.startsWith('[Contact]')) return 'contact';
  if (subject.startsWith('Booking confirmed')) return 'booking confirmed';
  if (subject.startsWith('Reminder:')) return 'reminder';
  if (subject.startsWith('How was your session')) return 'review request';
  if (/^News \d+ /.test(subject)) return 'announcement';
  if (/^Refund of \$/.test(subject)) return 'refund';
  if (/cancel/i.test(subject)) return 'cancelled';
  if (/moved|rescheduled/i.test(subject)) return 'rescheduled';
  if (/^New booking/i.test(subject)) return 'new booking';
  return `other: ${subject} to ${to}`;
}

// The admin console over HTTP against the real api and worker: every admin call refuses anonymous
// (401), seekers and mentors (403) and answers admins; the filters and pages; deactivating a user
// ends their sessions and refuses their sign-in; and a mentor's cancellation goes through the
// worker: the refund is paid in full and the seeker gets the cancellation e-mail with its calendar
// update.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { createAdmin } from '../harness/admin.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

let stack;
let db;
let admin;
let mentor;
let seekerUser;
let seeker;

before(async () => {
  stack = await startStack();
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  [admin, mentor, seekerUser] = await Promise.all([
    createAdmin(stack),
    bookableMentor(stack, { price: '40.00' }),
    createVerifiedUser(stack),
  ]);
  seeker = await signIn(stack, seekerUser);
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

let slot = 0;
/** A paid, confirmed booking of the seeker with the mentor, `hours` ahead (distinct hours). */
async function paidBooking(hours = 48 + (slot += 2)) {
  const held = await reserve(seeker, mentor, startIn(hours));
  return pay(seeker, held.reservation.id, seekerUser);
}

describe('admin access', () => {
  it('every admin call: anonymous 401, seeker 403, mentor 403, admin 200', async () => {
    const target = await createVerifiedUser(stack);
    const { rows } = await db.query('SELECT id FROM users WHERE email = $1', [target.email]);
    const calls = [
      ['GET', '/api/admin/stats'],
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/mentors'],
      ['GET', '/api/admin/bookings'],
      ['PUT', `/api/admin/users/${rows[0].id}/status`, { isActive: true }],
    ];
    for (const [method, path, body] of calls) {
      const anonymous = await client(stack.baseUrl).request(method, path, body);
      assert.equal(anonymous.status, 401, `${path} anonymous: ${show(anonymous)}`);
      for (const [who, c] of [
        ['seeker', seeker],
        ['mentor', mentor.c],
      ]) {
        const r = await c.request(method, path, body);
        assert.equal(r.status, 403, `${path} ${who}: ${show(r)}`);
        assert.equal(r.body.message, 'Admin access required');
      }
      const ok = await admin.c.request(method, path, body);
      assert.equal(ok.status, 200, `${path} admin: ${show(ok)}`);
    }
  });
});

describe('admin figures and lists', () => {
  it('stats count users, mentors and bookings, and revenue is payments less refunds paid', async () => {
    const before = (await admin.c.get('/api/admin/stats')).body;
    const booking = await paidBooking();
    const paid = (await admin.c.get('/api/admin/stats')).body;
    assert.equal(paid.totalBookings, before.totalBookings + 1);
    assert.equal(Number(paid.totalRevenue) * 100, Number(before.totalRevenue) * 100 + 4000);
    assert.match(paid.totalRevenue, /^\d+\.\d{2}$/);
    const { rows } = await db.query(
      'SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM mentors)::int AS mentors',
    );
    assert.equal(paid.totalUsers, rows[0].users);
    assert.equal(paid.totalMentors, rows[0].mentors);
    // A seeker's cancellation a day or more ahead refunds everything, once the worker pays it.
    const cancel = await seeker.put(`/api/user/bookings/${booking.id}/cancel`, { acknowledgePolicy: true });
    assert.equal(cancel.status, 200, show(cancel));
    await until(
      'the refund to be paid',
      async () =>
        (await db.query('SELECT status FROM refunds WHERE booking_id = $1', [booking.id])).rows[0]?.status ===
        'succeeded',
    );
    const refunded = (await admin.c.get('/api/admin/stats')).body;
    assert.equal(refunded.totalRevenue, before.totalRevenue);
  });

  it('users filter by role and active flag; a bad filter is a 400 that says which', async () => {
    const emails = (r) => r.body.map((u) => u.email);
    const mentors = await admin.c.get('/api/admin/users?role=mentor');
    assert.equal(mentors.status, 200, show(mentors));
    assert.ok(emails(mentors).includes(mentor.user.email));
    assert.ok(!emails(mentors).includes(seekerUser.email));
    assert.ok(mentors.body.every((u) => u.role === 'mentor'));
    const admins = await admin.c.get('/api/admin/users?role=admin&isActive=true');
    assert.deepEqual(emails(admins), [admin.user.email]);
    const all = (await admin.c.get('/api/admin/users')).body;
    const created = all.map((u) => Date.parse(u.createdAt));
    assert.deepEqual(
      created,
      [...created].sort((a, b) => b - a),
      'newest first',
    );
    for (const field of [
      'id',
      'firstName',
      'lastName',
      'email',
      'profileImageUrl',
      'role',
      'isActive',
      'emailVerified',
      'createdAt',
      'stripeSubscriptionId',
      // Issue 35: the users tab shows scheduled deletions.
      'deletionScheduledAt',
    ]) {
      assert.ok(field in all[0], `${field} in ${JSON.stringify(all[0])}`);
    }
    let r = await admin.c.get('/api/admin/users?role=superuser');
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'Invalid role: use user, mentor or admin');
    r = await admin.c.get('/api/admin/users?isActive=maybe');
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'Invalid isActive: use true or false');
  });

  it('mentors carry rating, sessions, services, status and their own revenue', async () => {
    const r = await admin.c.get('/api/admin/mentors');
    assert.equal(r.status, 200, show(r));
    const m = r.body.find((x) => x.id === mentor.mentor.id);
    assert.ok(m, show(r));
    assert.equal(m.user.email, mentor.user.email);
    assert.equal(m.servicesCount, 1);
    assert.equal(m.isActive, true);
    assert.match(m.rating, /^\d\.\d{2}$/);
    assert.equal(typeof m.totalSessions, 'number');
    assert.match(m.stats.totalRevenue, /^\d+\.\d{2}$/);
    assert.equal(typeof m.stats.totalBookings, 'number');
  });

  it('bookings filter by status and UTC days, page 20 at a time, and refuse bad dates by name', async () => {
    const booking = await paidBooking();
    const day = booking.scheduledAt.slice(0, 10);
    const page = await admin.c.get('/api/admin/bookings');
    assert.equal(page.status, 200, show(page));
    assert.equal(page.body.page, 1);
    assert.equal(page.body.pageSize, 20);
    assert.equal(page.body.bookings[0].id, booking.id, 'newest first');
    const b = page.body.bookings[0];
    assert.deepEqual(b.user, {
      id: b.user.id,
      firstName: seekerUser.firstName,
      lastName: seekerUser.lastName,
      email: seekerUser.email,
    });
    assert.deepEqual(b.mentor, { id: mentor.mentor.id, displayName: mentor.mentor.displayName });
    assert.deepEqual(b.service, { id: mentor.service.id, title: mentor.service.title });
    assert.equal(b.paymentStatus, 'approved');
    const onDay = await admin.c.get(`/api/admin/bookings?status=confirmed&startDate=${day}&endDate=${day}`);
    assert.ok(
      onDay.body.bookings.some((x) => x.id === booking.id),
      show(onDay),
    );
    assert.ok(
      onDay.body.bookings.every((x) => x.status === 'confirmed' && x.scheduledAt.startsWith(day)),
      show(onDay),
    );
    const cancelled = await admin.c.get(`/api/admin/bookings?status=cancelled&startDate=${day}&endDate=${day}`);
    assert.ok(!cancelled.body.bookings.some((x) => x.id === booking.id));
    const small = await admin.c.get('/api/admin/bookings?pageSize=1&page=2');
    assert.equal(small.body.bookings.length, 1);
    assert.ok(small.body.total >= 2);
    for (const [query, message] of [
      ['startDate=2026-13-01', 'Invalid startDate: use a date as YYYY-MM-DD'],
      ['endDate=yesterday', 'Invalid endDate: use a date as YYYY-MM-DD'],
      ['status=lost', 'Invalid status: use pending, confirmed, completed or cancelled'],
      ['pageSize=500', 'Invalid pageSize: use a whole number from 1 to 100'],
    ]) {
      const r = await admin.c.get(`/api/admin/bookings?${query}`);
      assert.equal(r.status, 400, `${query}: ${show(r)}`);
      assert.equal(r.body.message, message);
    }
  });
});

describe('user status', () => {
  it('deactivating ends every session and refuses sign-in; an admin cannot deactivate themself', async () => {
    const user = await createVerifiedUser(stack);
    const [one, two] = [await signIn(stack, user), await signIn(stack, user)];
    const id = (await one.get('/api/auth/user')).body.id;
    const self = await admin.c.put(`/api/admin/users/${admin.id}/status`, { isActive: false });
    assert.equal(self.status, 409, show(self));
    assert.equal(self.body.message, 'You cannot deactivate your own account');
    const off = await admin.c.put(`/api/admin/users/${id}/status`, { isActive: false });
    assert.equal(off.status, 200, show(off));
    assert.equal(off.body.isActive, false);
    for (const c of [one, two]) assert.equal((await c.get('/api/auth/user')).status, 401);
    const login = await client(stack.baseUrl).post('/api/login', { email: user.email, password: user.password });
    assert.equal(login.status, 403, show(login));
    assert.equal(login.body.message, 'Your account has been deactivated. Please contact support.');
    const { rows } = await db.query(
      "SELECT action, before, after FROM admin_audit WHERE object_type = 'user' AND object_id = $1",
      [id],
    );
    assert.deepEqual(rows, [{ action: 'user.deactivate', before: { isActive: true }, after: { isActive: false } }]);
    const on = await admin.c.put(`/api/admin/users/${id}/status`, { isActive: true });
    assert.equal(on.status, 200, show(on));
    await signIn(stack, user);
    const missing = await admin.c.put('/api/admin/users/00000000-0000-4000-8000-000000000000/status', {
      isActive: false,
    });
    assert.equal(missing.status, 404, show(missing));
  });
});

describe('mentor cancellation through the worker', () => {
  it(
    'refunds the seeker in full and e-mails the cancellation with the calendar update',
    { timeout: 120_000 },
    async () => {
      // Five hours ahead: the seeker would get half back; the mentor's cancellation returns everything.
      const booking = await paidBooking(5);
      const stranger = await signIn(stack, await createVerifiedUser(stack));
      assert.equal((await stranger.post(`/api/mentor/bookings/${booking.id}/cancel`, {})).status, 404);
      const r = await mentor.c.post(`/api/mentor/bookings/${booking.id}/cancel`, { reason: 'A family emergency' });
      assert.equal(r.status, 200, show(r));
      assert.equal(r.body.status, 'cancelled');
      assert.deepEqual(r.body.refund, { percentage: 100, amount: '40.00', status: 'pending' });
      await until(
        'the refund to be paid',
        async () => {
          const { rows } = await db.query(
            'SELECT status, amount_cents, percentage FROM refunds WHERE booking_id = $1',
            [booking.id],
          );
          return rows[0]?.status === 'succeeded' ? rows[0] : null;
        },
        60_000,
      );
      const { rows } = await db.query('SELECT amount_cents, percentage FROM refunds WHERE booking_id = $1', [
        booking.id,
      ]);
      assert.deepEqual(rows[0], { amount_cents: '4000', percentage: 100 });
      // The seeker's earlier cancellation mailed them too: this one is the mentor's.
      const mail = await stack.waitForMail(
        (m) =>
          m.toList.includes(seekerUser.email.toLowerCase()) &&
          m.subject.startsWith('Booking cancelled') &&
          m.text.includes('Your mentor Orla Ops cancelled'),
      );
      assert.match(mail.text, /A refund of \$40\.00/);
      assert.match(mail.text, /Reason: A family emergency/);
      const ics = mail.attachments.find((a) => /calendar/.test(a.mimeType));
      assert.ok(ics, 'a calendar attachment');
      assert.match(Buffer.from(ics.content).toString(), /METHOD:CANCEL/);
      const note = await until('the seeker notification', async () =>
        (await seeker.get('/api/notifications?limit=100')).body.find((n) =>
          n.message.startsWith('Your mentor Orla Ops cancelled'),
        ),
      );
      assert.match(note.message, /A refund of \$40\.00 is on its way/);
      const again = await mentor.c.post(`/api/mentor/bookings/${booking.id}/cancel`, {});
      assert.equal(again.status, 409, show(again));
    },
  );
});

// The access-control matrix: for every operation of the OpenAPI document whose path names an
// object (`{...}`), and for the own-object lists that could leak, the owner succeeds and another
// seeker, another mentor and anonymous are refused as the docs say. A new object endpoint without
// a row here fails the first test: add its row.
//
// Each row creates its own object as its owner (`make`), then sends the same request as every
// other role first (they must be refused and must not change the object) and as the owner last.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { createAdmin } from '../harness/admin.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { committedOperations, servedOperations } from '../harness/openapi.mjs';
import { groupService, groupSessionWithSeats } from '../harness/group-sessions.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const ROLES = ['otherSeeker', 'otherMentor', 'anonymous'];
const UNAUTHORIZED = { status: 401, message: 'Unauthorized' };

// access: 'public'   everyone, anonymous too, gets `ok`
//         'signedIn' every signed-in user gets `ok` (the object is public; the call is about the caller); anonymous 401
//         'owner'    only the owner gets `ok`; `refused` says what the others get (anonymous always 401)
// make(w) resolves to { path, body?, owner: 'seeker' | 'mentor' | a client } for a fresh object.
const ROWS = {
  'GET /api/mentors/{id}': { access: 'public', ok: 200, make: (w) => ({ path: `/api/mentors/${w.mentor.mentor.id}` }) },
  // The feed's address is its only secret (issue 33): whoever has it reads it, signed in or not.
  'GET /api/calendar/{file}': {
    access: 'public',
    ok: 200,
    make: async (w) => {
      const r = await w.seeker.get('/api/user/calendar-feed');
      assert.equal(r.status, 200, show(r));
      return { path: new URL(r.body.url).pathname };
    },
  },
  'GET /api/mentors/{id}/reviews': {
    access: 'public',
    ok: 200,
    make: (w) => ({ path: `/api/mentors/${w.mentor.mentor.id}/reviews` }),
  },
  'GET /api/services/{id}': {
    access: 'public',
    ok: 200,
    make: (w) => ({ path: `/api/services/${w.mentor.service.id}` }),
  },
  'GET /api/mentors/{mentor_id}/available-slots': {
    access: 'public',
    ok: 200,
    make: (w) => ({
      path: `/api/mentors/${w.mentor.mentor.id}/available-slots?date=${startIn(72).slice(0, 10)}&duration=60&timeZone=UTC`,
    }),
  },
  'GET /api/mentors/{mentor_id}/available-days': {
    access: 'public',
    ok: 200,
    make: (w) => ({
      path: `/api/mentors/${w.mentor.mentor.id}/available-days?month=${startIn(72).slice(0, 7)}&duration=60&timeZone=UTC`,
    }),
  },
  'GET /api/user/favorites/check/{mentor_id}': {
    access: 'signedIn',
    ok: 200,
    make: (w) => ({ path: `/api/user/favorites/check/${w.mentor.mentor.id}` }),
  },
  'POST /api/user/favorites/{mentor_id}': {
    access: 'signedIn',
    ok: 200,
    make: (w) => ({ path: `/api/user/favorites/${w.mentor.mentor.id}` }),
  },
  'DELETE /api/user/favorites/{mentor_id}': {
    access: 'signedIn',
    ok: 200,
    make: (w) => ({ path: `/api/user/favorites/${w.mentor.mentor.id}` }),
  },
  'GET /api/users/{id}': {
    access: 'signedIn',
    ok: 200,
    make: (w) => ({ path: `/api/users/${w.seekerUserId}`, owner: 'seeker' }),
    // Others see the profile but not the e-mail address.
    check: (role, res) =>
      role === 'owner' ? assert.ok(res.body.email) : assert.equal(res.body.email, null, `${role} sees the e-mail`),
  },
  'GET /api/users/{id}/mentor': {
    access: 'signedIn',
    ok: 200,
    make: (w) => ({ path: `/api/users/${w.mentor.mentor.userId}/mentor` }),
  },

  // The mentor's own calendar (issue 33): a connection written straight into the database (no
  // CalDAV server needed to change a switch).
  'PATCH /api/mentor/calendar-connection/calendars/{id}': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 403, otherMentor: 404 },
    make: async (w) => {
      await db.query('DELETE FROM calendar_connections WHERE mentor_id = $1', [w.mentor.mentor.id]);
      const { rows } = await db.query(
        `WITH c AS (INSERT INTO calendar_connections (mentor_id, url, username, password_sealed)
           VALUES ($1, 'https://caldav.example/', 'owner', '\\x00') RETURNING id)
         INSERT INTO calendar_connection_calendars (connection_id, href, name, writable, position)
           SELECT id, 'https://caldav.example/owner/work/', 'Work', true, 0 FROM c RETURNING id`,
        [w.mentor.mentor.id],
      );
      return {
        path: `/api/mentor/calendar-connection/calendars/${rows[0].id}`,
        body: { blocksSlots: false },
        owner: 'mentor',
      };
    },
  },
  'PUT /api/mentor/services/{id}': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 403, otherMentor: 403 },
    make: async (w) => ({
      path: `/api/mentor/services/${(await w.newService()).id}`,
      body: { title: 'Renamed by its owner' },
      owner: 'mentor',
    }),
  },
  'PUT /api/mentor/availability/{id}': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 403 },
    make: async (w) => ({
      path: `/api/mentor/availability/${(await w.newAvailability()).id}`,
      body: { isActive: false },
      owner: w.availabilityOwner,
    }),
  },
  'DELETE /api/mentor/availability/{id}': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 403 },
    make: async (w) => ({
      path: `/api/mentor/availability/${(await w.newAvailability()).id}`,
      owner: w.availabilityOwner,
    }),
  },
  'DELETE /api/mentor/availability/overrides/{id}': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({
      path: `/api/mentor/availability/overrides/${(await w.newOverride()).id}`,
      owner: w.availabilityOwner,
    }),
  },
  'GET /api/reservations/{id}': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({ path: `/api/reservations/${(await w.newReservation()).reservation.id}`, owner: 'seeker' }),
  },
  'DELETE /api/reservations/{id}': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({ path: `/api/reservations/${(await w.newReservation()).reservation.id}`, owner: 'seeker' }),
  },
  'PUT /api/notifications/{id}/read': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({ path: `/api/notifications/${(await w.newNotification()).id}/read`, owner: 'seeker' }),
  },
  'DELETE /api/notifications/{id}': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({ path: `/api/notifications/${(await w.newNotification()).id}`, owner: 'seeker' }),
  },
  'DELETE /api/user/sessions/{id}': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({ path: `/api/user/sessions/${await w.newSession()}`, owner: 'seeker' }),
  },
  'GET /api/user/data-exports/{id}/download': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({ path: `/api/user/data-exports/${await w.readyExport()}/download`, owner: 'seeker' }),
    check: (_role, res) => assert.equal(res.headers.get('content-type'), 'application/zip'),
  },
  'DELETE /api/push/subscriptions/{id}': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({ path: `/api/push/subscriptions/${(await w.newPushSubscription()).id}`, owner: 'seeker' }),
  },
  'GET /api/user/bookings/{id}/refund-preview': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({ path: `/api/user/bookings/${(await w.newBooking()).id}/refund-preview`, owner: 'seeker' }),
  },
  'PUT /api/user/bookings/{id}/reschedule': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({
      path: `/api/user/bookings/${(await w.newBooking()).id}/reschedule`,
      body: { scheduledAt: w.nextSlot() },
      owner: 'seeker',
    }),
  },
  'PUT /api/user/bookings/{id}/cancel': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({
      path: `/api/user/bookings/${(await w.newBooking()).id}/cancel`,
      body: { acknowledgePolicy: true },
      owner: 'seeker',
    }),
  },
  // The booking's two parties only: the seeker here (its mentor is allowed too; tests/api/call-window.test.mjs).
  'GET /api/bookings/{id}/video-window': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({ path: `/api/bookings/${(await w.newBooking()).id}/video-window`, owner: 'seeker' }),
  },
  'POST /api/bookings/{id}/review': {
    access: 'owner',
    ok: 201,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({
      path: `/api/bookings/${(await w.newBooking({ completed: true })).id}/review`,
      body: { rating: 5, comment: 'Kind and clear' },
      owner: 'seeker',
    }),
  },
  // When a session goes wrong (docs/payments.md).
  'POST /api/bookings/{id}/complaint': {
    access: 'owner',
    ok: 201,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({
      path: `/api/bookings/${(await w.newBooking({ completed: true })).id}/complaint`,
      body: { reason: 'technical_problem', details: 'The sound kept dropping.' },
      owner: 'seeker',
    }),
  },
  'POST /api/mentor/complaints/{id}/response': {
    access: 'owner',
    ok: 201,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({
      path: `/api/mentor/complaints/${await w.newComplaint()}/response`,
      body: { message: 'I am sorry about the sound.' },
      owner: 'mentor',
    }),
  },
  'POST /api/mentor/reviews/{id}/reply': {
    access: 'owner',
    ok: 201,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({
      path: `/api/mentor/reviews/${await w.newReview()}/reply`,
      body: { message: 'Thank you for coming!' },
      owner: 'mentor',
    }),
  },
  'GET /api/receipts/{number}/pdf': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({ path: `/api/receipts/${await w.newReceipt()}/pdf`, owner: 'seeker' }),
  },
  'POST /api/admin/complaints/{id}/resolve': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 403, otherMentor: 403 },
    make: async (w) => ({
      path: `/api/admin/complaints/${await w.newComplaint()}/resolve`,
      body: { outcome: 'no_refund', note: 'The session took place as described.' },
      owner: w.admin,
    }),
  },
  'POST /api/admin/bookings/{id}/refund': {
    access: 'owner',
    ok: 201,
    refused: { otherSeeker: 403, otherMentor: 403 },
    make: async (w) => ({
      path: `/api/admin/bookings/${(await w.newBooking()).id}/refund`,
      body: { amount: '5.00', reason: 'Goodwill for a late start' },
      owner: w.admin,
    }),
  },
  'POST /api/admin/wallets/{userId}/refund': {
    access: 'owner',
    ok: 201,
    refused: { otherSeeker: 403, otherMentor: 403 },
    make: async (w) => {
      const user = await createVerifiedUser(stack);
      const c = await signIn(stack, user);
      const r = await c.post('/api/wallet/top-up', {
        amount: '20.00',
        cardNumber: '4111111111111111',
        expirationDate: '1230',
        cardCode: '123',
        billingInfo: { firstName: 'Ada', lastName: 'Lovelace', zip: '10001' },
        clientRequestId: crypto.randomUUID(),
      });
      assert.equal(r.body.success, true, show(r));
      const userId = (await c.get('/api/auth/user')).body.id;
      return {
        path: `/api/admin/wallets/${userId}/refund`,
        body: { amount: '5.00', reason: 'Leaving the platform' },
        owner: w.admin,
      };
    },
  },
  'GET /api/instant-sessions/{id}': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => {
      const r = await w.newReading();
      return { path: `/api/instant-sessions/${r.id}`, owner: r.seeker };
    },
  },
  'POST /api/instant-sessions/{id}/accept': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => {
      const r = await w.newReading();
      return { path: `/api/instant-sessions/${r.id}/accept`, owner: r.mentor };
    },
  },
  'POST /api/instant-sessions/{id}/decline': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => {
      const r = await w.newReading();
      return { path: `/api/instant-sessions/${r.id}/decline`, owner: r.mentor };
    },
  },
  'POST /api/instant-sessions/{id}/review': {
    access: 'owner',
    ok: 201,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => {
      const r = await w.newReading({ ended: true });
      return { path: `/api/instant-sessions/${r.id}/review`, body: { rating: 5 }, owner: r.seeker };
    },
  },
  'POST /api/instant-sessions/{id}/complaint': {
    access: 'owner',
    ok: 201,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => {
      const r = await w.newReading({ ended: true });
      return {
        path: `/api/instant-sessions/${r.id}/complaint`,
        body: { reason: 'technical_problem', details: 'The chat kept dropping.' },
        owner: r.seeker,
      };
    },
  },
  // A reading's complaint is decided by admins and answered by its mentor as a booking's (issue 36).
  'POST /api/admin/reading-complaints/{id}/resolve': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 403, otherMentor: 403 },
    make: async (w) => ({
      path: `/api/admin/reading-complaints/${(await w.newReadingComplaint()).id}/resolve`,
      body: { outcome: 'no_refund', note: 'The reading took place as described.' },
      owner: w.admin,
    }),
  },
  'POST /api/mentor/reading-complaints/{id}/response': {
    access: 'owner',
    ok: 201,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => {
      const c = await w.newReadingComplaint();
      return {
        path: `/api/mentor/reading-complaints/${c.id}/response`,
        body: { message: 'I am sorry the chat kept dropping.' },
        owner: c.mentor,
      };
    },
  },
  'POST /api/instant-sessions/{id}/end': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => {
      const r = await w.newReading({ accepted: true });
      return { path: `/api/instant-sessions/${r.id}/end`, owner: r.seeker };
    },
  },
  'PUT /api/mentor/bookings/{id}': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({
      path: `/api/mentor/bookings/${(await w.newBooking({ ended: true })).id}`,
      body: { status: 'completed' },
      owner: 'mentor',
    }),
  },
  'POST /api/mentor/bookings/{id}/cancel': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({
      path: `/api/mentor/bookings/${(await w.newBooking()).id}/cancel`,
      body: { reason: 'Unwell today' },
      owner: 'mentor',
    }),
  },
  // Admin only: the 'owner' is an administrator; everyone else is refused whatever the object.
  'PUT /api/admin/users/{id}/status': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 403, otherMentor: 403 },
    make: async (w) => ({
      path: `/api/admin/users/${await w.newUserId()}/status`,
      body: { isActive: false },
      owner: w.admin,
    }),
  },
  'POST /api/admin/mentors/{id}/approve': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 403, otherMentor: 403 },
    make: async (w) => ({
      path: `/api/admin/mentors/${await w.newPendingMentorId()}/approve`,
      body: {},
      owner: w.admin,
    }),
  },
  'POST /api/admin/mentors/{id}/reject': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 403, otherMentor: 403 },
    make: async (w) => ({
      path: `/api/admin/mentors/${await w.newPendingMentorId()}/reject`,
      body: { reason: 'Please add more about your practice.' },
      owner: w.admin,
    }),
  },
  'POST /api/admin/contact-messages/{id}/answered': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 403, otherMentor: 403 },
    make: async (w) => ({
      path: `/api/admin/contact-messages/${await w.newContactMessage()}/answered`,
      owner: w.admin,
    }),
  },
  'POST /api/admin/jobs/{id}/retry': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 403, otherMentor: 403 },
    make: async (w) => ({
      path: `/api/admin/jobs/${await w.newTask({ failed: true })}/retry`,
      body: {},
      owner: w.admin,
    }),
  },
  'POST /api/admin/jobs/{id}/discard': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 403, otherMentor: 403 },
    make: async (w) => ({
      path: `/api/admin/jobs/${await w.newTask({ failed: false })}/discard`,
      body: {},
      owner: w.admin,
    }),
  },
  'POST /api/admin/reports/{id}/resolve': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 403, otherMentor: 403 },
    make: async (w) => ({
      path: `/api/admin/reports/${await w.newReport()}/resolve`,
      body: { action: 'none', note: 'Looked at it' },
      owner: w.admin,
    }),
  },
  'POST /api/admin/reports/{id}/dismiss': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 403, otherMentor: 403 },
    make: async (w) => ({ path: `/api/admin/reports/${await w.newReport()}/dismiss`, body: {}, owner: w.admin }),
  },
  'GET /api/conversations/{id}': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({ path: `/api/conversations/${(await w.newConversation()).id}`, owner: 'seeker' }),
  },
  'GET /api/conversations/{id}/messages': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({ path: `/api/conversations/${(await w.newConversation()).id}/messages`, owner: 'mentor' }),
  },
  'POST /api/conversations/{id}/messages': {
    access: 'owner',
    ok: 201,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({
      path: `/api/conversations/${(await w.newConversation()).id}/messages`,
      body: { content: 'Only the two of us' },
      owner: 'seeker',
    }),
  },
  'GET /api/group-sessions/{id}': {
    access: 'signedIn',
    ok: 200,
    make: async (w) => ({ path: `/api/group-sessions/${(await w.newGroupSession()).id}`, owner: 'mentor' }),
  },
  'GET /api/group-sessions/{id}/call': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 403, otherMentor: 403 },
    make: async (w) => ({ path: `/api/group-sessions/${await w.newLiveGroupSession()}/call`, owner: 'seeker' }),
  },
  'PUT /api/group-sessions/{id}': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({
      path: `/api/group-sessions/${(await w.newGroupSession()).id}`,
      body: { status: 'cancelled' },
      owner: 'mentor',
    }),
  },
  'PUT /api/conversations/{id}/read': {
    access: 'owner',
    ok: 200,
    refused: { otherSeeker: 404, otherMentor: 404 },
    make: async (w) => ({ path: `/api/conversations/${(await w.newConversation()).id}/read`, owner: 'mentor' }),
  },
};

// Own-object calls without an id in the path: the object must not show up for anyone else.
const OWN = {
  'GET /api/user/data-exports': {
    owner: 'seeker',
    make: async (w) => ({ id: await w.readyExport() }),
    path: () => '/api/user/data-exports',
    contains: (res, e) => res.body.some((x) => x.id === e.id),
  },
  'GET /api/user/dashboard': {
    owner: 'seeker',
    make: (w) => w.newBooking(),
    path: () => '/api/user/dashboard',
    contains: (res, booking) => res.body.bookings.some((b) => b.id === booking.id),
  },
  'GET /api/user/reservations': {
    owner: 'seeker',
    make: async (w) => (await w.newReservation()).reservation,
    path: () => '/api/user/reservations',
    contains: (res, hold) => res.body.some((h) => h.id === hold.id),
  },
  'GET /api/mentor/bookings': {
    owner: 'mentor',
    make: (w) => w.newBooking(),
    path: () => '/api/mentor/bookings',
    contains: (res, booking) => res.body.some((b) => b.id === booking.id),
  },
  'GET /api/mentor/availability/overrides': {
    owner: 'mentor',
    make: (w) => w.newOverride(w.mentor.c),
    path: () => '/api/mentor/availability/overrides',
    contains: (res, o) => res.body.some((x) => x.id === o.id),
  },
  'GET /api/mentor/group-sessions': {
    owner: 'mentor',
    make: (w) => w.newGroupSession(),
    path: () => '/api/mentor/group-sessions',
    contains: (res, g) => res.body.some((x) => x.id === g.id),
  },
  'GET /api/conversations': {
    owner: 'seeker',
    make: (w) => w.newConversation(),
    path: () => '/api/conversations',
    contains: (res, c) => res.body.some((x) => x.id === c.id),
  },
  // A mentor's payout address and earnings are theirs alone.
  'GET /api/mentor/payout-preferences': {
    owner: 'mentor',
    make: async (w) => {
      const paypalEmail = `payouts.${Date.now()}@example.com`;
      const r = await w.mentor.c.post('/api/mentor/payout-preferences', { method: 'paypal', paypalEmail });
      assert.equal(r.status, 200, show(r));
      return { paypalEmail };
    },
    path: () => '/api/mentor/payout-preferences',
    contains: (res, p) => res.body.paypalEmail === p.paypalEmail,
  },
  'GET /api/mentor/earnings': {
    owner: 'mentor',
    make: (w) => w.newBooking({ completed: true }),
    path: () => '/api/mentor/earnings',
    contains: (res) => res.body.nextPayout.bookingCount > 0,
  },
  'GET /api/push/subscriptions': {
    owner: 'seeker',
    make: (w) => w.newPushSubscription(),
    path: () => '/api/push/subscriptions',
    contains: (res, sub) => res.body.some((x) => x.id === sub.id),
  },
  'GET /api/notifications': {
    owner: 'seeker',
    make: (w) => w.newNotification(),
    path: () => '/api/notifications?limit=100',
    contains: (res, n) => res.body.some((x) => x.id === n.id),
  },
  // Receipts and complaints are their parties' alone.
  'GET /api/receipts': {
    owner: 'seeker',
    make: async (w) => ({ number: await w.newReceipt() }),
    path: () => '/api/receipts',
    contains: (res, r) => res.body.some((x) => x.number === r.number),
  },
  'GET /api/mentor/complaints': {
    owner: 'mentor',
    make: async (w) => ({ id: await w.newComplaint() }),
    path: () => '/api/mentor/complaints',
    contains: (res, c) => res.body.items.some((x) => x.id === c.id),
  },
};

let stack;
let db;
const w = {};
before(async () => {
  // With a Janus: the owner of a group call gets its tokens.
  stack = await startStack({ janus: true });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const [mentor, otherMentor, seekerUser, otherSeekerUser, availabilityMentor] = await Promise.all([
    bookableMentor(stack),
    bookableMentor(stack),
    createVerifiedUser(stack),
    createVerifiedUser(stack),
    createVerifiedUser(stack),
  ]);
  w.mentor = mentor;
  w.admin = (await createAdmin(stack)).c;
  // A started group session (of a mentor of its own, whose time nothing else takes) with the seeker's seat.
  w.newLiveGroupSession = async () => {
    const host = await bookableMentor(stack);
    return groupSessionWithSeats(db, host, await groupService(host), [w.seekerUserId]);
  };
  // A mentor profile awaiting review (vetting): the harness approves none made with { pending: true }.
  w.newPendingMentorId = async () => {
    const c = await signIn(stack, await createVerifiedUser(stack));
    const r = await c.post(
      '/api/mentors',
      {
        displayName: 'Pia Pending',
        bio: 'A mentor whose profile the access-control matrix approves or rejects.',
        specialties: ['Astrology'],
        basePrice: '20.00',
      },
      { pending: true },
    );
    assert.equal(r.status, 201, show(r));
    return r.body.id;
  };
  // A task of the worker's queues: failed (used every try) or scheduled for tomorrow.
  w.newTask = async ({ failed }) => {
    const id = `acl-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    await db.query(
      `INSERT INTO apalis.jobs (id, job_type, job, status, attempts, max_attempts, run_at)
       VALUES ($1, 'upload_cleanup', convert_to('{"url":"/uploads/none.png"}', 'UTF8'), $2, $3, 5, now() + interval '1 day')`,
      [id, failed ? 'Failed' : 'Pending', failed ? 5 : 0],
    );
    return id;
  };
  // A contact-form message, open until an admin marks it answered.
  w.newContactMessage = async () => {
    const { rows } = await db.query(
      "INSERT INTO contact_messages (name, email, subject, category, message) VALUES ('Sam', 'sam@example.com', 'Help', 'report', 'Please look.') RETURNING id",
    );
    return rows[0].id;
  };
  // An open report of a fresh user, by the seeker.
  w.newReport = async () => {
    const r = await w.seeker.post('/api/reports', {
      targetType: 'user',
      targetId: await w.newUserId(),
      reason: 'harassment',
    });
    assert.equal(r.status, 201, show(r));
    return r.body.id;
  };
  // A requested (or accepted) instant reading of a fresh seeker with a fresh mentor set online in SQL
  // (going online over the API needs an open socket: tests/api/presence.test.mjs covers that). The
  // mentor gets a live socket row too, or the worker's minutely presence sweep may take them offline
  // between these statements and the request.
  w.newReading = async ({ accepted = false, ended = false } = {}) => {
    const m = await bookableMentor(stack);
    await db.query('UPDATE mentors SET per_minute_rate_cents = 100 WHERE id = $1', [m.mentor.id]);
    await db.query('INSERT INTO realtime_sockets (socket_id, user_id) SELECT $1, user_id FROM mentors WHERE id = $2', [
      crypto.randomUUID(),
      m.mentor.id,
    ]);
    await db.query("INSERT INTO mentor_presence (mentor_id, status) VALUES ($1, 'available')", [m.mentor.id]);
    const seekerOf = await signIn(stack, await createVerifiedUser(stack));
    const top = await seekerOf.post('/api/wallet/top-up', {
      amount: '10.00',
      cardNumber: '4111111111111111',
      expirationDate: '1230',
      cardCode: '123',
      billingInfo: { firstName: 'Ada', lastName: 'Lovelace', zip: '10001' },
      clientRequestId: crypto.randomUUID(),
    });
    assert.equal(top.body.success, true, show(top));
    const r = await seekerOf.post('/api/instant-sessions', { mentorId: m.mentor.id, mode: 'chat' });
    assert.equal(r.status, 201, show(r));
    if (accepted || ended) {
      const a = await m.c.post(`/api/instant-sessions/${r.body.id}/accept`);
      assert.equal(a.status, 200, show(a));
    }
    if (ended) {
      const e = await seekerOf.post(`/api/instant-sessions/${r.body.id}/end`);
      assert.equal(e.status, 200, show(e));
    }
    return { id: r.body.id, seeker: seekerOf, mentor: m.c };
  };
  // The seeker's complaint about an ended reading: { id, seeker, mentor } (the reading's own clients).
  w.newReadingComplaint = async () => {
    const r = await w.newReading({ ended: true });
    const c = await r.seeker.post(`/api/instant-sessions/${r.id}/complaint`, {
      reason: 'technical_problem',
      details: 'The chat kept dropping.',
    });
    assert.equal(c.status, 201, show(c));
    return { id: c.body.id, seeker: r.seeker, mentor: r.mentor };
  };
  w.newUserId = async () => {
    const user = await createVerifiedUser(stack);
    const { rows } = await db.query('SELECT id FROM users WHERE email = $1', [user.email]);
    return rows[0].id;
  };
  w.seeker = await signIn(stack, seekerUser);
  w.seekerUser = seekerUser;
  w.seekerUserId = (await w.seeker.get('/api/auth/user')).body.id;
  // Another session of the seeker (signed in anew): its public id.
  // The seeker's data export, built by the worker (one a day: made once, shared by the rows that need it).
  let readyExport;
  w.readyExport = () => {
    readyExport ??= (async () => {
      const r = await w.seeker.post('/api/user/data-export');
      assert.equal(r.status, 202, show(r));
      await until(
        'the export is built',
        async () =>
          (await w.seeker.get('/api/user/data-exports')).body.some((e) => e.id === r.body.id && e.status === 'ready'),
        60_000,
      );
      return r.body.id;
    })();
    return readyExport;
  };
  w.newSession = async () => {
    const other = await signIn(stack, seekerUser);
    return (await other.get('/api/user/sessions')).body.find((s) => s.current).id;
  };
  w.clients = {
    seeker: w.seeker,
    mentor: mentor.c,
    otherSeeker: await signIn(stack, otherSeekerUser),
    otherMentor: otherMentor.c,
    anonymous: client(stack.baseUrl),
  };
  // A mentor without availability, whose windows the availability rows create and change.
  w.availabilityOwner = await signIn(stack, availabilityMentor);
  const m = await w.availabilityOwner.post('/api/mentors', {
    displayName: 'Ava Windows',
    bio: 'A mentor whose weekly windows the access-control matrix creates and changes.',
    specialties: ['Tarot Reading'],
    basePrice: '20.00',
    timeZone: 'UTC',
  });
  assert.equal(m.status, 201, show(m));

  let slot = 0;
  w.nextSlot = () => {
    slot += 1;
    return startIn(30 + slot * 2);
  };
  let window = 0;
  w.newAvailability = async () => {
    window += 1;
    const hour = String(window).padStart(2, '0');
    const r = await w.availabilityOwner.post('/api/mentor/availability', {
      dayOfWeek: window % 7,
      startTime: `${hour}:00`,
      endTime: `${hour}:30`,
    });
    assert.equal(r.status, 201, show(r));
    return r.body;
  };
  let overrideDay = 0;
  w.newOverride = async (owner = w.availabilityOwner) => {
    overrideDay += 1;
    const r = await owner.post('/api/mentor/availability/overrides', {
      date: startIn(24 * (40 + overrideDay)).slice(0, 10),
      isDayOff: true,
    });
    assert.equal(r.status, 201, show(r));
    return r.body;
  };
  w.newService = async () => {
    const r = await mentor.c.post('/api/services', {
      title: 'Matrix reading',
      description: 'A service the access-control matrix changes.',
      serviceType: 'tarot',
      price: '25.00',
      duration: 30,
    });
    assert.equal(r.status, 201, show(r));
    return r.body;
  };
  // A seeker holds one unpaid slot per mentor: an earlier row's hold is released first.
  w.newReservation = async () => {
    await db.query("UPDATE bookings SET status = 'expired' WHERE user_id = $1 AND status = 'reserved'", [
      w.seekerUserId,
    ]);
    return reserve(w.seeker, mentor, w.nextSlot());
  };
  w.newBooking = async ({ completed = false, ended = false } = {}) => {
    const held = await w.newReservation();
    const booking = await pay(w.seeker, held.reservation.id, seekerUser);
    if (completed || ended) {
      await db.query(
        "UPDATE bookings SET scheduled_at = now() - interval '3 hours', ends_at = now() - interval '2 hours' WHERE id = $1",
        [booking.id],
      );
    }
    if (completed) await db.query("UPDATE bookings SET status = 'completed' WHERE id = $1", [booking.id]);
    return booking;
  };
  // A complaint of the seeker about a session that ended two hours ago.
  w.newComplaint = async () => {
    const booking = await w.newBooking({ completed: true });
    const r = await w.seeker.post(`/api/bookings/${booking.id}/complaint`, {
      reason: 'not_as_described',
      details: 'It was not what the service said.',
    });
    assert.equal(r.status, 201, show(r));
    return r.body.id;
  };
  // The seeker's review of a completed session.
  w.newReview = async () => {
    const booking = await w.newBooking({ completed: true });
    const r = await w.seeker.post(`/api/bookings/${booking.id}/review`, { rating: 5, comment: 'Clear and kind' });
    assert.equal(r.status, 201, show(r));
    return r.body.id;
  };
  // The number of the receipt of a new paid booking of the seeker.
  w.newReceipt = async () => {
    const booking = await w.newBooking();
    const { rows } = await db.query("SELECT number FROM receipts WHERE booking_id = $1 AND kind = 'payment'", [
      booking.id,
    ]);
    return rows[0].number;
  };
  // A group session of the mentor, weeks ahead of the rows' one-to-one bookings.
  let groupSlot = 0;
  w.newGroupSession = async () => {
    if (!w.groupService) {
      const r = await mentor.c.post('/api/services', {
        title: 'Matrix circle',
        description: 'A group service the access-control matrix schedules.',
        serviceType: 'tarot',
        price: '25.00',
        duration: 60,
        isGroupSession: true,
        maxParticipants: 10,
      });
      assert.equal(r.status, 201, show(r));
      w.groupService = r.body;
    }
    groupSlot += 1;
    const r = await mentor.c.post('/api/group-sessions', {
      serviceId: w.groupService.id,
      title: 'Matrix circle',
      description: '',
      scheduledAt: startIn(1000 + groupSlot * 2),
      maxParticipants: 4,
    });
    assert.equal(r.status, 201, show(r));
    return r.body;
  };
  // The seeker's one conversation with the mentor (found again on later calls).
  w.newConversation = async () => {
    const r = await w.seeker.post('/api/conversations', { mentorId: mentor.mentor.id });
    assert.ok([200, 201].includes(r.status), show(r));
    return r.body;
  };
  // Written straight into the database: this stack takes only public https endpoints (which would
  // need DNS to resolve here); tests/api/push.test.mjs covers subscribing through the API.
  w.newPushSubscription = async () => {
    const point = crypto.createECDH('prime256v1');
    point.generateKeys();
    const { rows } = await db.query(
      `INSERT INTO push_subscriptions (user_id, session_token_hash, endpoint, p256dh, auth)
       SELECT s.user_id, s.token_hash, $2, $3, $4 FROM sessions s WHERE s.token_hash = $1 RETURNING id`,
      [
        crypto.createHash('sha256').update(w.seeker.cookies.sid).digest(),
        `https://push.example.com/send/${crypto.randomUUID()}`,
        point.getPublicKey(),
        crypto.randomBytes(16),
      ],
    );
    assert.equal(rows.length, 1, 'the seeker has a session');
    return rows[0];
  };
  w.newNotification = async () => {
    const before = new Set((await w.seeker.get('/api/notifications?limit=100')).body.map((n) => n.id));
    await w.newBooking();
    return until('a new notification for the seeker', async () =>
      (await w.seeker.get('/api/notifications?limit=100')).body.find((n) => !before.has(n.id)),
    );
  };
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

const opKey = (op) => `${op.method} ${op.path}`;

describe('access-control matrix', () => {
  it('has a row for every object-bearing operation of the OpenAPI document, and none for a missing one', async () => {
    const ops = [...(await committedOperations()), ...(await servedOperations())];
    const objectOps = new Set(ops.filter((op) => op.path.includes('{')).map(opKey));
    assert.ok(objectOps.size > 10, `only ${objectOps.size} object operations found: is the reader broken?`);
    const missing = [...objectOps].filter((k) => !ROWS[k]);
    assert.deepEqual(missing, [], 'object-bearing operations without a row in tests/api/access-control.test.mjs');
    const known = new Set(ops.map(opKey));
    const stale = [...Object.keys(ROWS), ...Object.keys(OWN)].filter((k) => !known.has(k));
    assert.deepEqual(stale, [], 'rows for operations the document does not have');
    // Secured rows are exactly the secured operations.
    for (const op of ops.filter((o) => ROWS[opKey(o)])) {
      assert.equal(op.secured, ROWS[opKey(op)].access !== 'public', `${opKey(op)}: secured in the document vs the row`);
    }
  });

  for (const [key, row] of Object.entries(ROWS)) {
    it(`${key}: ${row.access}`, async () => {
      const [method] = key.split(' ');
      const made = await row.make(w);
      const owner = typeof made.owner === 'object' ? made.owner : w.clients[made.owner ?? 'seeker'];
      const send = (c) => c.request(method, made.path, made.body);
      for (const role of ROLES) {
        const res = await send(w.clients[role]);
        const expected =
          role === 'anonymous' && row.access !== 'public'
            ? UNAUTHORIZED
            : row.access === 'owner'
              ? { status: row.refused[role] }
              : { status: row.ok };
        assert.equal(res.status, expected.status, `${role}: ${show(res)}`);
        if (res.status >= 400) {
          assert.equal(typeof res.body?.message, 'string', `${role}: ${show(res)}`);
          if (expected.message) assert.equal(res.body.message, expected.message);
        } else {
          row.check?.(role, res);
        }
      }
      // Last, the owner: this also proves the refusals above changed nothing (a cancel, delete or
      // review by someone else would make it fail).
      const res = await send(owner);
      assert.equal(res.status, row.ok, `owner: ${show(res)}`);
      row.check?.('owner', res);
    });
  }

  for (const [key, own] of Object.entries(OWN)) {
    it(`${key}: shows the owner's objects to nobody else`, async () => {
      const object = await own.make(w);
      const owner = w.clients[own.owner];
      const mine = await owner.get(own.path());
      assert.equal(mine.status, 200, show(mine));
      assert.ok(own.contains(mine, object), `the owner does not see it: ${show(mine)}`);
      for (const role of ROLES) {
        const res = await w.clients[role].get(own.path());
        if (role === 'anonymous') {
          assert.equal(res.status, 401, show(res));
          continue;
        }
        if (res.status === 200) assert.ok(!own.contains(res, object), `${role} sees the owner's object: ${show(res)}`);
        else assert.ok([403, 404].includes(res.status), `${role}: ${show(res)}`);
      }
    });
  }

  it("POST /api/process-payment-v2 refuses someone else's reservation", async () => {
    const held = await w.newReservation();
    const body = {
      reservationId: held.reservation.id,
      cardNumber: '4111111111111111',
      expirationDate: '1230',
      cardCode: '123',
      billingInfo: { firstName: 'Eve', lastName: 'Other', zip: '10001' },
    };
    for (const role of ROLES) {
      const res = await w.clients[role].post('/api/process-payment-v2', body);
      assert.equal(res.status, role === 'anonymous' ? 401 : 404, `${role}: ${show(res)}`);
    }
    const { rows } = await db.query('SELECT status FROM bookings WHERE id = $1', [held.reservation.id]);
    assert.equal(rows[0].status, 'reserved', 'nobody but the owner paid it');
    await pay(w.seeker, held.reservation.id, w.seekerUser);
  });
});

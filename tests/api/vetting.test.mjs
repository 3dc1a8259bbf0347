// Vetting against the real api processes and worker: a new mentor is pending and nobody else finds,
// opens or books them until an administrator approves them; approval reaches every api process's
// cached catalogue, and the mentor hears of each decision by notification and e-mail. A rejected
// mentor reads the reason and resubmits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { createAdmin } from '../harness/admin.mjs';
import { client, show } from '../harness/client.mjs';
import { mailTo } from '../harness/mail.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

let stack;
before(async () => {
  stack = await startStack({ apis: 2 });
});
after(async () => {
  await stack?.stop();
});

const hourAhead = (hours) =>
  new Date(Math.floor((Date.now() + hours * 3_600_000) / 3_600_000) * 3_600_000).toISOString();
const inUtc = (days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** A mentor who finished onboarding through the API and awaits review: { c, user, mentor, service }. */
async function pendingMentor(name) {
  const user = await createVerifiedUser(stack, { firstName: name });
  const c = await signIn(stack, user);
  const m = await c.post(
    '/api/mentors',
    {
      displayName: `${name} Vale`,
      bio: 'Reading the stars for seekers for many years, with patience and care for every question.',
      specialties: ['Astrology'],
      basePrice: '40.00',
      timeZone: 'UTC',
      minimumNoticeMinutes: 0,
    },
    { pending: true },
  );
  assert.equal(m.status, 201, show(m));
  assert.equal(m.body.approvalStatus, 'pending');
  for (let day = 0; day < 7; day += 1) {
    const a = await c.post('/api/mentor/availability', { dayOfWeek: day, startTime: '00:00', endTime: '24:00' });
    assert.equal(a.status, 201, show(a));
  }
  const s = await c.post('/api/services', {
    title: 'Birth chart reading',
    description: 'An hour with your birth chart and the questions it raises.',
    serviceType: 'astrology',
    price: '40.00',
    duration: 60,
  });
  assert.equal(s.status, 201, show(s));
  return { c, user, mentor: m.body, service: s.body };
}

const listedIn = async (c, query = '') =>
  (await c.get(`/api/mentors?pageSize=50${query}`)).body.mentors.map((m) => m.id);

describe('mentor vetting', () => {
  it('hides a pending mentor from everyone else until an admin approves them, in every api process', async () => {
    const { c: mentorClient, user, mentor, service } = await pendingMentor('Nyx');
    const admin = await createAdmin(stack);
    const seeker = await signIn(stack, await createVerifiedUser(stack));
    const anonymous = [client(stack.baseUrls[0]), client(stack.baseUrls[1])];

    for (const c of [...anonymous, seeker]) {
      assert.ok(!(await listedIn(c)).includes(mentor.id));
      assert.ok(!(await listedIn(c, '&search=Nyx')).includes(mentor.id));
      assert.equal((await c.get(`/api/mentors/${mentor.id}`)).status, 404);
      assert.equal((await c.get(`/api/services/${service.id}`)).status, 404);
      assert.equal(
        (await c.get(`/api/mentors/${mentor.id}/available-slots?date=${inUtc(2)}&timeZone=UTC`)).status,
        404,
      );
    }
    const held = await seeker.post('/api/reservations', {
      serviceId: service.id,
      mentorId: mentor.id,
      scheduledAt: hourAhead(5),
      totalAmount: '40.00',
    });
    assert.equal(held.status, 404, show(held));
    // The mentor sees their own profile, with its status, and their own page.
    const own = await mentorClient.get('/api/mentor/profile');
    assert.equal(own.body.approvalStatus, 'pending');
    assert.equal((await mentorClient.get(`/api/mentors/${mentor.id}`)).status, 200);

    // The admin's list says who awaits review; a bad filter is a 400.
    const queue = await admin.c.get('/api/admin/mentors?approvalStatus=pending');
    assert.equal(queue.status, 200, show(queue));
    assert.deepEqual(
      queue.body.map((m) => [m.id, m.approvalStatus]),
      [[mentor.id, 'pending']],
    );
    assert.equal((await admin.c.get('/api/admin/mentors?approvalStatus=maybe')).status, 400);
    assert.equal((await seeker.post(`/api/admin/mentors/${mentor.id}/approve`, {})).status, 403);

    const approved = await admin.c.post(`/api/admin/mentors/${mentor.id}/approve`, {});
    assert.equal(approved.status, 200, show(approved));
    assert.equal(approved.body.approvalStatus, 'approved');

    // Both api processes list the mentor now (the other one hears of it through the database).
    for (const c of anonymous) {
      await until('the approved mentor to be listed', async () => (await listedIn(c)).includes(mentor.id));
      assert.equal((await c.get(`/api/mentors/${mentor.id}`)).status, 200);
      assert.equal((await c.get(`/api/services/${service.id}`)).status, 200);
    }
    const booked = await seeker.post('/api/reservations', {
      serviceId: service.id,
      mentorId: mentor.id,
      scheduledAt: hourAhead(5),
      totalAmount: '40.00',
    });
    assert.equal(booked.status, 201, show(booked));
    await stack.waitForMail(mailTo(user.email, 'Your mentor profile is approved'));
    const notes = await until('the approval notification', async () => {
      const n = await mentorClient.get('/api/notifications');
      return n.body.find((x) => x.type === 'mentor_approved') && n.body;
    });
    assert.ok(notes.some((n) => n.type === 'mentor_approved'));
  });

  it('tells a rejected mentor why; they resubmit and are pending again', async () => {
    const { c: mentorClient, user, mentor } = await pendingMentor('Orrin');
    const admin = await createAdmin(stack);
    for (const body of [{}, { reason: '' }, { reason: 'x'.repeat(1001) }]) {
      const r = await admin.c.post(`/api/admin/mentors/${mentor.id}/reject`, body);
      assert.equal(r.status, 400, show(r));
    }
    const reason = 'Please tell seekers more about how your readings work.';
    const r = await admin.c.post(`/api/admin/mentors/${mentor.id}/reject`, { reason });
    assert.equal(r.status, 200, show(r));
    assert.equal(r.body.approvalStatus, 'rejected');
    const own = (await mentorClient.get('/api/mentor/profile')).body;
    assert.equal(own.approvalStatus, 'rejected');
    assert.equal(own.rejectionReason, reason);
    const mail = await stack.waitForMail(mailTo(user.email, 'Your mentor profile was not approved'));
    assert.match(mail.text, /Please tell seekers more about how your readings work\./);
    await until('the rejection notification', async () =>
      (await mentorClient.get('/api/notifications')).body.find(
        (n) => n.type === 'mentor_rejected' && n.message.includes(reason),
      ),
    );
    const rejected = await admin.c.get('/api/admin/mentors?approvalStatus=rejected');
    assert.ok(rejected.body.some((m) => m.id === mentor.id && m.rejectionReason === reason));

    const again = await mentorClient.post('/api/mentor/profile/resubmit', {});
    assert.equal(again.status, 200, show(again));
    assert.equal(again.body.approvalStatus, 'pending');
    assert.equal((await mentorClient.post('/api/mentor/profile/resubmit', {})).status, 409);
    assert.equal((await client(stack.baseUrl).get(`/api/mentors/${mentor.id}`)).status, 404);
  });
});

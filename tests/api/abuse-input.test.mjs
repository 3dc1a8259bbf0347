// Hostile input through the real processes: control and bidi characters in every text field,
// giant numbers, image URLs that point at our own endpoints, GET /api/logout, replaced uploads,
// the same-origin check and the security headers.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { client, show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';

let stack;
let mentor; // { c, id, serviceId }
before(async () => {
  stack = await startStack();
  const user = await createVerifiedUser(stack);
  const c = await signIn(stack, user);
  const created = await c.post('/api/mentors', profile());
  assert.equal(created.status, 201, show(created));
  const service = await c.post('/api/services', serviceBody());
  assert.equal(service.status, 201, show(service));
  mentor = { c, id: created.body.id, serviceId: service.body.id };
});
after(async () => {
  await stack?.stop();
});

/** NUL, a raw CR and a right-to-left override, each hidden inside an otherwise valid text. */
const BAD = { nul: '\u0000', cr: '\r', rlo: '\u202E' };
const BIO = 'I have practised astrology for many years and love guiding seekers on their path.';

function profile(overrides = {}) {
  return {
    displayName: 'Orla Seer',
    bio: BIO,
    specialties: ['Astrology'],
    basePrice: '45.00',
    timeZone: 'Europe/London',
    ...overrides,
  };
}
function serviceBody(overrides = {}) {
  return {
    title: 'Natal chart',
    description: 'A reading of your birth chart, explained.',
    serviceType: 'astrology',
    price: '40.00',
    duration: 60,
    ...overrides,
  };
}
const inside = (text, bad) => {
  const at = Math.ceil(text.length / 2);
  return `${text.slice(0, at)}${bad}${text.slice(at)}`;
};

/** Asserts a plain-words 400 (never a 5xx, never an internal detail). */
function assertRefused(res, what) {
  assert.equal(res.status, 400, `${what}: ${show(res)}`);
  assert.equal(typeof res.body?.message, 'string', `${what}: ${show(res)}`);
  assert.doesNotMatch(res.body.message, /sql|panic|utf8|0x00|byte sequence/i, what);
}

describe('text fields refuse control and bidi characters with a 400', () => {
  for (const [kind, bad] of Object.entries(BAD)) {
    it(`registration names and e-mail (${kind})`, async () => {
      const c = client(stack.baseUrl);
      const base = {
        email: `x.${Date.now()}.${kind}@example.com`,
        password: 'correct-horse-42',
        firstName: 'Ada',
        lastName: 'Lovelace',
      };
      for (const field of ['firstName', 'lastName', 'email']) {
        const res = await c.post('/api/register', { ...base, [field]: inside(base[field], bad) });
        assertRefused(res, `register ${field}`);
      }
      const named = await c.post('/api/register', { ...base, firstName: inside('Ada', bad) });
      assert.equal(named.body.message, 'First name contains characters that are not allowed');
    });

    it(`the user's profile (${kind})`, async () => {
      for (const [field, value] of [
        ['firstName', 'Orla'],
        ['lastName', 'Seer'],
        ['email', 'orla@example.com'],
        ['bio', 'A short bio.'],
      ]) {
        assertRefused(await mentor.c.put('/api/user/profile', { [field]: inside(value, bad) }), `profile ${field}`);
      }
    });

    it(`the mentor profile, created and changed (${kind})`, async () => {
      const fresh = await signIn(stack, await createVerifiedUser(stack));
      for (const [field, value] of [
        ['displayName', 'Orla Seer'],
        ['bio', BIO],
        ['timeZone', 'Europe/London'],
      ]) {
        assertRefused(
          await fresh.post('/api/mentors', profile({ [field]: inside(value, bad) })),
          `create mentor ${field}`,
        );
        assertRefused(
          await mentor.c.put('/api/mentor/profile', { [field]: inside(value, bad) }),
          `update mentor ${field}`,
        );
      }
      assertRefused(
        await fresh.post('/api/mentors', profile({ specialties: [inside('Astrology', bad)] })),
        'specialty',
      );
      const title = await mentor.c.put('/api/mentor/profile', { displayName: inside('Orla Seer', bad) });
      assert.equal(title.body.message, 'Display name contains characters that are not allowed');
    });

    it(`services, created and changed (${kind})`, async () => {
      for (const [field, value] of [
        ['title', 'Natal chart'],
        ['description', 'A reading of your birth chart, explained.'],
        ['serviceType', 'astrology'],
      ]) {
        assertRefused(
          await mentor.c.post('/api/services', serviceBody({ [field]: inside(value, bad) })),
          `create service ${field}`,
        );
        assertRefused(
          await mentor.c.put(`/api/mentor/services/${mentor.serviceId}`, { [field]: inside(value, bad) }),
          `update service ${field}`,
        );
      }
      const res = await mentor.c.post('/api/services', serviceBody({ title: inside('Natal chart', bad) }));
      assert.equal(res.body.message, 'Title contains characters that are not allowed');
    });

    it(`booking notes, reasons, review comments and the contact form (${kind})`, async () => {
      const some = '00000000-0000-4000-8000-000000000000';
      const start = new Date(Date.now() + 3 * 86_400_000).toISOString();
      const reserve = await mentor.c.post('/api/reservations', {
        serviceId: mentor.serviceId,
        scheduledAt: start,
        notes: inside('Looking forward', bad),
      });
      assertRefused(reserve, 'reservation notes');
      assert.equal(reserve.body.message, 'Notes contains characters that are not allowed');
      assertRefused(
        await mentor.c.put(`/api/user/bookings/${some}/reschedule`, {
          scheduledAt: start,
          reason: inside('Travel', bad),
        }),
        'reschedule reason',
      );
      assertRefused(
        await mentor.c.put(`/api/user/bookings/${some}/cancel`, {
          acknowledgePolicy: true,
          reason: inside('Travel', bad),
        }),
        'cancel reason',
      );
      assertRefused(
        await mentor.c.post(`/api/bookings/${some}/review`, { rating: 5, comment: inside('Wonderful', bad) }),
        'review comment',
      );
      const contact = {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        subject: 'Hello there',
        category: 'general',
        message: 'A question about sessions.',
      };
      for (const field of ['name', 'subject', 'message']) {
        assertRefused(
          await client(stack.baseUrl).post('/api/contact', { ...contact, [field]: inside(contact[field], bad) }),
          `contact ${field}`,
        );
      }
    });

    it(`search and filters (${kind})`, async () => {
      const anon = client(stack.baseUrl);
      for (const [param, value] of [
        ['search', 'tarot'],
        ['service', 'tarot'],
        ['minPrice', '10'],
        ['maxPrice', '10'],
        ['minRating', '4.5'],
        ['sort', 'rating'],
      ]) {
        const res = await anon.get(`/api/mentors?${param}=${encodeURIComponent(inside(value, bad))}`);
        assertRefused(res, `GET /api/mentors ${param}`);
      }
    });
  }

  it('multi-line texts keep their newlines and tabs', async () => {
    const bio = `${BIO}\n\tSecond paragraph.`;
    const res = await mentor.c.put('/api/mentor/profile', { bio });
    assert.equal(res.status, 200, show(res));
    assert.equal(res.body.bio, bio);
  });
});

describe('numbers are range-checked before any arithmetic', () => {
  const huge = '9223372036854775807';
  it('a giant page or page size is a 400 or an empty page, never a 5xx', async () => {
    const anon = client(stack.baseUrl);
    const page = await anon.get(`/api/mentors?page=${huge}`);
    assertRefused(page, 'page');
    assert.equal(page.body.message, 'Page must be at most 10000');
    for (const query of [
      `page=-${huge}`,
      `pageSize=${huge}`,
      `pageSize=-${huge}`,
      'page=99999999999999999999',
      `page=${huge}&search=tarot`,
    ]) {
      const res = await anon.get(`/api/mentors?${query}`);
      assert.ok(res.status === 200 || res.status === 400, `${query}: ${show(res)}`);
    }
    assert.equal((await anon.get('/api/mentors?page=10000')).body.mentors.length, 0);
  });

  it('giant durations, group sizes and limits are refused', async () => {
    for (const overrides of [
      { duration: Number(huge) },
      { duration: 2 ** 31 },
      { duration: -1 },
      { isGroupSession: true, maxParticipants: 2 ** 32 + 4 },
      { isGroupSession: true, maxParticipants: Number(huge) },
    ]) {
      const res = await mentor.c.post('/api/services', serviceBody(overrides));
      assertRefused(res, `service ${JSON.stringify(overrides)}`);
    }
    const slots = await client(stack.baseUrl).get(
      `/api/mentors/${mentor.id}/available-slots?date=2030-01-01&duration=${huge}`,
    );
    assertRefused(slots, 'available-slots duration');
    const notes = await mentor.c.get(`/api/notifications?limit=${huge}`);
    assert.equal(notes.status, 200, show(notes));
    const bad = await mentor.c.get('/api/notifications?limit=99999999999999999999');
    assertRefused(bad, 'notifications limit beyond i64');
  });
});

describe('profile images are our own uploads only', () => {
  const png = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(64)]);
  async function upload(c) {
    const form = new FormData();
    form.append('profileImage', new Blob([png], { type: 'image/png' }), 'me.png');
    const res = await fetch(new URL('/api/user/profile-image', stack.baseUrl), {
      method: 'POST',
      body: form,
      headers: { origin: stack.baseUrl, cookie: `sid=${c.cookies.sid}` },
    });
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()).imageUrl;
  }

  it('refuses paths of our own API and foreign addresses, in the user and the mentor profile', async () => {
    for (const url of [
      '/uploads/%2e%2e/api/logout',
      '/uploads/../api/logout',
      '/api/logout',
      '/uploads//x.png',
      'http://evil.example/a.png',
      'https://evil.example/a.png',
      'javascript:alert(1)',
    ]) {
      const res = await mentor.c.put('/api/user/profile', { profileImageUrl: url });
      assertRefused(res, `user image ${url}`);
      assert.equal(res.body.message, 'Please enter a valid image URL');
      assertRefused(await mentor.c.put('/api/mentor/profile', { profileImageUrl: url }), `mentor image ${url}`);
    }
  });

  it("another user's upload is refused as a picture, in the user and the mentor profile", async () => {
    const other = await signIn(stack, await createVerifiedUser(stack));
    const theirs = await upload(other);
    const res = await mentor.c.put('/api/user/profile', { profileImageUrl: theirs });
    assertRefused(res, 'user image of another user');
    assert.equal(res.body.message, 'Please enter a valid image URL');
    assertRefused(
      await mentor.c.put('/api/mentor/profile', { profileImageUrl: theirs }),
      'mentor image of another user',
    );
    assert.equal((await other.get('/api/auth/user')).body.profileImageUrl, theirs, 'still only theirs');
    // One's own upload is fine in both.
    const mine = await upload(mentor.c);
    assert.equal((await mentor.c.put('/api/mentor/profile', { profileImageUrl: mine })).status, 200);
    assert.equal((await mentor.c.put('/api/user/profile', { profileImageUrl: mine })).status, 200);
  });

  it('GET /api/logout from another site (or no browser) only shows sign-in; POST signs out', async () => {
    const c = await signIn(stack, await createVerifiedUser(stack));
    for (const site of [undefined, 'cross-site', 'same-site']) {
      const get = await c.get('/api/logout', { headers: site ? { 'sec-fetch-site': site } : {} });
      assert.equal(get.status, 302, show(get));
      assert.equal(get.headers.get('location'), '/auth');
      assert.equal((await c.get('/api/auth/user')).status, 200, `still signed in after ${site ?? 'no Sec-Fetch-Site'}`);
    }
    assert.equal((await c.post('/api/logout')).status, 200);
    assert.equal((await c.get('/api/auth/user')).status, 401);
  });

  it("the browser's own navigation to /api/logout (same-origin, or typed) signs out and shows sign-in", async () => {
    for (const site of ['same-origin', 'none']) {
      const c = await signIn(stack, await createVerifiedUser(stack));
      const get = await c.get('/api/logout', { headers: { 'sec-fetch-site': site } });
      assert.equal(get.status, 302, show(get));
      assert.equal(get.headers.get('location'), '/auth');
      assert.equal((await c.get('/api/auth/user')).status, 401, site);
    }
  });

  it('a replaced upload is deleted by the worker; the current one stays', async () => {
    const c = await signIn(stack, await createVerifiedUser(stack));
    const first = await upload(c);
    const second = await upload(c);
    const file = (url) => path.join(stack.uploadDir, path.basename(url));
    assert.ok(existsSync(file(second)));
    const deadline = Date.now() + 20_000;
    while (existsSync(file(first)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok(!existsSync(file(first)), `${first} was replaced and should be gone: ${await readdir(stack.uploadDir)}`);
    assert.ok(existsSync(file(second)), 'the image in use stays');

    // Set as the mentor image too, then cleared on the user: still shown by the mentor, so kept.
    const mentorUser = mentor.c;
    const shared = await upload(mentorUser);
    assert.equal((await mentorUser.put('/api/mentor/profile', { profileImageUrl: shared })).status, 200);
    assert.equal((await mentorUser.put('/api/user/profile', { profileImageUrl: '' })).status, 200);
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(existsSync(file(shared)), 'still the mentor image');
    assert.equal((await mentorUser.put('/api/mentor/profile', { profileImageUrl: '' })).status, 200);
    const until = Date.now() + 20_000;
    while (existsSync(file(shared)) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    assert.ok(!existsSync(file(shared)), 'gone once nothing shows it');
  });
});

describe('HTTP hardening', () => {
  it('refuses state changes from a look-alike origin, another scheme or another port', async () => {
    const c = await signIn(stack, await createVerifiedUser(stack));
    const url = new URL(stack.baseUrl);
    for (const origin of [
      `${stack.baseUrl}.evil.com`,
      `https://${url.host}`,
      `http://${url.hostname}:${Number(url.port) + 1}`,
      `http://${url.hostname}`,
      'null',
    ]) {
      const res = await c.post('/api/logout', undefined, { headers: { origin } });
      assert.equal(res.status, 403, `${origin}: ${show(res)}`);
    }
    assert.equal((await c.get('/api/auth/user')).status, 200, 'still signed in');
    assert.equal((await c.post('/api/logout', undefined, { headers: { origin: `${stack.baseUrl}/` } })).status, 200);
  });

  it('sets the security headers on every response', async () => {
    const anon = client(stack.baseUrl);
    for (const [p, csp] of [
      ['/api/mentors', "default-src 'none'; frame-ancestors 'none'"],
      ['/api/no-such-thing', "default-src 'none'; frame-ancestors 'none'"],
      ['/uploads/none.png', "default-src 'none'; frame-ancestors 'none'"],
      ['/', null],
      ['/mentors', null],
    ]) {
      const res = await anon.get(p);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff', p);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', p);
      assert.equal(res.headers.get('referrer-policy'), 'strict-origin-when-cross-origin', p);
      const got = res.headers.get('content-security-policy');
      if (csp) assert.equal(got, csp, p);
      else assert.match(got, /default-src 'self';.*script-src 'self';.*frame-ancestors 'none'/, p);
    }
  });
});

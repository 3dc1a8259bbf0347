// The catalogue through the real processes: onboarding, services, search relevance with typos,
// service chips, favourites.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { client, show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

/** A signed-in mentor with one service; resolves to { c, mentor }. */
async function mentor(displayName, bio, serviceType, title) {
  const user = await createVerifiedUser(stack, { firstName: displayName.split(' ')[0] });
  const c = await signIn(stack, user);
  const res = await c.post('/api/mentors', {
    displayName,
    bio,
    specialties: ['Astrology'],
    basePrice: '45.00',
    profileImageUrl: '',
  });
  assert.equal(res.status, 201, show(res));
  const service = await c.post('/api/services', {
    title,
    description: 'A session described in more than twenty characters.',
    serviceType,
    price: '45.00',
    duration: 60,
    isGroupSession: false,
    maxParticipants: 1,
  });
  assert.equal(service.status, 201, show(service));
  return { c, mentor: res.body };
}

describe('search', () => {
  it('finds a mentor whose bio has a misspelled word, and ranks the best match first', async () => {
    const seer = await mentor(
      'Orla Seer',
      'I offer clairvoyent readings of your path, guided by decades of quiet practice and care.',
      'mystical_practices',
      'Intuitive Reading',
    );
    await mentor(
      'Tom Tarot',
      'Classic tarot spreads for everyday questions, explained in plain and kind words.',
      'tarot',
      'Tarot Spread',
    );
    const anon = client(stack.baseUrl);

    const found = await anon.get('/api/mentors?search=clairvoyant');
    assert.equal(found.status, 200, show(found));
    assert.deepEqual(
      found.body.mentors.map((m) => m.displayName),
      ['Orla Seer'],
      show(found),
    );
    assert.equal(found.body.total, 1);

    const typo = await anon.get('/api/mentors?search=tarrot');
    assert.deepEqual(
      typo.body.mentors.map((m) => m.displayName),
      ['Tom Tarot'],
      show(typo),
    );

    const chip = await anon.get('/api/mentors?service=mystical_practices');
    assert.deepEqual(
      chip.body.mentors.map((m) => m.id),
      [seer.mentor.id],
      show(chip),
    );

    const stats = await anon.get('/api/service-stats');
    const tarot = stats.body.find((s) => s.serviceType === 'tarot');
    assert.deepEqual(tarot, { serviceType: 'tarot', mentorCount: 1, minPrice: '45.00' });
  });
});

describe('favourites', () => {
  it('adds, checks, lists and removes a favourite idempotently', async () => {
    const { mentor: m } = await mentor(
      'Fay Vourite',
      'A mentor for the favourites test with a bio long enough to pass.',
      'meditation',
      'Calm Breathing',
    );
    const seeker = await signIn(stack, await createVerifiedUser(stack));
    for (let i = 0; i < 2; i += 1) {
      const add = await seeker.post(`/api/user/favorites/${m.id}`);
      assert.equal(add.status, 200, show(add));
    }
    assert.deepEqual((await seeker.get(`/api/user/favorites/check/${m.id}`)).body, { isFavorited: true });
    const list = await seeker.get('/api/user/favorites');
    assert.deepEqual(
      list.body.map((x) => x.id),
      [m.id],
    );
    await seeker.delete(`/api/user/favorites/${m.id}`);
    assert.deepEqual((await seeker.get('/api/user/favorites')).body, []);
    assert.equal((await client(stack.baseUrl).get('/api/user/favorites')).status, 401);
  });
});

// A typo-tolerant search must not list a mentor only because his name looks like the query:
// 'tarot' is close to 'Tariq', but when mentors offer tarot (in services, specialties or bio),
// a mentor with no tarot anywhere in his profile stays out. With nothing else matching, the name's
// near misses still help someone who misspelled it.
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

async function mentor({ displayName, bio, specialties, serviceType, title }) {
  const c = await signIn(stack, await createVerifiedUser(stack, { firstName: displayName.split(' ')[0] }));
  const res = await c.post('/api/mentors', { displayName, bio, specialties, basePrice: '40.00' });
  assert.equal(res.status, 201, show(res));
  const service = await c.post('/api/services', {
    title,
    description: 'A session described in more than twenty characters.',
    serviceType,
    price: '40.00',
    duration: 60,
  });
  assert.equal(service.status, 201, show(service));
  return res.body;
}

const names = (res) => res.body.mentors.map((m) => m.displayName);

describe('search and fuzzy name matches', () => {
  it("leaves out 'Tariq' from a search for 'tarot' while a tarot reader matches", async () => {
    const anon = client(stack.baseUrl);
    await mentor({
      displayName: 'Tariq Hassan',
      bio: 'Vedic astrology and birth charts, read calmly and explained in plain words.',
      specialties: ['Astrology'],
      serviceType: 'astrology',
      title: 'Birth Chart Reading',
    });
    // With nobody offering tarot yet, the name's near miss is what there is.
    const alone = await anon.get('/api/mentors?search=tarot');
    assert.equal(alone.status, 200, show(alone));
    assert.deepEqual(names(alone), ['Tariq Hassan'], show(alone));
    // A misspelled name still finds its mentor.
    assert.deepEqual(names(await anon.get('/api/mentors?search=tarik')), ['Tariq Hassan']);

    await mentor({
      displayName: 'Rowan Vale',
      bio: 'Twenty years of tarot: the cards as a mirror for your questions.',
      specialties: ['Tarot Reading'],
      serviceType: 'tarot',
      title: 'Three Card Spread',
    });
    const both = await anon.get('/api/mentors?search=tarot');
    assert.deepEqual(names(both), ['Rowan Vale'], show(both));
    assert.equal(both.body.total, 1);
    // A typo of what the reader offers is a match in her profile, not in a name.
    assert.deepEqual(names(await anon.get('/api/mentors?search=tarrot')), ['Rowan Vale']);
    // Searching the name itself still finds Tariq.
    assert.ok(names(await anon.get('/api/mentors?search=tariq')).includes('Tariq Hassan'));
  });
});

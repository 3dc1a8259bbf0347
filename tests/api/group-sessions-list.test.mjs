// GET /api/group-sessions a page at a time (issue 30): `page` and `pageSize` like the other lists,
// the body stays a list and X-Total-Count says how many match on every page; filters named as on
// /api/mentors (`service`, `minPrice`, `maxPrice`, `search`) plus `from` and `to` days.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bookableMentor } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';

let stack;
let mentor;
let viewer;
/** Every session made, soonest first: { id, title, scheduledAt, type, price }. */
const made = [];

/** The start of the hour `hours` ahead, at least a day out so every session is bookable. */
const hoursAhead = (hours) => new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 + hours * 3_600_000);

before(async () => {
  stack = await startStack();
  mentor = await bookableMentor(stack);
  viewer = await signIn(stack, await createVerifiedUser(stack));
  const services = {};
  for (const [type, price, title] of [
    ['meditation', '10.00', 'Quiet lake sitting'],
    ['tarot', '40.00', 'Celtic cross circle'],
  ]) {
    const r = await mentor.c.post('/api/services', {
      title,
      description: 'A group session of the black-box tests, described at length.',
      serviceType: type,
      price,
      duration: 60,
      isGroupSession: true,
      maxParticipants: 8,
    });
    assert.equal(r.status, 201, show(r));
    services[type] = r.body;
  }
  // 13 sessions, one every 5 hours from tomorrow: every third is tarot.
  for (let i = 0; i < 13; i += 1) {
    const type = i % 3 === 2 ? 'tarot' : 'meditation';
    const title = i === 7 ? 'Owl moon gathering' : `${services[type].title} ${i}`;
    const scheduledAt = hoursAhead(24 + 5 * i).toISOString();
    const r = await mentor.c.post('/api/group-sessions', {
      serviceId: services[type].id,
      title,
      scheduledAt,
      maxParticipants: 6,
    });
    assert.equal(r.status, 201, show(r));
    made.push({ id: r.body.id, title, scheduledAt, type, price: services[type].price });
  }
});
after(async () => {
  await stack?.stop();
});

async function list(query = '') {
  const r = await viewer.get(`/api/group-sessions${query}`);
  assert.equal(r.status, 200, show(r));
  assert.ok(Array.isArray(r.body), 'the body stays a list');
  const total = r.headers.get('x-total-count');
  assert.match(total ?? '', /^\d+$/, 'X-Total-Count is sent');
  return { ids: r.body.map((s) => s.id), total: Number(total), body: r.body };
}

describe('GET /api/group-sessions: pages', () => {
  it('answers the first 12, soonest first, with the total of every page in X-Total-Count', async () => {
    const first = await list();
    assert.equal(first.total, 13);
    assert.deepEqual(
      first.ids,
      made.slice(0, 12).map((s) => s.id),
    );
    const second = await list('?page=2');
    assert.deepEqual(second.ids, [made[12].id]);
    assert.equal(second.total, 13);
  });

  it('pages of any size add up to the whole list, and a page past the end is empty', async () => {
    const ids = [];
    for (let page = 1; page <= 3; page += 1) {
      const p = await list(`?page=${page}&pageSize=5`);
      assert.equal(p.total, 13);
      ids.push(...p.ids);
    }
    assert.deepEqual(
      ids,
      made.map((s) => s.id),
    );
    const past = await list('?page=4&pageSize=5');
    assert.deepEqual(past.ids, []);
    assert.equal(past.total, 13);
    // The size is clamped to 1..50, like the mentors' list.
    assert.equal((await list('?pageSize=500')).ids.length, 13);
    assert.equal((await list('?pageSize=0')).ids.length, 1);
  });

  it('refuses a page beyond 10000', async () => {
    const r = await viewer.get('/api/group-sessions?page=10001');
    assert.equal(r.status, 400, show(r));
    assert.equal(r.body.message, 'Page must be at most 10000');
  });
});

describe('GET /api/group-sessions: filters', () => {
  it('by service type, as on /api/mentors', async () => {
    const tarot = await list('?service=tarot&pageSize=50');
    assert.deepEqual(
      tarot.ids,
      made.filter((s) => s.type === 'tarot').map((s) => s.id),
    );
    assert.equal(tarot.total, tarot.ids.length);
    assert.equal((await list('?service=all')).total, 13);
    const bad = await viewer.get('/api/group-sessions?service=crystals');
    assert.equal(bad.status, 400, show(bad));
    assert.equal(bad.body.message, 'Unknown service type');
  });

  it('by price, each edge included', async () => {
    assert.deepEqual(
      (await list('?minPrice=40&pageSize=50')).ids,
      made.filter((s) => s.type === 'tarot').map((s) => s.id),
    );
    assert.deepEqual(
      (await list('?maxPrice=10.00&pageSize=50')).ids,
      made.filter((s) => s.type === 'meditation').map((s) => s.id),
    );
    assert.equal((await list('?minPrice=10.01&maxPrice=39.99')).total, 0);
    const bad = await viewer.get('/api/group-sessions?minPrice=cheap');
    assert.equal(bad.status, 400, show(bad));
    assert.equal(bad.body.message, 'minPrice must be a valid amount');
  });

  it('by words in the title, the mentor or the service, every word counting', async () => {
    assert.deepEqual((await list('?search=owl')).ids, [made[7].id]);
    assert.deepEqual((await list('?search=OWL%20gathering')).ids, [made[7].id]);
    assert.equal((await list('?search=owl%20tarot')).total, 0);
    // The mentor's name finds all of theirs; a wildcard is a character like any other.
    assert.equal((await list(`?search=${encodeURIComponent(mentor.mentor.displayName)}`)).total, 13);
    assert.equal((await list('?search=%25')).total, 0);
    assert.equal((await list('?search=_')).total, 0);
  });

  it('by days: from and to are whole days in the given zone, both included', async () => {
    const day = (iso, zone) => new Date(iso).toLocaleDateString('en-CA', { timeZone: zone });
    for (const zone of ['UTC', 'Pacific/Kiritimati']) {
      const target = day(made[6].scheduledAt, zone);
      const onThatDay = made.filter((s) => day(s.scheduledAt, zone) === target).map((s) => s.id);
      const q = `?from=${target}&to=${target}&timeZone=${encodeURIComponent(zone)}&pageSize=50`;
      assert.deepEqual((await list(q)).ids, onThatDay, zone);
      const fromOn = made.filter((s) => day(s.scheduledAt, zone) >= target).map((s) => s.id);
      assert.deepEqual((await list(`?from=${target}&timeZone=${encodeURIComponent(zone)}&pageSize=50`)).ids, fromOn);
    }
    for (const [q, message] of [
      ['?from=2026-13-01', 'from must be a date (YYYY-MM-DD)'],
      ['?to=tomorrow', 'to must be a date (YYYY-MM-DD)'],
      ['?from=2026-12-01&timeZone=Mars/Olympus', 'Please choose a valid time zone'],
    ]) {
      const r = await viewer.get(`/api/group-sessions${q}`);
      assert.equal(r.status, 400, `${q}: ${show(r)}`);
      assert.equal(r.body.message, message, q);
    }
  });

  it('combines filters with paging: the total counts what every filter lets through', async () => {
    const meditation = made.filter((s) => s.type === 'meditation');
    const p = await list('?service=meditation&maxPrice=10&page=2&pageSize=3');
    assert.equal(p.total, meditation.length);
    assert.deepEqual(
      p.ids,
      meditation.slice(3, 6).map((s) => s.id),
    );
    // One mentor's sessions, as the Book button of a group service asks for them.
    assert.equal((await list(`?mentor=${mentor.mentor.id}`)).total, 13);
    const malformed = await list('?mentor=not-an-id');
    assert.deepEqual(malformed.ids, []);
    assert.equal(malformed.total, 0);
  });
});

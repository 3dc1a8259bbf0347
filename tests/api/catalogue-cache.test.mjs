// The public catalogue is kept in memory by each api process: listings stay exact (totals and
// pages agree with a plain query of the database), and a change made anywhere (another api
// process, the worker, the database) shows in the next listing of every process.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { client, show } from '../harness/client.mjs';
import { startStack, toolsBin } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const GENERATED_MENTORS = 150;

let stack;
let db;
before(async () => {
  stack = await startStack({ apis: 2 });
  await promisify(execFile)(toolsBin, ['seed', '--mentors', String(GENERATED_MENTORS)], { env: stack.env });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

/** Listed mentors, as a plain query says: active profile and user, at least one active service. */
const LISTED = `FROM mentors m JOIN users u ON u.id = m.user_id
  WHERE m.is_active AND u.is_active AND EXISTS (SELECT 1 FROM services s WHERE s.mentor_id = m.id AND s.is_active)`;
const CHEAPEST = '(SELECT min(s.price_cents) FROM services s WHERE s.mentor_id = m.id AND s.is_active)';

/** Filters of the listing and the same filters and order in plain SQL. */
const CASES = [
  { query: '', where: '', order: 'm.rating DESC, m.review_count DESC, m.total_sessions DESC, m.created_at, m.id' },
  {
    query: 'service=tarot',
    where: `AND EXISTS (SELECT 1 FROM services s WHERE s.mentor_id = m.id AND s.is_active AND s.service_type = 'tarot')`,
    order: 'm.rating DESC, m.review_count DESC, m.total_sessions DESC, m.created_at, m.id',
  },
  {
    query: 'minPrice=30&maxPrice=60',
    where: `AND ${CHEAPEST} BETWEEN 3000 AND 6000`,
    order: 'm.rating DESC, m.review_count DESC, m.total_sessions DESC, m.created_at, m.id',
  },
  {
    query: 'sort=price',
    where: '',
    order: `${CHEAPEST} ASC, m.rating DESC, m.review_count DESC, m.total_sessions DESC, m.created_at, m.id`,
  },
  {
    query: 'sort=sessions&minRating=4.5',
    where: 'AND m.rating >= 4.5',
    order: 'm.total_sessions DESC, m.rating DESC, m.review_count DESC, m.created_at, m.id',
  },
];

async function plain(where, order) {
  const { rows } = await db.query(`SELECT m.id ${LISTED} ${where} ORDER BY ${order}`);
  return rows.map((r) => r.id);
}

/** Every page of a listing, pageSize 50, from one api process. */
async function allPages(baseUrl, query) {
  const anon = client(baseUrl);
  const ids = [];
  let total;
  for (let page = 1; ; page += 1) {
    const res = await anon.get(`/api/mentors?${query}&page=${page}&pageSize=50`);
    assert.equal(res.status, 200, show(res));
    total ??= res.body.total;
    assert.equal(res.body.total, total, 'the total is the same on every page');
    ids.push(...res.body.mentors.map((m) => m.id));
    if (res.body.mentors.length < 50) return { total, ids };
  }
}

describe('catalogue listings from memory', () => {
  it('agree with a plain query of the database for every filter, on every page, read twice', async () => {
    for (const { query, where, order } of CASES) {
      const expected = await plain(where, order);
      assert.ok(expected.length > 0, `the seed lists mentors for "${query}"`);
      for (const baseUrl of [...stack.baseUrls, ...stack.baseUrls]) {
        const { total, ids } = await allPages(baseUrl, query);
        assert.equal(total, expected.length, `total for "${query}"`);
        assert.deepEqual(ids, expected, `pages for "${query}"`);
      }
    }
  });

  it('a search lists each match once across its pages, with the same total from both processes', async () => {
    for (const search of ['tarot reading', 'astrolgy', 'dream']) {
      const [a, b] = await Promise.all(stack.baseUrls.map((u) => allPages(u, `search=${encodeURIComponent(search)}`)));
      assert.equal(a.total, a.ids.length, search);
      assert.equal(new Set(a.ids).size, a.ids.length, search);
      assert.deepEqual(b, a, search);
    }
  });

  it("a mentor's change made through one api process shows in the other's next listing and pages", async () => {
    const user = await createVerifiedUser(stack, { firstName: 'Cached' });
    const owner = await signIn(stack, user);
    const created = await owner.post('/api/mentors', {
      displayName: 'Cache Tester',
      bio: 'A mentor whose every change must show at once, in every process, without a restart.',
      specialties: ['Astrology'],
      basePrice: '40.00',
    });
    assert.equal(created.status, 201, show(created));
    const id = created.body.id;
    const [viaA, viaB] = stack.baseUrls.map((u) => client(u));
    const findIn = async (c) =>
      (await c.get('/api/mentors?search=Cache%20Tester')).body.mentors.find((m) => m.id === id);

    // Not listed without a service; both processes have that page in memory now.
    assert.equal(await findIn(viaB), undefined);
    assert.equal(await findIn(viaB), undefined);
    assert.equal((await viaB.get(`/api/mentors/${id}`)).body.services.length, 0);

    const service = await owner.post('/api/services', {
      title: 'Cached Reading',
      description: 'A session described in more than twenty characters.',
      serviceType: 'astrology',
      price: '35.00',
      duration: 60,
      isGroupSession: false,
      maxParticipants: 1,
    });
    assert.equal(service.status, 201, show(service));
    // The process that made the change shows it on the very next request.
    assert.equal((await findIn(client(stack.baseUrl)))?.fromPrice, '35.00');
    // The other process hears of it through PostgreSQL.
    await until('the new service in the other process', async () => (await findIn(viaB))?.fromPrice === '35.00');
    await until(
      'the mentor page in the other process',
      async () => (await viaB.get(`/api/mentors/${id}`)).body.services.length === 1,
    );
    const servicePage = await viaB.get(`/api/services/${service.body.id}`);
    assert.equal(servicePage.body.price, '35.00', show(servicePage));

    const renamed = await owner.put('/api/mentor/profile', { displayName: 'Cache Tester Renamed' });
    assert.equal(renamed.status, 200, show(renamed));
    await until(
      'the new name in the other process',
      async () => (await viaB.get(`/api/mentors/${id}`)).body.displayName === 'Cache Tester Renamed',
    );

    // A listing without a search, in memory before the change (and answered from the snapshot of
    // listed mentors when not): the process that made the change shows it on the very next request.
    const cheap = async () =>
      (await client(stack.baseUrl).get('/api/mentors?maxPrice=25&sort=price&pageSize=50')).body.mentors.map(
        (m) => m.id,
      );
    assert.ok(!(await cheap()).includes(id));
    assert.ok(!(await cheap()).includes(id));
    const repriced = await owner.put(`/api/mentor/services/${service.body.id}`, { price: '25.00' });
    assert.equal(repriced.status, 200, show(repriced));
    await until(
      'the new price on the service page',
      async () => (await viaB.get(`/api/services/${service.body.id}`)).body.price === '25.00',
    );
    assert.equal((await findIn(viaA))?.fromPrice, '25.00');
    assert.ok((await cheap()).includes(id), 'the new price moved the mentor into the filter at once');
  });

  it('a change to one mentor refreshes, in both processes, every cached listing it can alter and no stale page stays', async () => {
    const DEFAULT_ORDER = 'm.rating DESC, m.review_count DESC, m.total_sessions DESC, m.created_at, m.id';
    const [first] = await plain('', DEFAULT_ORDER);
    const word = `zebrafish${Date.now()}`;
    const warm = async () => {
      for (const baseUrl of stack.baseUrls) {
        for (const { query } of CASES) await allPages(baseUrl, query);
        await client(baseUrl).get(`/api/mentors?search=${word}`);
        await client(baseUrl).get('/api/mentors');
      }
    };
    const everyCaseAgrees = async (what) => {
      for (const { query, where, order } of CASES) {
        const expected = await plain(where, order);
        for (const baseUrl of stack.baseUrls) {
          await until(`${what}: "${query}" from ${baseUrl}`, async () => {
            const { total, ids } = await allPages(baseUrl, query);
            return total === expected.length && JSON.stringify(ids) === JSON.stringify(expected);
          });
        }
      }
    };

    // Only what its card shows (the time zone): the default listing's first page shows it anew.
    await warm();
    await db.query(`UPDATE mentors SET time_zone = 'Asia/Tokyo' WHERE id = $1`, [first]);
    for (const baseUrl of stack.baseUrls) {
      await until('the new time zone on the first page', async () => {
        const res = await client(baseUrl).get('/api/mentors');
        return res.body.mentors.find((m) => m.id === first)?.timeZone === 'Asia/Tokyo';
      });
    }

    // Its search text: a search that did not list it before lists it now.
    await warm();
    await db.query(`UPDATE mentors SET bio = bio || ' ' || $2 WHERE id = $1`, [first, word]);
    for (const baseUrl of stack.baseUrls) {
      await until('the new word found', async () => {
        const res = await client(baseUrl).get(`/api/mentors?search=${word}`);
        return res.body.total === 1 && res.body.mentors[0].id === first;
      });
    }

    // Its price, moving it into and out of the price filter and along the price order; then its
    // rating, moving it along every order; then its user's active flag, out of every listing.
    const { rows: others } = await db.query(`SELECT id FROM mentors WHERE id <> $1 ORDER BY id LIMIT 1`, [first]);
    for (const [what, sql, id] of [
      ['a price into the filter', 'UPDATE services SET price_cents = 4500 WHERE mentor_id = $1', first],
      ['a price out of the filter, first by price', 'UPDATE services SET price_cents = 1 WHERE mentor_id = $1', first],
      ['a rating', 'UPDATE mentors SET rating = 4.51, review_count = review_count + 3 WHERE id = $1', others[0].id],
      ['sessions', 'UPDATE mentors SET total_sessions = total_sessions + 500 WHERE id = $1', others[0].id],
      [
        'a deactivated user',
        'UPDATE users SET is_active = false WHERE id = (SELECT user_id FROM mentors WHERE id = $1)',
        first,
      ],
    ]) {
      await warm();
      await db.query(sql, [id]);
      await everyCaseAgrees(what);
    }
  });

  it('a change to a mentor a cached page does not show leaves that page in memory', async () => {
    const listed = await plain('', 'm.rating DESC, m.review_count DESC, m.total_sessions DESC, m.created_at, m.id');
    const last = listed.at(-1); // far from the first page
    const word = `quokka${Date.now()}`;
    const counter = async (name) => {
      const text = await (await fetch(`${stack.baseUrl}/metrics`)).text();
      return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
    };
    const viaA = client(stack.baseUrl);
    await viaA.get('/api/mentors');
    await db.query(`UPDATE mentors SET bio = bio || ' ' || $2 WHERE id = $1`, [last, word]);
    // Heard: every search was forgotten, the new word is found.
    await until('the change heard', async () => (await viaA.get(`/api/mentors?search=${word}`)).body.total === 1);
    const [hits, misses] = [await counter('catalogue_cache_hits_total'), await counter('catalogue_cache_misses_total')];
    assert.equal((await viaA.get('/api/mentors')).status, 200);
    assert.equal(await counter('catalogue_cache_hits_total'), hits + 1, 'the first page came from memory');
    assert.equal(await counter('catalogue_cache_misses_total'), misses);
  });

  it('a change written straight into the database (as the worker does) reaches both processes', async () => {
    const [first] = await plain('', 'm.rating DESC, m.review_count DESC, m.total_sessions DESC, m.created_at, m.id');
    for (const baseUrl of stack.baseUrls) await client(baseUrl).get(`/api/mentors/${first}`);
    const { rows } = await db.query(
      'UPDATE mentors SET total_sessions = total_sessions + 1 WHERE id = $1 RETURNING total_sessions',
      [first],
    );
    for (const baseUrl of stack.baseUrls) {
      await until(
        'the new session count',
        async () => (await client(baseUrl).get(`/api/mentors/${first}`)).body.totalSessions === rows[0].total_sessions,
      );
    }
    await db.query('UPDATE mentors SET is_active = false WHERE id = $1', [first]);
    for (const baseUrl of stack.baseUrls) {
      await until(
        'the deactivated mentor gone',
        async () => (await client(baseUrl).get(`/api/mentors/${first}`)).status === 404,
      );
    }
  });
});

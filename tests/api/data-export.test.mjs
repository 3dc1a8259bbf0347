// Download my data (issue 35, section 1): a job builds a zip of the user's data; the owner alone
// downloads it, for 7 days; one request a day.
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import AdmZip from 'adm-zip';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { mailTo } from '../harness/mail.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const READY_SUBJECT = 'Your data is ready to download';
const COMMON_FILES = [
  'README.txt',
  'profile.json',
  'bookings.json',
  'payments.json',
  'messages.json',
  'reviews.json',
  'notifications.json',
  'favorites.json',
  'preferences.json',
];
const MENTOR_FILES = ['mentor.json', 'services.json', 'availability.json', 'earnings.json', 'payouts.json'];
const PNG = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(64, 7)]);

let stack;
let db;
let mentor;
let seeker;
let seekerUser;
let stranger;
let booking;
before(async () => {
  stack = await startStack({ worker: true });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  mentor = await bookableMentor(stack);
  seekerUser = await createVerifiedUser(stack);
  seeker = await signIn(stack, seekerUser);
  stranger = await signIn(stack, await createVerifiedUser(stack));
  const held = await reserve(seeker, mentor, startIn(30));
  booking = await pay(seeker, held.reservation.id, seekerUser);
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

async function say(c, text) {
  const conv = await c.post('/api/conversations', { mentorId: mentor.mentor.id });
  assert.ok([200, 201].includes(conv.status), show(conv));
  const m = await c.post(`/api/conversations/${conv.body.id}/messages`, { content: text });
  assert.equal(m.status, 201, show(m));
  return conv.body.id;
}

async function uploadImage(c) {
  const form = new FormData();
  form.append('profileImage', new Blob([PNG], { type: 'image/png' }), 'me.png');
  const res = await fetch(new URL('/api/user/profile-image', stack.baseUrl), {
    method: 'POST',
    body: form,
    headers: { origin: stack.baseUrl, cookie: `sid=${c.cookies.sid}` },
  });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()).imageUrl;
}

/** A new task id as apalis makes them (a ULID: 48 bits of milliseconds, 80 random bits, Crockford base32). */
function ulid() {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let time = Date.now();
  let out = '';
  for (let i = 0; i < 10; i += 1) {
    out = alphabet[time % 32] + out;
    time = Math.floor(time / 32);
  }
  for (let i = 0; i < 16; i += 1) out += alphabet[Math.floor(Math.random() * 32)];
  return out;
}

async function download(c, id) {
  return fetch(new URL(`/api/user/data-exports/${id}/download`, stack.baseUrl), {
    headers: { cookie: `sid=${c.cookies.sid}` },
  });
}

/** Asks for an export and waits until the job has built it; resolves to its id. */
async function exportReady(c) {
  const res = await c.post('/api/user/data-export');
  assert.equal(res.status, 202, show(res));
  assert.equal(res.body.status, 'pending');
  assert.match(res.body.id, /^[0-9a-f-]{36}$/);
  await until(
    'the export is ready',
    async () => {
      const list = await c.get('/api/user/data-exports');
      return list.body.find((e) => e.id === res.body.id)?.status === 'ready';
    },
    60_000,
  );
  return res.body.id;
}

/** Downloads and opens the archive: name -> text. */
async function openArchive(c, id) {
  const res = await download(c, id);
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(res.headers.get('content-type'), 'application/zip');
  assert.match(res.headers.get('content-disposition'), /attachment; filename=".*\.zip"/);
  const zip = new AdmZip(Buffer.from(await res.arrayBuffer()));
  return new Map(zip.getEntries().map((e) => [e.entryName, e.getData()]));
}

describe('download my data', () => {
  it('builds a zip of every file, with the user own messages and none of a stranger', async () => {
    const mine = `my private question ${Date.now()}`;
    const theirs = `a stranger's secret ${Date.now()}`;
    const conversation = await say(seeker, mine);
    const reply = await mentor.c.post(`/api/conversations/${conversation}/messages`, { content: 'the mentor answers' });
    assert.equal(reply.status, 201, show(reply));
    await say(stranger, theirs);
    const image = await uploadImage(seeker);

    const id = await exportReady(seeker);
    const files = await openArchive(seeker, id);
    for (const name of COMMON_FILES) assert.ok(files.has(name), `${name} in ${[...files.keys()]}`);
    for (const name of MENTOR_FILES) assert.ok(!files.has(name), `no ${name} for a seeker`);
    const json = {};
    for (const [name, data] of files) {
      if (name.endsWith('.json')) json[name] = JSON.parse(data.toString('utf8'));
    }
    const readme = files.get('README.txt').toString('utf8');
    for (const name of [...COMMON_FILES.slice(1), ...MENTOR_FILES, 'uploads/']) assert.ok(readme.includes(name), name);

    assert.equal(json['profile.json'].email, seekerUser.email);
    assert.equal(json['profile.json'].firstName, seekerUser.firstName);
    const all = files.get('messages.json').toString('utf8');
    assert.ok(all.includes(mine), 'the user own message');
    assert.ok(all.includes('the mentor answers'), "the other side's messages of the user's conversation");
    assert.ok(!all.includes(theirs), "none of a stranger's");
    const [conv] = json['messages.json'];
    assert.equal(conv.id, conversation);
    assert.ok(conv.messages.every((m) => m.senderId && m.createdAt && m.content));
    assert.ok(json['bookings.json'].some((b) => b.id === booking.id && b.status === 'confirmed'));
    assert.ok(json['payments.json'].payments.some((p) => p.bookingId === booking.id && p.amount === '30.00'));
    assert.ok(Array.isArray(json['payments.json'].refunds));
    assert.ok(json['payments.json'].receipts.length >= 1, 'the receipt of the payment');
    assert.ok(Array.isArray(json['reviews.json'].written));
    assert.ok(Array.isArray(json['notifications.json']));
    assert.ok(Array.isArray(json['favorites.json']));
    assert.ok('email' in json['preferences.json']);
    const name = image.split('/').pop();
    assert.deepEqual(files.get(`uploads/${name}`), PNG, 'the uploaded file itself');

    // Ready: notified and e-mailed.
    await stack.waitForMail(mailTo(seekerUser.email, READY_SUBJECT));
    await until('the notification', async () => {
      const n = await seeker.get('/api/notifications');
      return n.body.some?.((x) => x.type === 'data_export_ready');
    });
  });

  it("a mentor's archive has the mentor files", async () => {
    const id = await exportReady(mentor.c);
    const files = await openArchive(mentor.c, id);
    for (const name of [...COMMON_FILES, ...MENTOR_FILES]) assert.ok(files.has(name), name);
    for (const [name, data] of files) if (name.endsWith('.json')) JSON.parse(data.toString('utf8'));
    const m = JSON.parse(files.get('mentor.json').toString('utf8'));
    assert.equal(m.id, mentor.mentor.id);
    const services = JSON.parse(files.get('services.json').toString('utf8'));
    assert.equal(services[0].id, mentor.service.id);
    assert.equal(JSON.parse(files.get('availability.json').toString('utf8')).weekly.length, 7);
    const bookings = JSON.parse(files.get('bookings.json').toString('utf8'));
    assert.ok(bookings.some((b) => b.id === booking.id && b.as === 'mentor'));
  });

  it('allows one request a day: a second within 24 hours is 429 rate_limited', async () => {
    const res = await seeker.post('/api/user/data-export');
    assert.equal(res.status, 429, show(res));
    assert.equal(res.body.code, 'rate_limited');
    assert.ok(res.body.message);
    const list = await seeker.get('/api/user/data-exports');
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 1, 'nothing new');
    for (const e of list.body) {
      assert.deepEqual(Object.keys(e).sort(), ['createdAt', 'expiresAt', 'id', 'status']);
    }
  });

  it("is the owner's only: 404 to anyone else, 401 signed out", async () => {
    const [mine] = (await seeker.get('/api/user/data-exports')).body;
    const other = await download(stranger, mine.id);
    assert.equal(other.status, 404);
    assert.equal((await other.json()).code, 'not_found');
    assert.equal((await download(stranger, '00000000-0000-0000-0000-000000000000')).status, 404);
    assert.equal((await download(stranger, 'not-an-id')).status, 404);
    const anonymous = await fetch(new URL(`/api/user/data-exports/${mine.id}/download`, stack.baseUrl));
    assert.equal(anonymous.status, 401);
    assert.equal((await stranger.get('/api/user/data-exports')).body.length, 0);
  });

  it('is gone after its 7 days (410 gone), listed expired, and the cleanup deletes the file', async () => {
    const [mine] = (await seeker.get('/api/user/data-exports')).body;
    assert.equal(mine.status, 'ready');
    const days = (Date.parse(mine.expiresAt) - Date.parse(mine.createdAt)) / 86_400_000;
    assert.ok(days > 6.99 && days < 7.01, `${days} days`);
    await db.query("UPDATE data_exports SET expires_at = now() - interval '1 minute' WHERE id = $1", [mine.id]);
    const res = await download(seeker, mine.id);
    assert.equal(res.status, 410);
    assert.equal((await res.json()).code, 'gone');
    const list = (await seeker.get('/api/user/data-exports')).body;
    assert.equal(list[0].status, 'expired');

    // The hourly cleanup (one tick queued by hand) deletes the archive.
    const file = path.join(stack.env.EXPORT_DIR, `${mine.id.replaceAll('-', '')}.zip`);
    await access(file);
    await db.query(
      `INSERT INTO apalis.jobs (id, job_type, job, status, attempts, max_attempts, run_at)
       VALUES ($1, 'data_exports_cleanup', convert_to('{"tick":1}', 'UTF8'), 'Pending', 0, 3, now())`,
      [ulid()],
    );
    await until('the cleanup deleted the archive', async () => {
      const { rows } = await db.query('SELECT status, file_name FROM data_exports WHERE id = $1', [mine.id]);
      return rows[0].status === 'expired' && rows[0].file_name === null;
    });
    await assert.rejects(access(file), { code: 'ENOENT' });
    assert.equal((await download(seeker, mine.id)).status, 410);
  });
});

// Data export figures (not a test): a user with 10,000 messages (in 20 conversations, both sides)
// asks for a copy of their data; seconds from the request until the export is ready (the issue's
// target: under a minute), the archive's size, and seconds to download it.
//
//   node bench/data-export-bench.mjs [--messages 10000] [--conversations 20]
// Binaries: API_BIN / WORKER_BIN (scripts/bench passes its release build), else the debug build.
// A fresh database on DATABASE_URL's server (or the local cluster), dropped at the end.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { client } from '../harness/client.mjs';
import { apiBin, startStack, workerBin } from '../harness/stack.mjs';

const { values } = parseArgs({
  options: { messages: { type: 'string', default: '10000' }, conversations: { type: 'string', default: '20' } },
});
const messages = Number(values.messages);
const conversations = Number(values.conversations);
/** The target for a user with 10,000 messages. */
const TARGET_SECONDS = 60;

console.log(`api ${apiBin}\nworker ${workerBin}`);
const stack = await startStack({ worker: true, env: { RUST_LOG: 'warn,jobs::data_export=info' } });
const db = new pg.Client({ connectionString: stack.databaseUrl });
await db.connect();
try {
  const c = client(stack.baseUrl);
  const email = 'bench.exporter@example.com';
  let r = await c.post('/api/register', {
    email,
    password: 'bench-password-1',
    firstName: 'Bench',
    lastName: 'Exporter',
  });
  if (r.status !== 201) throw new Error(`register: ${r.status} ${r.text}`);
  await db.query('UPDATE users SET email_verified = true WHERE email = $1', [email]);
  r = await c.post('/api/login', { email, password: 'bench-password-1' });
  if (r.status !== 200) throw new Error(`login: ${r.status} ${r.text}`);
  let t = performance.now();
  // Mentors to talk to, one conversation each, and the messages alternating between the two sides.
  await db.query(`
    INSERT INTO users (email, password_hash, first_name, last_name, email_verified)
    SELECT 'bench.mentor.' || i || '@example.com', 'x', 'Bench', 'Mentor ' || i, true FROM generate_series(1, ${conversations}) i`);
  await db.query(`
    INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents, approval_status)
    SELECT id, last_name, repeat('A mentor made by the export benchmark. ', 2), '{Astrology}', 4000, 'approved'
    FROM users WHERE email LIKE 'bench.mentor.%'`);
  await db.query(
    `INSERT INTO conversations (mentor_id, user_id, last_message_at)
     SELECT m.id, (SELECT id FROM users WHERE email = $1), now() FROM mentors m`,
    [email],
  );
  await db.query(
    `WITH c AS (SELECT c.id, c.user_id, m.user_id AS mentor_user, row_number() OVER (ORDER BY c.id) - 1 AS k
                FROM conversations c JOIN mentors m ON m.id = c.mentor_id)
     INSERT INTO messages (conversation_id, sender_id, content, created_at)
     SELECT c.id, CASE WHEN i % 2 = 0 THEN c.user_id ELSE c.mentor_user END,
            'Message ' || i || ': ' || repeat('what do the cards say about next month? ', 3),
            now() - make_interval(secs => ${messages} - i)
     FROM generate_series(0, ${messages} - 1) i JOIN c ON c.k = i % ${conversations}`,
  );
  await db.query('ANALYZE');
  console.log(
    `data: ${messages} messages in ${conversations} conversations (${((performance.now() - t) / 1000).toFixed(1)} s to insert)`,
  );

  t = performance.now();
  r = await c.post('/api/user/data-export');
  if (r.status !== 202) throw new Error(`export: ${r.status} ${r.text}`);
  const id = r.body.id;
  for (;;) {
    const list = await c.get('/api/user/data-exports');
    const status = list.body.find((e) => e.id === id)?.status;
    if (status === 'ready') break;
    if (status === 'failed') throw new Error('the export failed');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - t) / 1000;
  t = performance.now();
  const res = await fetch(new URL(`/api/user/data-exports/${id}/download`, stack.baseUrl), {
    headers: { cookie: `sid=${c.cookies.sid}` },
  });
  const bytes = (await res.arrayBuffer()).byteLength;
  const download = (performance.now() - t) / 1000;
  console.log(
    `export: ready in ${seconds.toFixed(2)} s (target under ${TARGET_SECONDS} s: ${seconds < TARGET_SECONDS ? 'met' : 'NOT met'}), ` +
      `archive ${(bytes / 1024).toFixed(0)} KiB, downloaded in ${download.toFixed(2)} s`,
  );
} finally {
  await db.end();
  await stack.stop();
}

// Mentor vetting in the tests. A new mentor profile awaits an administrator's review before it is
// listed or bookable; the tests of everything after vetting want a bookable mentor at once, so a
// profile created through the harness client (POST /api/mentors answering 201) on a stack is
// approved straight away in the stack's database, as an administrator would, unless the call
// passes `{ pending: true }` (the vetting tests do). Browser onboarding goes through the web and
// stays pending: those tests call `approveMentor` themselves.
import pg from 'pg';

/** api address -> the stack's database URL, for every running stack of this process. */
const databases = new Map();

/** Called by startStack / stop. */
export function registerStack(baseUrls, databaseUrl) {
  for (const u of baseUrls) databases.set(new URL(u).origin, databaseUrl);
}

export function unregisterStack(baseUrls) {
  for (const u of baseUrls) databases.delete(new URL(u).origin);
}

/** Approves the mentor profile `mentorId` in the database of `stack` (or of a database URL). */
export async function approveMentor(stackOrUrl, mentorId) {
  const databaseUrl = typeof stackOrUrl === 'string' ? stackOrUrl : stackOrUrl.databaseUrl;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rowCount } = await db.query(
      "UPDATE mentors SET approval_status = 'approved', rejection_reason = NULL, reviewed_at = now() WHERE id = $1",
      [mentorId],
    );
    if (rowCount !== 1) throw new Error(`no mentor ${mentorId} to approve`);
  } finally {
    await db.end();
  }
}

/** The client's hook: approves a mentor just created through it, unless asked not to. */
export async function afterRequest(baseUrl, method, path, opts, res) {
  if (method !== 'POST' || res.status !== 201 || opts.pending) return;
  if (new URL(path, baseUrl).pathname !== '/api/mentors') return;
  const databaseUrl = databases.get(new URL(baseUrl).origin);
  if (!databaseUrl || !res.body?.id) return;
  await approveMentor(databaseUrl, res.body.id);
  res.body.approvalStatus = 'approved';
}

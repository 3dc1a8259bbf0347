// Every route of the web app, read from its router (web/src/app/routes.tsx), and a product state
// with real ids for each route parameter: the accessibility scan, the keyboard and the phone walks
// share them. `pageSettled` waits until a page has drawn its content (heading, no spinner or
// skeleton, network quiet), so an axe scan or a screenshot sees the page and not its loading state.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import pg from 'pg';
import { expect } from '@playwright/test';
import { createVerifiedUser, signIn } from './accounts.mjs';
import { show } from './client.mjs';
import { createAdmin } from './admin.mjs';
import { bookableMentor, pay, reserve, startIn } from './booking.mjs';
import { groupService, groupSessionWithSeats } from './group-sessions.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ARTIFACTS = path.resolve(here, '..', 'artifacts');
const ROUTES_FILE = path.resolve(here, '..', '..', 'web', 'src', 'app', 'routes.tsx');

/** The paths of the router: { public: [...], signedIn: [...] } ('/' counts as both). */
export function routerPaths() {
  const source = fs.readFileSync(ROUTES_FILE, 'utf8');
  const table = (name) => {
    const start = source.indexOf(`export const ${name}`);
    if (start < 0) throw new Error(`${name} not found in ${ROUTES_FILE}`);
    const body = source.slice(start, source.indexOf('];', start));
    return [...body.matchAll(/path: '([^']+)'/g)].map((m) => m[1]);
  };
  return { public: ['/', ...table('PUBLIC_ROUTES')], signedIn: table('SIGNED_IN_ROUTES') };
}

/** Fills `:param`s of a router path from `ids`; throws for a parameter the tests have no id for. */
export function concretePath(route, ids) {
  return route.replace(/:(\w+)/g, (_, name) => {
    const key = `${route.split('/')[1]}:${name}`;
    if (!(key in ids)) throw new Error(`no id for ${key} of route ${route}: add one to seedPages`);
    return ids[key];
  });
}

/**
 * A product with something on every page: a bookable mentor with a paid one-to-one booking and a
 * started group session holding the seeker's seat, a conversation between them, an ended chat
 * reading, and an admin.
 * Resolves to { seeker, mentor, admin, ids } where seeker/mentor/admin are { user, c } and ids maps
 * '<first path segment>:<param>' to a real id.
 */
export async function seedPages(stack) {
  const mentor = await bookableMentor(stack);
  const seekerUser = await createVerifiedUser(stack, { firstName: 'Orion', lastName: 'Seeker' });
  const seekerClient = await signIn(stack, seekerUser);
  const seekerId = (await seekerClient.get('/api/auth/user')).body.id;
  const reservation = await reserve(seekerClient, mentor, startIn(26));
  const booking = await pay(seekerClient, reservation.reservation.id, seekerUser);
  const conversation = await seekerClient.post('/api/conversations', { mentorId: mentor.mentor.id });
  assert.ok([200, 201].includes(conversation.status), show(conversation));
  const sent = await seekerClient.post(`/api/conversations/${conversation.body.id}/messages`, {
    content: 'Hello, looking forward to our reading.',
  });
  assert.equal(sent.status, 201, show(sent));
  const group = await groupService(mentor);
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  let sessionId;
  let groupBookingId;
  let readingId;
  try {
    sessionId = await groupSessionWithSeats(db, mentor, group, [seekerId], { startMinutes: -5 });
    const { rows } = await db.query('SELECT id FROM bookings WHERE group_session_id = $1', [sessionId]);
    groupBookingId = rows[0].id;
    // A chat reading the seeker had with the mentor, ended within its free minutes (nothing charged).
    const reading = await db.query(
      `INSERT INTO instant_sessions (seeker_id, mentor_id, mode, status, per_minute_rate_cents, free_minutes,
         conversation_id, expires_at, started_at, ended_at, end_reason, minutes_billed)
       VALUES ($1, $2, 'chat', 'ended', 199, 3, $3, now() - interval '20 minutes', now() - interval '19 minutes',
         now() - interval '17 minutes', 'seeker', 2) RETURNING id`,
      [seekerId, mentor.mentor.id, conversation.body.id],
    );
    readingId = reading.rows[0].id;
  } finally {
    await db.end();
  }
  const admin = await createAdmin(stack);
  return {
    seeker: { user: seekerUser, c: seekerClient, id: seekerId },
    mentor,
    admin,
    booking,
    ids: {
      'mentor:id': mentor.mentor.id,
      'booking:serviceId': mentor.service.id,
      'group-booking:bookingId': groupBookingId,
      'group-video-call:sessionId': sessionId,
      'profile:id': mentor.mentor.userId,
      'reading:id': readingId,
    },
  };
}

/**
 * Puts the session cookie of a signed-in harness client into the page's context, with the
 * `signed_in=1` cookie the api sets beside it at sign-in (the web asks for the user only then).
 */
export async function usePageAs(page, stack, c) {
  await page.context().clearCookies();
  if (c) {
    await page.context().addCookies([
      { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
      { name: 'signed_in', value: '1', url: stack.baseUrl },
    ]);
  }
}

/** Waits until the page shows its content: a heading, no loading spinner or skeleton, quiet network. */
export async function pageSettled(page) {
  await page.waitForLoadState('networkidle');
  // A heading on screen (on a phone, an open conversation hides the list and its h1).
  await expect(page.locator('h1:visible, h2:visible').first()).toBeVisible();
  await expect(page.locator('[role="status"][aria-label^="Loading"], .animate-pulse')).toHaveCount(0);
}

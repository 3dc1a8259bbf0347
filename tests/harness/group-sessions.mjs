// Group sessions written straight into a stack's database, for tests about what happens once one
// exists (calls, benchmarks): the api only creates sessions in the future, and a test of a live
// call needs one that has started.
import assert from 'node:assert/strict';
import { show } from './client.mjs';

/** A group service of `mentor` (from bookableMentor); resolves to the service. */
export async function groupService(mentor, { price = '20.00', maxParticipants = 4 } = {}) {
  const r = await mentor.c.post('/api/services', {
    title: 'Full moon circle',
    description: 'A guided group meditation under the full moon for a few seekers at once.',
    serviceType: 'meditation',
    price,
    duration: 60,
    isGroupSession: true,
    maxParticipants,
  });
  assert.equal(r.status, 201, show(r));
  return r.body;
}

/**
 * A 60-minute session of `service` starting `startMinutes` from now (negative: already started),
 * with a confirmed seat for each of `seekerIds`; resolves to its id. `db` is a pg client on the
 * stack's database.
 */
export async function groupSessionWithSeats(
  db,
  mentor,
  service,
  seekerIds,
  { startMinutes = -5, maxParticipants = 4 } = {},
) {
  const { rows } = await db.query(
    `INSERT INTO group_sessions (mentor_id, service_id, title, scheduled_at, ends_at, max_participants)
     VALUES ($1, $2, $3, now() + make_interval(mins => $4), now() + make_interval(mins => $4 + 60), $5) RETURNING id`,
    [mentor.mentor.id, service.id, service.title, startMinutes, maxParticipants],
  );
  const id = rows[0].id;
  for (const userId of seekerIds) await addSeat(db, id, userId);
  return id;
}

/** A confirmed seat in group session `id` for `userId`. */
export async function addSeat(db, id, userId) {
  await db.query(
    `INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents, confirmed_at, group_session_id)
     SELECT $1, g.mentor_id, g.service_id, 'confirmed', g.scheduled_at, g.ends_at, 0, now(), g.id FROM group_sessions g WHERE g.id = $2`,
    [userId, id],
  );
}

// Booking helpers shared by the operational tests: a bookable mentor, slot times and card payment.
import assert from 'node:assert/strict';
import { createVerifiedUser, signIn } from './accounts.mjs';
import { show } from './client.mjs';

export const APPROVED_CARD = '4111111111111111';

/**
 * A new verified user who becomes a mentor in UTC, available around the clock and at no notice
 * (tests book sessions starting within the hour), with one service (paid 30.00 by default).
 * Resolves to { c (the mentor's signed-in client), user, mentor, service }.
 */
export async function bookableMentor(
  stack,
  { price = '30.00', baseUrl = stack.baseUrl, minimumNoticeMinutes = 0 } = {},
) {
  const user = await createVerifiedUser(stack);
  const c = await signIn({ ...stack, baseUrl }, user);
  const m = await c.post('/api/mentors', {
    displayName: 'Orla Ops',
    bio: 'Available day and night for the operational tests, with a bio long enough to pass.',
    specialties: ['Astrology'],
    basePrice: price,
    timeZone: 'UTC',
    minimumNoticeMinutes,
  });
  assert.equal(m.status, 201, show(m));
  for (let day = 0; day < 7; day += 1) {
    const a = await c.post('/api/mentor/availability', { dayOfWeek: day, startTime: '00:00', endTime: '24:00' });
    assert.equal(a.status, 201, show(a));
  }
  const s = await c.post('/api/services', {
    title: 'Hour reading',
    description: 'Sixty minutes of reading for the operational tests.',
    serviceType: 'astrology',
    price,
    duration: 60,
  });
  assert.equal(s.status, 201, show(s));
  return { c, user, mentor: m.body, service: s.body };
}

/**
 * The start of the hour `hours` from now, as ISO. Whole hours, because a 60-minute slot must fit
 * inside one availability window: one starting at 23:30 would cross midnight into the next day's
 * window and is not offered.
 */
export function startIn(hours) {
  const t = Date.now() + hours * 3_600_000;
  return new Date(Math.floor(t / 3_600_000) * 3_600_000).toISOString();
}

/** Holds a paid slot: POST /api/reservations, asserting 201; resolves to the response body. */
export async function reserve(c, { mentor, service }, scheduledAt) {
  const r = await c.post('/api/reservations', {
    serviceId: service.id,
    mentorId: mentor.id,
    scheduledAt,
    totalAmount: service.price,
  });
  assert.equal(r.status, 201, show(r));
  return r.body;
}

/** Pays a reservation with the approved test card; asserts success and resolves to the booking. */
export async function pay(c, reservationId, user) {
  const r = await c.post('/api/process-payment-v2', {
    reservationId,
    cardNumber: APPROVED_CARD,
    expirationDate: '1230',
    cardCode: '123',
    billingInfo: { firstName: user.firstName, lastName: user.lastName, zip: '10001' },
  });
  assert.equal(r.status, 200, show(r));
  assert.equal(r.body.success, true, show(r));
  return r.body.booking;
}

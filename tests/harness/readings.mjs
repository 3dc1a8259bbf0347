// Readings now (issue 36) and the wallet that pays them, for tests on one stack: mentors online with
// a per-minute rate, seekers with money in their wallet, a reading requested and accepted, its start
// moved back in SQL (time is never slept), and the wallet's figures read straight from the database.
//
//   const r = readings(stack, db);   // db: a pg client on the stack's database
//   const m = await r.onlineMentor('2.00');
//   const s = await r.seeker('50.00');
//   const reading = await r.startReading(s, m, 'chat');
//   r.closeSockets();                 // in after()
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createVerifiedUser, signIn } from './accounts.mjs';
import { APPROVED_CARD, bookableMentor } from './booking.mjs';
import { show } from './client.mjs';
import { connect } from './realtime.mjs';

/** A wallet top-up of `amount` (a decimal string) by card; resolves to the response. */
export function topUp(c, amount, { card = APPROVED_CARD, key = crypto.randomUUID() } = {}) {
  return c.post('/api/wallet/top-up', {
    amount,
    cardNumber: card,
    expirationDate: '1230',
    cardCode: '123',
    billingInfo: { firstName: 'Ada', lastName: 'Lovelace', zip: '10001' },
    clientRequestId: key,
  });
}

/** The wallet's figures of a user, in cents, from the database: the balance and the ledger's sum. */
export function walletFigures(db) {
  const one = async (sql, params) => (await db.query(sql, params)).rows[0].n;
  return {
    balanceCents: (userId) =>
      one('SELECT coalesce((SELECT balance_cents FROM wallets WHERE user_id = $1), 0)::int AS n', [userId]),
    entriesSum: (userId) =>
      one('SELECT coalesce(sum(amount_cents), 0)::int AS n FROM wallet_entries WHERE user_id = $1', [userId]),
  };
}

export function readings(stack, db) {
  const sockets = [];

  /** A mentor online with a per-minute rate: { c, mentor, socket }. */
  async function onlineMentor(rate = '2.00') {
    const m = await bookableMentor(stack);
    const r = await m.c.put('/api/mentor/profile', { perMinuteRate: rate, instantModes: ['chat', 'video'] });
    assert.equal(r.status, 200, show(r));
    const socket = await connect(stack, m.c);
    sockets.push(socket);
    const on = await m.c.put('/api/mentor/presence', { status: 'available' });
    assert.equal(on.status, 200, show(on));
    return { ...m, socket };
  }

  /** A seeker with `amount` in the wallet: { c, id, user, socket }. */
  async function seeker(amount = '50.00') {
    const user = await createVerifiedUser(stack);
    const c = await signIn(stack, user);
    if (amount) {
      const r = await topUp(c, amount);
      assert.equal(r.body.success, true, show(r));
    }
    const id = (await c.get('/api/auth/user')).body.id;
    const socket = await connect(stack, c);
    sockets.push(socket);
    return { c, id, user, socket };
  }

  /** `s` requests a reading of `m` in `mode` and `m` accepts it: the accepted reading. */
  async function startReading(s, m, mode = 'chat') {
    const r = await s.c.post('/api/instant-sessions', { mentorId: m.mentor.id, mode });
    assert.equal(r.status, 201, show(r));
    const a = await m.c.post(`/api/instant-sessions/${r.body.id}/accept`);
    assert.equal(a.status, 200, show(a));
    return a.body;
  }

  /** The reading started `seconds` earlier than it did: time moves in SQL. */
  async function moveBack(id, seconds) {
    await db.query('UPDATE instant_sessions SET started_at = started_at - make_interval(secs => $2) WHERE id = $1', [
      id,
      seconds,
    ]);
  }

  return {
    onlineMentor,
    seeker,
    startReading,
    moveBack,
    topUp,
    ...walletFigures(db),
    closeSockets: () => sockets.forEach((s) => s.ws.close()),
  };
}

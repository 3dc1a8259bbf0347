// Issue 36, §1: the prepaid balance. Top-ups through the gateway path of bookings and their ledger,
// the 10.00..500.00 and 1,000.00 rules, a doubled request charged once, a balance the database keeps
// at or above zero, and an admin's refund to the newest top-ups' cards first, audited.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { createAdmin } from '../harness/admin.mjs';
import { client, show } from '../harness/client.mjs';
import { topUp, walletFigures } from '../harness/readings.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const OTHER_APPROVED_CARD = '5555555555554444';
const DECLINED_CARD = '4000000000000002';

let stack;
let db;
let balanceCents, entriesSum;
before(async () => {
  stack = await startStack();
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  ({ balanceCents, entriesSum } = walletFigures(db));
});
after(async () => {
  await db?.end();
  await stack?.stop();
});

const one = async (sql, params = []) => (await db.query(sql, params)).rows[0];

async function seeker() {
  const user = await createVerifiedUser(stack);
  const c = await signIn(stack, user);
  const id = (await c.get('/api/auth/user')).body.id;
  return { user, c, id };
}

describe('the wallet', () => {
  it('starts empty, and needs a session', async () => {
    const anonymous = await client(stack.baseUrl).get('/api/wallet');
    assert.equal(anonymous.status, 401, show(anonymous));
    const { c } = await seeker();
    const r = await c.get('/api/wallet');
    assert.equal(r.status, 200, show(r));
    assert.equal(r.body.balance, '0.00');
    assert.deepEqual(r.body.entries, []);
    assert.equal(r.body.total, 0);
  });

  it('a top-up charges the card once, credits the balance, lists a signed entry and issues a receipt', async () => {
    const { c, id } = await seeker();
    const r = await topUp(c, '50.00');
    assert.equal(r.status, 200, show(r));
    assert.equal(r.body.success, true, show(r));
    assert.equal(r.body.balance, '50.00');
    const w = await c.get('/api/wallet');
    assert.equal(w.body.balance, '50.00');
    assert.equal(w.body.total, 1);
    const [entry] = w.body.entries;
    assert.equal(entry.kind, 'top_up');
    assert.equal(entry.amount, '50.00');
    assert.ok(entry.id && entry.createdAt && entry.reference, show(w));
    const receipts = await c.get('/api/receipts');
    assert.equal(receipts.status, 200, show(receipts));
    assert.equal(receipts.body.length, 1, show(receipts));
    assert.equal(receipts.body[0].kind, 'payment');
    assert.equal(receipts.body[0].amount, '50.00');
    assert.equal(receipts.body[0].bookingId, null);
    assert.equal(receipts.body[0].cardLast4, '1111');
    assert.equal(await entriesSum(id), 5000);
    assert.equal(await balanceCents(id), 5000);
  });

  it('takes 10.00 to 500.00 at a time', async () => {
    const { c, id } = await seeker();
    for (const amount of ['9.99', '500.01', '-10', 'abc', undefined]) {
      const r = await topUp(c, amount);
      assert.equal(r.status, 400, `${amount}: ${show(r)}`);
      assert.equal(r.body.message, 'Amount must be between 10.00 and 500.00');
    }
    assert.equal((await topUp(c, '10.00')).body.success, true);
    assert.equal((await topUp(c, 500)).body.success, true);
    assert.equal(await balanceCents(id), 51000);
  });

  it('holds at most 1,000.00', async () => {
    const { c, id } = await seeker();
    for (const amount of ['500.00', '450.00', '50.00']) {
      const r = await topUp(c, amount);
      assert.equal(r.body.success, true, show(r));
    }
    const over = await topUp(c, '10.00');
    assert.equal(over.status, 409, show(over));
    assert.equal(over.body.message, 'A balance can hold at most $1000.00: you can add up to $0.00 now.');
    assert.equal(await balanceCents(id), 100000);
  });

  it('a declined card moves no money', async () => {
    const { c, id } = await seeker();
    const r = await topUp(c, '20.00', { card: DECLINED_CARD });
    assert.equal(r.status, 200, show(r));
    assert.equal(r.body.success, false);
    assert.equal(r.body.code, 'payment_declined');
    assert.equal(r.body.balance, '0.00');
    assert.equal((await c.get('/api/wallet')).body.total, 0);
    assert.equal(await balanceCents(id), 0);
  });

  it('the same clientRequestId sent eight times at once charges once', async () => {
    const { c, id } = await seeker();
    const key = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 8 }, () => topUp(c, '25.00', { key })));
    for (const r of answers) {
      assert.equal(r.status, 200, show(r));
      assert.ok(r.body.success || r.body.code === 'payment_pending', show(r));
    }
    const again = await topUp(c, '25.00', { key });
    assert.equal(again.body.success, true, show(again));
    assert.equal(again.body.balance, '25.00');
    const charges = await one(
      `SELECT count(*)::int AS n FROM test_gateway.transactions g JOIN wallet_top_ups t ON t.reference = g.reference
       WHERE t.user_id = $1 AND g.kind = 'charge'`,
      [id],
    );
    assert.equal(charges.n, 1);
    assert.equal(await balanceCents(id), 2500);
    assert.equal((await c.get('/api/wallet')).body.total, 1);
  });

  it('the database refuses a balance below zero and any change to an entry', async () => {
    const { c, id } = await seeker();
    assert.equal((await topUp(c, '10.00')).body.success, true);
    await assert.rejects(
      db.query("INSERT INTO wallet_entries (user_id, kind, amount_cents, note) VALUES ($1, 'adjustment', -1001, 'x')", [
        id,
      ]),
      /wallets_balance_not_negative/,
    );
    await assert.rejects(
      db.query('UPDATE wallet_entries SET amount_cents = 1 WHERE user_id = $1', [id]),
      /never changed/,
    );
    await assert.rejects(db.query('DELETE FROM wallet_entries WHERE user_id = $1', [id]), /never changed/);
    assert.equal(await balanceCents(id), 1000);
  });

  it('pages the entries, newest first', async () => {
    const { c } = await seeker();
    for (const amount of ['10.00', '11.00', '12.00']) assert.equal((await topUp(c, amount)).body.success, true);
    const first = await c.get('/api/wallet?page=1&pageSize=2');
    assert.deepEqual(
      first.body.entries.map((e) => e.amount),
      ['12.00', '11.00'],
    );
    assert.equal(first.body.total, 3);
    const second = await c.get('/api/wallet?page=2&pageSize=2');
    assert.deepEqual(
      second.body.entries.map((e) => e.amount),
      ['10.00'],
    );
    // Schemathesis found this page/size pair overflowing the offset (a 500 before).
    const far = await c.get('/api/wallet?pageSize=576460752303423488&page=9223372036854775806');
    assert.equal(far.status, 200, JSON.stringify(far.body));
    assert.deepEqual(far.body.entries, []);
    assert.equal(far.body.total, 3);
  });
});

describe('wallet refunds', () => {
  it('an admin refunds to the newest top-ups first, audited, and the gateway pays each part once', async () => {
    const { c, id } = await seeker();
    assert.equal((await topUp(c, '40.00')).body.success, true);
    assert.equal((await topUp(c, '30.00', { card: OTHER_APPROVED_CARD })).body.success, true);
    const admin = await createAdmin(stack);
    const r = await admin.c.post(`/api/admin/wallets/${id}/refund`, {
      amount: '50.00',
      reason: 'Leaving the platform',
    });
    assert.equal(r.status, 201, show(r));
    assert.equal(r.body.balance, '20.00');
    assert.deepEqual(
      r.body.refunds.map((p) => [p.amount, p.cardLast4]),
      [
        ['30.00', '4444'],
        ['20.00', '1111'],
      ],
    );
    const w = await c.get('/api/wallet');
    assert.equal(w.body.balance, '20.00');
    assert.deepEqual(
      w.body.entries
        .filter((e) => e.kind === 'refund')
        .map((e) => e.amount)
        .sort(),
      ['-20.00', '-30.00'],
    );
    assert.equal(await entriesSum(id), await balanceCents(id));
    const audit = await one(
      "SELECT count(*)::int AS n FROM admin_audit WHERE action = 'wallet.refund' AND object_id = $1",
      [String(id)],
    );
    assert.equal(audit.n, 1);
    await until('both refunds paid back', async () => {
      const done = await one(
        "SELECT count(*)::int AS n FROM wallet_refunds WHERE user_id = $1 AND status = 'succeeded'",
        [id],
      );
      return done.n === 2;
    });
    const atGateway = await one(
      `SELECT count(*)::int AS n FROM test_gateway.transactions g JOIN wallet_refunds r ON g.reference = left(replace(r.id::text, '-', ''), 20)
       WHERE r.user_id = $1 AND g.kind = 'refund'`,
      [id],
    );
    assert.equal(atGateway.n, 2);
  });

  it('refuses more than the balance, a missing reason, and everyone but admins', async () => {
    const { c, id } = await seeker();
    assert.equal((await topUp(c, '15.00')).body.success, true);
    const admin = await createAdmin(stack);
    const more = await admin.c.post(`/api/admin/wallets/${id}/refund`, { amount: '15.01', reason: 'x' });
    assert.equal(more.status, 409, show(more));
    assert.equal(more.body.message, 'The refund cannot be more than the balance ($15.00)');
    const noReason = await admin.c.post(`/api/admin/wallets/${id}/refund`, { amount: '1.00' });
    assert.equal(noReason.status, 400, show(noReason));
    const self = await c.post(`/api/admin/wallets/${id}/refund`, { amount: '1.00', reason: 'mine' });
    assert.equal(self.status, 403, show(self));
    const unknown = await admin.c.post(`/api/admin/wallets/${crypto.randomUUID()}/refund`, {
      amount: '1.00',
      reason: 'x',
    });
    assert.equal(unknown.status, 404, show(unknown));
    assert.equal(await balanceCents(id), 1500);
  });
});

describe('a top-up whose answer is lost', () => {
  let lossy;
  let ldb;
  before(async () => {
    lossy = await startStack({
      env: { PAYMENT_TEST_CHARGE_FAULT: 'timeout-after-approve', PAYMENT_RECONCILE_AFTER_SECONDS: '1' },
    });
    ldb = new pg.Client({ connectionString: lossy.databaseUrl });
    await ldb.connect();
  });
  after(async () => {
    await ldb?.end();
    await lossy?.stop();
  });

  it('is pending, then reconciled: credited once, and the same key answers with the balance', async () => {
    const user = await createVerifiedUser(lossy);
    const c = await signIn(lossy, user);
    const id = (await c.get('/api/auth/user')).body.id;
    const key = crypto.randomUUID();
    const r = await topUp(c, '30.00', { key });
    assert.equal(r.status, 200, show(r));
    assert.equal(r.body.success, false);
    assert.equal(r.body.code, 'payment_pending');
    assert.equal(r.body.balance, '0.00');
    await until('the reconciliation job to credit the top-up', async () => {
      const row = (await ldb.query('SELECT balance_cents FROM wallets WHERE user_id = $1', [id])).rows[0];
      return row?.balance_cents === '3000' || row?.balance_cents === 3000;
    });
    const again = await topUp(c, '30.00', { key });
    assert.equal(again.body.success, true, show(again));
    assert.equal(again.body.balance, '30.00');
    const charges = (
      await ldb.query(
        `SELECT count(*)::int AS n FROM test_gateway.transactions g JOIN wallet_top_ups t ON t.reference = g.reference
         WHERE t.user_id = $1 AND g.kind = 'charge'`,
        [id],
      )
    ).rows[0].n;
    assert.equal(charges, 1);
    assert.equal((await c.get('/api/receipts')).body.length, 1);
  });
});

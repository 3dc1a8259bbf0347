// Abuse limits (15-minute windows): failed logins per account (10) and per client address
// (LOGIN_MAX_FAILURES_PER_ADDRESS, 100; 5 here), and e-mail requests per address (10, each of
// forgot-password and resend-verification).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser, register, signIn } from '../harness/accounts.mjs';
import { client, show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';

function assertTooMany(res, what) {
  assert.equal(res.status, 429, `${what}: ${show(res)}`);
  assert.equal(typeof res.body?.message, 'string', `${what}: a {message} body: ${show(res)}`);
}

describe('failed logins per account (default 10)', () => {
  let stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack?.stop();
  });

  it('the 11th failure for one account is refused with 429, even with the right password', async () => {
    const user = await createVerifiedUser(stack);
    const c = client(stack.baseUrl);
    for (let i = 1; i <= 10; i++) {
      const res = await c.post('/api/login', { email: user.email, password: `wrong-password-${i}` });
      assert.equal(res.status, 401, `failure ${i}: ${show(res)}`);
    }
    assertTooMany(await c.post('/api/login', { email: user.email, password: 'wrong-password-11' }), 'the 11th attempt');
    assertTooMany(
      await c.post('/api/login', { email: user.email, password: user.password }),
      'the right password while locked',
    );
  });

  it('another account from the same address is not affected', async () => {
    const other = await createVerifiedUser(stack);
    await signIn(stack, other);
  });
});

describe('no stranger can lock an account (TRUST_PROXY, addresses from X-Forwarded-For)', () => {
  let stack;
  before(async () => {
    stack = await startStack({ env: { TRUST_PROXY: 'true' } });
  });
  after(async () => {
    await stack?.stop();
  });
  const from = (address) => ({ headers: { 'x-forwarded-for': address } });

  it('ten failures from one address refuse that address only; the owner signs in from another', async () => {
    const user = await createVerifiedUser(stack);
    const c = client(stack.baseUrl);
    for (let i = 1; i <= 10; i++) {
      const res = await c.post('/api/login', { email: user.email, password: `wrong-${i}` }, from('203.0.113.7'));
      assert.equal(res.status, 401, `failure ${i}: ${show(res)}`);
    }
    assertTooMany(
      await c.post('/api/login', { email: user.email, password: user.password }, from('203.0.113.7')),
      'the address that failed',
    );
    const owner = await c.post('/api/login', { email: user.email, password: user.password }, from('198.51.100.20'));
    assert.equal(owner.status, 200, show(owner));
  });

  it('past 50 failures from many addresses every attempt waits 2 s, and the right one still works', async () => {
    const user = await createVerifiedUser(stack);
    const c = client(stack.baseUrl);
    for (let i = 1; i <= 50; i++) {
      const res = await c.post('/api/login', { email: user.email, password: `wrong-${i}` }, from(`192.0.2.${i}`));
      assert.equal(res.status, 401, `failure ${i}: ${show(res)}`);
    }
    const started = Date.now();
    const res = await c.post('/api/login', { email: user.email, password: user.password }, from('198.51.100.9'));
    assert.equal(res.status, 200, show(res));
    assert.ok(Date.now() - started >= 2000, 'the answer waited at least 2 s');
  });
});

describe('e-mail requests per address (default 10 each)', () => {
  let stack;
  before(async () => {
    // No worker: the messages queue up; only the answers matter here.
    stack = await startStack({ worker: false });
  });
  after(async () => {
    await stack?.stop();
  });

  it('the 11th forgot-password request is refused with 429', async () => {
    const user = await register(stack);
    const c = client(stack.baseUrl);
    for (let i = 1; i <= 10; i++) {
      const res = await c.post('/api/forgot-password', { email: user.email });
      assert.equal(res.status, 200, `request ${i}: ${show(res)}`);
    }
    assertTooMany(await c.post('/api/forgot-password', { email: user.email }), 'the 11th request');
  });

  it('resend-verification has its own budget: 10 pass, the 11th is refused with 429', async () => {
    const user = await register(stack);
    const c = client(stack.baseUrl);
    for (let i = 1; i <= 10; i++) {
      const res = await c.post('/api/resend-verification', { email: user.email });
      assert.equal(res.status, 200, `request ${i}: ${show(res)}`);
    }
    assertTooMany(await c.post('/api/resend-verification', { email: user.email }), 'the 11th request');
  });
});

describe('failed logins per address (LOGIN_MAX_FAILURES_PER_ADDRESS=5)', () => {
  let stack;
  let users;
  before(async () => {
    stack = await startStack({ env: { LOGIN_MAX_FAILURES_PER_ADDRESS: '5' } });
    users = [];
    for (let i = 0; i < 4; i++) users.push(await createVerifiedUser(stack));
  });
  after(async () => {
    await stack?.stop();
  });

  it('five failures spread over three accounts exhaust the address; the next failure gets 429', async () => {
    const c = client(stack.baseUrl);
    const plan = [users[0], users[0], users[1], users[1], users[2]];
    for (const [i, user] of plan.entries()) {
      const res = await c.post('/api/login', { email: user.email, password: `wrong-password-${i}` });
      assert.equal(res.status, 401, `failure ${i + 1} (${user.email}): ${show(res)}`);
    }
    assertTooMany(
      await c.post('/api/login', { email: users[2].email, password: 'wrong-password-x' }),
      'the 6th failure',
    );
    assertTooMany(
      await c.post('/api/login', { email: users[3].email, password: 'wrong-password-y' }),
      'a failure for an account that never failed before',
    );
  });

  it('the blocked address cannot sign in to an untouched account either', async () => {
    const res = await client(stack.baseUrl).post('/api/login', { email: users[3].email, password: users[3].password });
    assertTooMany(res, 'the right password from a blocked address');
  });
});

// Behind an appending proxy the client writes the left of X-Forwarded-For itself: the api reads the
// entry the trusted proxy added (TRUSTED_PROXY_HOPS from the right, default 1), so forged left
// entries never spread one client over many budgets.
describe('forged X-Forwarded-For entries (TRUST_PROXY=true, one trusted proxy)', () => {
  let stack;
  before(async () => {
    stack = await startStack({ env: { TRUST_PROXY: 'true' } });
  });
  after(async () => {
    await stack?.stop();
  });
  const forged = (i, proxySaw = '10.9.9.9') => ({ headers: { 'x-forwarded-for': `192.0.2.${i}, ${proxySaw}` } });

  it('failed sign-ins with a new forged left entry each still reach 429 after 10', async () => {
    const user = await createVerifiedUser(stack);
    const c = client(stack.baseUrl);
    for (let i = 1; i <= 10; i++) {
      const res = await c.post('/api/login', { email: user.email, password: `wrong-${i}` }, forged(i));
      assert.equal(res.status, 401, `failure ${i}: ${show(res)}`);
    }
    assertTooMany(
      await c.post('/api/login', { email: user.email, password: user.password }, forged(11)),
      'the 11th attempt from the same proxied client',
    );
    const elsewhere = await c.post(
      '/api/login',
      { email: user.email, password: user.password },
      forged(12, '10.8.8.8'),
    );
    assert.equal(elsewhere.status, 200, `the owner behind another address: ${show(elsewhere)}`);
  });

  it('reset mails with a new forged left entry each still reach 429 after 10', async () => {
    const c = client(stack.baseUrl);
    const proxySaw = '10.7.7.7';
    for (let i = 1; i <= 10; i++) {
      // A new recipient each time, so only the per-address limit is in play.
      const res = await c.post('/api/forgot-password', { email: `nobody-${i}@example.com` }, forged(i, proxySaw));
      assert.equal(res.status, 200, `request ${i}: ${show(res)}`);
    }
    assertTooMany(
      await c.post('/api/forgot-password', { email: 'nobody-11@example.com' }, forged(11, proxySaw)),
      'the 11th request from the same proxied client',
    );
  });
});

describe('TRUSTED_PROXY_HOPS=2: the entry two from the right is the client', () => {
  let stack;
  before(async () => {
    stack = await startStack({ env: { TRUST_PROXY: 'true', TRUSTED_PROXY_HOPS: '2' } });
  });
  after(async () => {
    await stack?.stop();
  });

  it('forged entries left of it and the inner proxy right of it do not move the budget', async () => {
    const user = await createVerifiedUser(stack);
    const c = client(stack.baseUrl);
    const via = (i, client_ = '198.51.100.7') => ({
      headers: { 'x-forwarded-for': `192.0.2.${i}, ${client_}, 10.0.0.${i}` },
    });
    for (let i = 1; i <= 10; i++) {
      const res = await c.post('/api/login', { email: user.email, password: `wrong-${i}` }, via(i));
      assert.equal(res.status, 401, `failure ${i}: ${show(res)}`);
    }
    assertTooMany(await c.post('/api/login', { email: user.email, password: user.password }, via(11)), 'the 11th');
    const other = await c.post('/api/login', { email: user.email, password: user.password }, via(12, '198.51.100.8'));
    assert.equal(other.status, 200, `another client: ${show(other)}`);
  });
});

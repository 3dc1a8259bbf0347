// Prometheus metrics of the api (GET /metrics) and of the worker (WORKER_METRICS_ADDR), scraped as
// Prometheus would: only loopback requests without forwarding headers, or the bearer METRICS_TOKEN,
// may read either (a proxy on the same host forwards over loopback, so a forwarded request needs the
// token whatever client it names); a fresh process shows every series before any traffic (counters
// and gauges at zero); requests are counted by the route as openapi.yaml writes it; sockets, the
// catalogue cache, the pool and the job queues have their figures; the worker counts and times its
// tasks and records the payout batch's last success.
import assert from 'node:assert/strict';
import os from 'node:os';
import { after, before, describe, it } from 'node:test';
import { createAdmin } from '../harness/admin.mjs';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { connect } from '../harness/realtime.mjs';
import { freePort, startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

const TOKEN = 'metrics-token-for-tests';
let stack;
let workerMetrics;

before(async () => {
  workerMetrics = `127.0.0.1:${await freePort()}`;
  stack = await startStack({ env: { METRICS_TOKEN: TOKEN, WORKER_METRICS_ADDR: workerMetrics } });
});
after(async () => {
  await stack?.stop();
});

async function scrape(url = `${stack.baseUrl}/metrics`, headers = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
}

/** The value of the first sample of `name` whose labels include every one of `labels`. */
function sample(text, name, labels = {}) {
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[3]);
  }
  return undefined;
}

/** This machine's first address that is not loopback, if it has one. */
function outsideAddress() {
  for (const list of Object.values(os.networkInterfaces()))
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return null;
}

/** The `# HELP` line of `name`, if the text describes it. */
const described = (text, name) => text.split('\n').some((line) => line.startsWith(`# HELP ${name} `));

// First in the file: the stack has answered nothing but the harness's readiness checks yet.
describe('a fresh process', () => {
  it('the api shows every series at once: sockets and the catalogue cache at zero, the pool and the queues', async () => {
    const { status, text } = await scrape();
    assert.equal(status, 200);
    assert.equal(sample(text, 'websocket_connections'), 0, text);
    assert.equal(sample(text, 'catalogue_cache_hits_total'), 0);
    assert.equal(sample(text, 'catalogue_cache_misses_total'), 0);
    for (const state of ['idle', 'in_use']) assert.ok(sample(text, 'db_pool_connections', { state }) >= 0, state);
    assert.ok(sample(text, 'job_queue_depth', { queue: 'emails', state: 'pending' }) >= 0);
    for (const name of [
      'websocket_connections',
      'catalogue_cache_hits_total',
      'catalogue_cache_misses_total',
      'db_pool_connections',
      'realtime_notify_received_total',
    ])
      assert.ok(described(text, name), `${name} is described`);
    assert.ok(sample(text, 'realtime_notify_received_total') >= 0);
  });

  it('the worker shows its counters at zero for every queue and the payout batch as never run', async () => {
    const url = `http://${workerMetrics}/metrics`;
    const text = await until('the worker to serve its metrics', async () => {
      const s = await scrape(url).catch(() => null);
      return s?.status === 200 && s.text;
    });
    for (const queue of ['emails', 'payout_batch'])
      for (const outcome of ['succeeded', 'failed'])
        assert.ok(sample(text, 'jobs_completed_total', { queue, outcome }) >= 0, `${queue} ${outcome}: ${text}`);
    assert.equal(sample(text, 'jobs_completed_total', { queue: 'payout_batch', outcome: 'succeeded' }), 0);
    assert.equal(sample(text, 'payout_batch_last_success_timestamp_seconds'), 0);
    assert.ok(sample(text, 'db_pool_connections', { state: 'idle' }) >= 0);
    for (const name of ['jobs_completed_total', 'payout_batch_last_success_timestamp_seconds', 'db_pool_connections'])
      assert.ok(described(text, name), `${name} is described`);
  });
});

describe('api /metrics', () => {
  it('a request a proxy forwarded needs the token, even over loopback and naming loopback', async () => {
    for (const headers of [
      { 'x-forwarded-for': '203.0.113.9' },
      { 'x-forwarded-for': '127.0.0.1' },
      { forwarded: 'for=203.0.113.9' },
      { 'x-real-ip': '203.0.113.9' },
    ]) {
      assert.equal((await scrape(undefined, headers)).status, 403, JSON.stringify(headers));
      const withToken = await scrape(undefined, { ...headers, authorization: `Bearer ${TOKEN}` });
      assert.equal(withToken.status, 200, JSON.stringify(headers));
    }
  });

  it('answers loopback; a remote peer only with the token, never by X-Forwarded-For', async (t) => {
    const local = await scrape();
    assert.equal(local.status, 200);
    assert.match(local.type, /^text\/plain/);
    const ip = outsideAddress();
    if (!ip) return t.skip('no address other than loopback on this machine');
    const remote = `http://${ip}:${stack.port}/metrics`;
    assert.equal((await scrape(remote)).status, 403);
    assert.equal((await scrape(remote, { 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1' })).status, 403);
    assert.equal((await scrape(remote, { authorization: 'Bearer wrong' })).status, 403);
    const withToken = await scrape(remote, { authorization: `Bearer ${TOKEN}` });
    assert.equal(withToken.status, 200);
    assert.ok(sample(withToken.text, 'http_requests_total') !== undefined);
  });

  it('counts and times requests by their openapi route, and shows sockets, cache, pool and queues', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    assert.equal((await fetch(`${stack.baseUrl}/api/mentors/${id}`)).status, 404);
    assert.equal((await fetch(`${stack.baseUrl}/api/mentors/${id}`)).status, 404);
    for (let i = 0; i < 2; i += 1) assert.equal((await fetch(`${stack.baseUrl}/api/mentors`)).status, 200);
    const user = await signIn(stack, await createVerifiedUser(stack));
    const ws = await connect(stack, user);

    let { text } = await scrape();
    assert.equal(sample(text, 'http_requests_total', { method: 'GET', route: '/api/mentors/{id}', status: '404' }), 2);
    assert.ok(sample(text, 'http_requests_total', { method: 'POST', route: '/api/login', status: '200' }) >= 1);
    assert.ok(
      sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '/api/mentors/{id}' }) >= 2,
      'a histogram of durations by route',
    );
    assert.ok(sample(text, 'http_request_duration_seconds_bucket', { route: '/api/mentors/{id}', le: '+Inf' }) >= 2);
    assert.equal(sample(text, 'websocket_connections'), 1);
    assert.ok(sample(text, 'catalogue_cache_hits_total') >= 1, 'the second listing came from memory');
    assert.ok(sample(text, 'catalogue_cache_misses_total') >= 1);
    assert.ok(sample(text, 'db_pool_connections', { state: 'idle' }) >= 0);
    assert.ok(sample(text, 'db_pool_connections', { state: 'in_use' }) >= 1, 'the scrape itself holds one');
    for (const state of ['pending', 'scheduled', 'running', 'failed', 'set_aside'])
      assert.ok(sample(text, 'job_queue_depth', { queue: 'emails', state }) >= 0, state);
    assert.ok(sample(text, 'job_oldest_due_seconds', { queue: 'payout_batch' }) >= 0);

    ws.close();
    await until(
      'the socket to be counted closed',
      async () => sample((await scrape()).text, 'websocket_connections') === 0,
    );
  });
});

describe('worker metrics', () => {
  it('follow the rule of the api: loopback without forwarding headers, else the token', async () => {
    const url = `http://${workerMetrics}/metrics`;
    assert.equal((await scrape(url)).status, 200);
    assert.equal((await scrape(url, { 'x-forwarded-for': '203.0.113.9' })).status, 403);
    assert.equal((await scrape(url, { 'x-forwarded-for': '127.0.0.1' })).status, 403);
    assert.equal((await scrape(url, { 'x-forwarded-for': '203.0.113.9', authorization: 'Bearer wrong' })).status, 403);
    const withToken = await scrape(url, { 'x-forwarded-for': '203.0.113.9', authorization: `Bearer ${TOKEN}` });
    assert.equal(withToken.status, 200);
    assert.ok(sample(withToken.text, 'jobs_completed_total', { queue: 'emails', outcome: 'failed' }) >= 0);
  });

  it('counts and times tasks and records the payout batch', async () => {
    const url = `http://${workerMetrics}/metrics`;
    // The sign-ups above sent e-mails through the worker.
    let text = await until('e-mail tasks to be counted', async () => {
      const s = await scrape(url);
      return sample(s.text, 'jobs_completed_total', { queue: 'emails', outcome: 'succeeded' }) >= 1 && s.text;
    });
    assert.ok(sample(text, 'job_duration_seconds_count', { queue: 'emails' }) >= 1);
    assert.ok(sample(text, 'job_duration_seconds_bucket', { queue: 'emails', le: '+Inf' }) >= 1);
    assert.ok(sample(text, 'db_pool_connections', { state: 'idle' }) >= 0);
    assert.equal(sample(text, 'payout_batch_last_success_timestamp_seconds'), 0, 'never run yet');

    const admin = await createAdmin(stack);
    const before = Date.now() / 1000;
    assert.equal((await admin.c.post('/api/admin/payouts/run', {})).status, 202);
    text = await until('the payout batch to succeed', async () => {
      const s = await scrape(url);
      return sample(s.text, 'payout_batch_last_success_timestamp_seconds') > 0 && s.text;
    });
    const at = sample(text, 'payout_batch_last_success_timestamp_seconds');
    assert.ok(at >= before - 1 && at <= Date.now() / 1000 + 1, String(at));
    assert.ok(sample(text, 'jobs_completed_total', { queue: 'payout_batch', outcome: 'succeeded' }) >= 1);
  });
});

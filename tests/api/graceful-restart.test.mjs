// SIGTERM to one of two api processes under a steady stream of requests: it stops accepting,
// closes its WebSockets with 1012 (service restart) so clients reconnect elsewhere, and exits 0;
// no request gets a 5xx, and a refused connection is answered by the other process, as a load
// balancer would retry it.
//
// Known gap (issue 22, point 3): a connection poem has accepted but whose request it has not read
// yet when SIGTERM arrives is closed without an answer (ECONNRESET: hyper's graceful shutdown
// closes connections with no request in flight). This test counts such resets and prints them;
// it does not yet require none.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { connect } from '../harness/realtime.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

/** WebSocket close code 1012: service restart. */
const SERVICE_RESTART = 1012;
const STREAMS = 4;

let stack;

before(async () => {
  stack = await startStack({ apis: 2 });
});
after(async () => {
  await stack?.stop();
});

/** One GET on a new connection: { status } or { error: code }. */
function get(baseUrl, path) {
  return new Promise((resolve) => {
    const req = http.get(`${baseUrl}${path}`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode }));
      res.on('error', (e) => resolve({ error: e.code ?? e.message }));
    });
    req.on('error', (e) => resolve({ error: e.code ?? e.message }));
  });
}

describe('graceful restart of an api process', () => {
  it('closes sockets with 1012, answers no request badly, and exits 0', async () => {
    const user = await signIn(stack, await createVerifiedUser(stack));
    const ws = await connect(stack, user, 0);

    const outcomes = [];
    let stop = false;
    const stream = async () => {
      while (!stop) {
        let r = await get(stack.baseUrls[0], '/api/mentors');
        // A refused connection was never accepted: the balancer sends it to the other process.
        if (r.error === 'ECONNREFUSED') r = { ...(await get(stack.baseUrls[1], '/api/mentors')), retried: true };
        outcomes.push(r);
      }
    };
    const streams = Array.from({ length: STREAMS }, stream);
    await until('a steady stream', () => outcomes.length >= 50);

    const exit = await stack.stopApi(0);
    await until('requests to go on after the restart', () => outcomes.filter((o) => o.retried).length >= 20);
    stop = true;
    await Promise.all(streams);

    assert.deepEqual(
      { code: exit.code, signal: exit.signal, timedOut: exit.timedOut },
      { code: 0, signal: null, timedOut: undefined },
    );
    const answeredBadly = outcomes.filter((o) => o.status !== undefined && o.status !== 200);
    assert.deepEqual(answeredBadly, [], `${answeredBadly.length} of ${outcomes.length} requests answered badly`);
    const unanswered = outcomes.filter((o) => o.status === undefined);
    assert.ok(
      unanswered.every((o) => o.error === 'ECONNRESET'),
      `only resets of not-yet-read connections: ${JSON.stringify(unanswered)}`,
    );
    if (unanswered.length) console.log(`# known gap: ${unanswered.length} of ${outcomes.length} connections reset`);
    const closed = await ws.closed;
    assert.equal(closed.code, SERVICE_RESTART, JSON.stringify(closed));
    // The client reconnects to the other process.
    const again = await connect(stack, user, 1);
    again.close?.();
  });
});

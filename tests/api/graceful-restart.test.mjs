// SIGTERM to one of two api processes under a steady stream of requests: it stops accepting,
// finishes every request on a connection it accepted, closes its WebSockets with 1012 (service
// restart) so clients reconnect elsewhere, and exits 0. A refused connection is answered by the
// other process, as a load balancer would retry it; no request is reset or answered badly.
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
  it('answers every accepted request, closes sockets with 1012 and exits 0', async () => {
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
    const lost = outcomes.filter((o) => o.status !== 200);
    assert.deepEqual(lost, [], `${lost.length} of ${outcomes.length} requests lost`);
    const closed = await ws.closed;
    assert.equal(closed.code, SERVICE_RESTART, JSON.stringify(closed));
    // The client reconnects to the other process.
    const again = await connect(stack, user, 1);
    again.close?.();
  });
});

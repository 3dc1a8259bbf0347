// LOG_FORMAT=json: the api and the worker write one JSON object per line; every line a request
// causes carries its request id (the caller's X-Request-Id, or one made and returned), and every
// line a task causes carries the task's id and queue.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser } from '../harness/accounts.mjs';
import { client } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

let stack;

before(async () => {
  stack = await startStack({
    env: { LOG_FORMAT: 'json', RUST_LOG: 'info,http=debug,poem=warn,sqlx::postgres::notice=warn' },
  });
});
after(async () => {
  await stack?.stop();
});

/** Every line of a log, parsed; fails on a line that is not one JSON object. */
async function lines(file) {
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        const v = JSON.parse(l);
        assert.equal(typeof v, 'object');
        return v;
      } catch {
        assert.fail(`not a JSON object: ${l}`);
      }
    });
}

const spanField = (line, field) => (line.spans ?? []).map((s) => s[field]).find((v) => v !== undefined);

describe('LOG_FORMAT=json', () => {
  it('returns the caller’s X-Request-Id, or makes one', async () => {
    let res = await fetch(`${stack.baseUrl}/api/health`, { headers: { 'x-request-id': 'req-given-1' } });
    assert.equal(res.headers.get('x-request-id'), 'req-given-1');
    res = await fetch(`${stack.baseUrl}/api/mentors/not-a-mentor`);
    assert.match(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    const other = await fetch(`${stack.baseUrl}/api/health`);
    assert.notEqual(other.headers.get('x-request-id'), res.headers.get('x-request-id'));
  });

  it('writes one JSON object per line, with the request id on the lines a request causes', async () => {
    const res = await fetch(`${stack.baseUrl}/api/mentors`, { headers: { 'x-request-id': 'req-listing-2' } });
    assert.equal(res.status, 200);
    const line = await until('the request’s line', async () =>
      (await lines(stack.logs.api)).find((l) => spanField(l, 'request_id') === 'req-listing-2'),
    );
    assert.equal(line.message, 'request finished');
    assert.equal(line.route, '/api/mentors');
    assert.ok(line.timestamp && line.level);
  });

  it('puts the task id and queue on the lines a task causes', async () => {
    const user = await createVerifiedUser(stack);
    assert.equal((await client(stack.baseUrl).post('/api/forgot-password', { email: user.email })).status, 200);
    const sent = await until('the worker’s mail-sent lines', async () => {
      const all = await lines(stack.logs.worker);
      return all.filter((l) => l.message === 'mail sent').length >= 2 && all;
    });
    for (const line of sent.filter((l) => l.message === 'mail sent')) {
      assert.equal(spanField(line, 'queue'), 'emails');
      assert.match(String(spanField(line, 'task_id')), /^[0-9A-Z]{26}$/);
    }
  });
});

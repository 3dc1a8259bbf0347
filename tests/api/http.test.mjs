// HTTP behaviour shared by every route: health, error bodies, body limits, cross-site refusal,
// the /api/login redirect, the GET /api/logout refusal and the SPA fallback. No worker needed.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newUser } from '../harness/accounts.mjs';
import { client, show } from '../harness/client.mjs';
import { startStack, webDist } from '../harness/stack.mjs';

let stack;
before(async () => {
  stack = await startStack({ worker: false });
});
after(async () => {
  await stack?.stop();
});

function assertErrorBody(res, status) {
  assert.equal(res.status, status, show(res));
  assert.match(res.headers.get('content-type') ?? '', /application\/json/, `content type of ${show(res)}`);
  assert.equal(typeof res.body?.message, 'string', `an error body {message}: ${show(res)}`);
  assert.ok(res.body.message.length > 0, `an empty message: ${show(res)}`);
}

function assertRedirectTo(res, pathname) {
  assert.ok([301, 302, 303, 307, 308].includes(res.status), `a redirect: ${show(res)}`);
  assert.equal(res.status, 302, `302 as the contract says: ${show(res)}`);
  const location = res.headers.get('location');
  assert.ok(location, 'a Location header');
  assert.equal(new URL(location, stack.baseUrl).pathname, pathname, `Location ${location}`);
}

describe('health', () => {
  it('GET /api/health answers {"status":"ok"}, with details of the job queues that are not ok', async () => {
    const res = await client(stack.baseUrl).get('/api/health');
    assert.equal(res.status, 200, show(res));
    assert.equal(res.body.status, 'ok');
    for (const queue of res.body.details?.queues ?? []) {
      assert.ok(['failing', 'not_polling'].includes(queue.state), show(res));
    }
  });
});

describe('errors', () => {
  it('an unknown /api path is a 404 with a JSON {message}', async () => {
    const c = client(stack.baseUrl);
    assertErrorBody(await c.get('/api/nope'), 404);
    assertErrorBody(await c.post('/api/nope', { a: 1 }), 404);
  });

  it('malformed JSON is a 400 with {message}', async () => {
    const c = client(stack.baseUrl);
    assertErrorBody(await c.post('/api/login', undefined, { raw: '{"email": "a@example.com", "password": ' }), 400);
    assertErrorBody(await c.post('/api/register', undefined, { raw: 'not json at all' }), 400);
  });

  it('a body over 1 MiB is a 413', async () => {
    const user = newUser();
    const body = JSON.stringify({ ...user, firstName: 'x'.repeat(1024 * 1024 + 16) });
    assert.ok(Buffer.byteLength(body) > 1024 * 1024);
    const res = await client(stack.baseUrl).post('/api/register', undefined, { raw: body });
    assertErrorBody(res, 413);
    // The refused registration did not happen.
    const again = await client(stack.baseUrl).post('/api/register', user);
    assert.equal(again.status, 201, show(again));
  });

  it('a body just under 1 MiB is not refused for its size', async () => {
    const body = JSON.stringify({ ...newUser(), firstName: 'x'.repeat(1024 * 1024 - 200) });
    assert.ok(Buffer.byteLength(body) < 1024 * 1024);
    const res = await client(stack.baseUrl).post('/api/register', undefined, { raw: body });
    assert.notEqual(res.status, 413, show(res));
    assert.ok(res.status < 500, show(res));
  });
});

describe('cross-site requests', () => {
  it('a POST whose Origin is another site is refused with 403 and has no effect', async () => {
    const user = newUser();
    const evil = client(stack.baseUrl, { origin: 'https://evil.example' });
    assertErrorBody(await evil.post('/api/register', user), 403);
    assertErrorBody(await evil.post('/api/login', { email: user.email, password: user.password }), 403);
    assertErrorBody(await evil.post('/api/forgot-password', { email: user.email }), 403);
    // A form post from another site, the classic CSRF shape.
    const form = await evil.post('/api/logout', undefined, {
      raw: 'x=1',
      contentType: 'application/x-www-form-urlencoded',
    });
    assertErrorBody(form, 403);
    // Nothing was registered: the same address registers now from the app's own origin.
    const res = await client(stack.baseUrl).post('/api/register', user);
    assert.equal(res.status, 201, show(res));
  });

  it("a POST from the app's own origin works", async () => {
    const same = client(stack.baseUrl, { origin: stack.baseUrl });
    const res = await same.post('/api/register', newUser());
    assert.equal(res.status, 201, show(res));
    assert.equal(res.body.requiresVerification, true, show(res));
  });

  it('an Origin on the same host but another port is another origin', async () => {
    const other = client(stack.baseUrl, { origin: `http://127.0.0.1:${stack.port === 1 ? 2 : stack.port - 1}` });
    assertErrorBody(await other.post('/api/register', newUser()), 403);
  });
});

describe('browser navigations', () => {
  it('GET /api/login redirects to /auth', async () => {
    assertRedirectTo(await client(stack.baseUrl).get('/api/login'), '/auth');
  });

  it("GET /api/logout redirects to /auth (signing out only on the browser's own navigation: abuse-input)", async () => {
    assertRedirectTo(await client(stack.baseUrl).get('/api/logout'), '/auth');
  });
});

describe('the web app', () => {
  const index = path.join(webDist, 'index.html');
  const shell = path.join(webDist, 'shell.html');

  it(
    '/ answers with web/dist/index.html, any other client-side path with the frame (shell.html)',
    { skip: !existsSync(shell) && 'web/dist is not built' },
    async () => {
      const c = client(stack.baseUrl);
      const pages = { '/': index, '/some/page': shell, '/mentor/123': shell, '/auth': shell };
      for (const [p, file] of Object.entries(pages)) {
        const res = await c.get(p, { headers: { accept: 'text/html' } });
        assert.equal(res.status, 200, `${p}: ${show(res)}`);
        assert.match(res.headers.get('content-type') ?? '', /text\/html/, `${p} content type`);
        assert.equal(res.text, readFileSync(file, 'utf8'), `${p} is ${path.basename(file)}`);
      }
    },
  );
});

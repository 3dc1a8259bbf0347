// TURN for calls, black-box: with RTC_TURN_URL/RTC_TURN_SECRET naming a running coturn (the
// harness's own, configured like scripts/run's), GET /api/rtc/config hands out a `turn:` server with
// time-limited credentials that coturn accepts (a real TURN Allocate over UDP), and rejects once
// tampered with or expired; Janus rendered with the same TURN takes it. Without the settings the
// answer is as before: the one public STUN server.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { show } from '../harness/client.mjs';
import { startStack } from '../harness/stack.mjs';
import { allocate, parseTurnUrl, turnCredentials } from '../harness/turn.mjs';
import { until } from '../harness/wait.mjs';

// The api's defaults (domain/src/config.rs).
const DEFAULT_STUN_URLS = ['stun:stun.l.google.com:19302'];
const DEFAULT_TURN_TTL_SECONDS = 86_400;

describe('with TURN settings', () => {
  let stack;
  let c;
  let userId;
  before(async () => {
    stack = await startStack({ turn: true, janus: true });
    c = await signIn(stack, await createVerifiedUser(stack));
    userId = (await c.get('/api/auth/user')).body.id;
  });
  after(async () => {
    await stack?.stop();
  });

  it('GET /api/rtc/config returns the turn: server with credentials coturn accepts', async () => {
    const res = await c.get('/api/rtc/config');
    assert.equal(res.status, 200, show(res));
    const turn = res.body.iceServers.find((s) => s.urls.some((u) => u.startsWith('turn:')));
    assert.ok(turn, `no turn: server in ${show(res)}`);
    assert.deepEqual(turn.urls, [stack.turn.url]);
    // Time-limited: `<expiry>:<user id>`, the expiry a day from now.
    const [expiry, who] = turn.username.split(':');
    assert.equal(who, userId);
    const lifetime = Number(expiry) - Date.now() / 1000;
    assert.ok(lifetime > DEFAULT_TURN_TTL_SECONDS - 60 && lifetime <= DEFAULT_TURN_TTL_SECONDS + 1, turn.username);

    const server = parseTurnUrl(turn.urls[0]);
    assert.equal(await allocate(server, turn), 'success');
    assert.equal(await allocate(server, { ...turn, credential: `x${turn.credential}` }), '401 Unauthorized');
    // Credentials signed with the same secret but already expired are refused.
    assert.equal(await allocate(server, turnCredentials(stack.turn.secret, userId, -60)), '401 Unauthorized');
  });

  it('Janus is configured with the same TURN server', async () => {
    const line = `TURN server to use: ${stack.turn.host}:${stack.turn.port} (udp)`;
    await until(line, () => readFileSync(stack.janus.log, 'utf8').includes(line));
  });
});

describe('without TURN settings', () => {
  let stack;
  before(async () => {
    // scripts/test exports its own coturn's settings: this stack has none (empty is unset).
    stack = await startStack({ env: { RTC_TURN_URL: '', RTC_TURN_SECRET: '', RTC_STUN_URLS: '' } });
  });
  after(async () => {
    await stack?.stop();
  });

  it('GET /api/rtc/config returns the public STUN server only, as before', async () => {
    const c = await signIn(stack, await createVerifiedUser(stack));
    const res = await c.get('/api/rtc/config');
    assert.equal(res.status, 200, show(res));
    assert.deepEqual(res.body, { iceServers: [{ urls: DEFAULT_STUN_URLS }] });
  });
});

// Chat across two api processes while each is restarted in turn (SIGTERM, started again): pairs of
// users, the seeker on process 0 and the mentor on process 1, send messages steadily over their
// WebSockets and over REST. A socket the stopping process closes (1012) reconnects to a running
// process and its client sends again, under the same clientId, what was not acknowledged; a
// request refused at connect goes to the other process, as a load balancer would send it. Then:
// each process exited 0, no request a process accepted failed, every acknowledged message is stored
// exactly once, no one received a message twice, and the reconnected sockets deliver live.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { show } from '../harness/client.mjs';
import { connect } from '../harness/realtime.mjs';
import { startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

/** WebSocket close code 1012: service restart. */
const SERVICE_RESTART = 1012;
const PAIRS = 3;
/** Messages each user gets acknowledged between two steps of the test (before, between, after). */
const PROGRESS = 4;

let stack;
/** [{ conversationId, seeker, mentor }], each user { name, sid, id, home } */
const pairs = [];

before(async () => {
  stack = await startStack({ apis: 2 });
  for (let i = 0; i < PAIRS; i += 1) {
    const mentorUser = await createVerifiedUser(stack);
    const m = await signIn(stack, mentorUser);
    const profile = await m.post('/api/mentors', {
      displayName: `Restart Mentor ${i}`,
      bio: 'A mentor who keeps chatting while the servers restart under the conversation.',
      specialties: ['Astrology'],
      basePrice: '20.00',
    });
    assert.equal(profile.status, 201, show(profile));
    const s = await signIn(stack, await createVerifiedUser(stack));
    const c = await s.post('/api/conversations', { mentorId: profile.body.id });
    assert.equal(c.status, 201, show(c));
    const user = async (name, client, home) => ({
      name,
      sid: client.cookies.sid,
      id: (await client.get('/api/auth/user')).body.id,
      home,
    });
    pairs.push({
      conversationId: c.body.id,
      seeker: await user(`seeker${i}`, s, 0),
      mentor: await user(`mentor${i}`, m, 1),
    });
  }
});
after(async () => {
  await stack?.stop();
});

/** One request on a new connection: { status, body } or { error: code }. */
function request(baseUrl, method, path, { sid, body } = {}) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = { cookie: `sid=${sid}`, origin: baseUrl };
    if (payload)
      Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
    const req = http.request(`${baseUrl}${path}`, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => {
        let parsed = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode, body: parsed });
      });
      res.on('error', (e) => resolve({ error: e.code ?? e.message }));
    });
    req.on('error', (e) => resolve({ error: e.code ?? e.message }));
    req.end(payload);
  });
}

/**
 * A request to process `home`; refused at connect (never accepted), it goes to the other process.
 * Resolves to { status, body, via } or { error, via }.
 */
async function balanced(home, method, path, options) {
  for (let k = 0; k < 2; k += 1) {
    const via = (home + k) % 2;
    const r = await request(stack.baseUrls[via], method, path, options);
    if (r.error !== 'ECONNREFUSED') return { ...r, via };
  }
  // Both refused: a moment with no process listening, which this test never makes.
  return { error: 'ECONNREFUSED on both processes' };
}

/** A user's browser tab: one socket at a time, reconnecting (home first) whenever it closes. */
function tab(user) {
  const t = {
    user,
    sockets: [], // every socket it had, in order: { socket, via }
    closes: [], // close codes of the sockets the server closed
    current: null, // a promise of the open { socket, via }
    done: false,
  };
  const open = async () => {
    // Home first, then the other process; `until` reports the last failure.
    const attempt = async () => {
      let last;
      for (let k = 0; k < 2; k += 1) {
        const via = (user.home + k) % 2;
        try {
          return { socket: await connect(stack, user.sid, via), via };
        } catch (e) {
          last = e;
        }
      }
      throw last;
    };
    const opened = await until(`${user.name} to connect to a running process`, attempt, 30_000, 50);
    t.sockets.push(opened);
    opened.socket.closed.then(({ code }) => {
      if (t.done) return;
      t.closes.push(code);
      reopen();
    });
    return opened;
  };
  const reopen = () => {
    t.current = open();
    // Whoever waits for the socket sees a failure; nobody waiting is no failure of its own.
    t.current.catch(() => {});
  };
  reopen();
  /** Closes the tab: no reconnecting from now on. */
  t.close = async () => {
    t.done = true;
    const opened = await t.current.catch(() => null);
    await opened?.socket.close();
  };
  /** The open socket after `stale` closed. */
  t.after = async (stale) => {
    for (;;) {
      const opened = await t.current;
      if (opened.socket !== stale) return opened;
      await stale.closed;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return t;
}

/** Every messageReceived frame `t` got for messages of others. */
function deliveredTo(t) {
  return t.sockets.flatMap(({ socket }) => socket.received('messageReceived')).filter((d) => d.senderId !== t.user.id);
}

describe('chat while the api processes restart one after the other', () => {
  it(
    'loses no acknowledged message and no accepted request, and delivers each message once',
    { timeout: 170_000 },
    async (ctx) => {
      const tabs = pairs.flatMap((p) => [tab(p.seeker), tab(p.mentor)]);
      try {
        await chatThroughRestarts(ctx, tabs);
      } finally {
        await Promise.all(tabs.map((t) => t.close()));
      }
    },
  );
});

async function chatThroughRestarts(ctx, tabs) {
  {
    const conversationOf = new Map(
      pairs.flatMap((p) => [
        [p.seeker.id, p.conversationId],
        [p.mentor.id, p.conversationId],
      ]),
    );
    await Promise.all(tabs.map((t) => t.current));

    let stop = false;
    /** clientId -> { id, conversationId } of every message the server acknowledged. */
    const acked = new Map();
    const ackedBy = new Map(tabs.map((t) => [t.user.name, 0]));
    const attempted = new Set();
    const outcomes = []; // of HTTP requests: { status } | { error }
    let resent = 0;

    const socketSender = async (t) => {
      const conversationId = conversationOf.get(t.user.id);
      for (let n = 0; !stop; n += 1) {
        const clientId = `${t.user.name}-ws-${n}`;
        attempted.add(clientId);
        let opened = await t.current;
        for (;;) {
          const { socket } = opened;
          const ack = socket.next('messageReceived', (d) => d.clientId === clientId, 30_000);
          ack.catch(() => {});
          socket.send('sendMessage', { conversationId, content: `Over the socket: ${clientId}`, clientId });
          const r = await Promise.race([ack.then((d) => ({ d })), socket.closed.then(() => ({ closed: true }))]);
          if (r.d) {
            acked.set(clientId, { id: r.d.id, conversationId });
            ackedBy.set(t.user.name, ackedBy.get(t.user.name) + 1);
            break;
          }
          // Not acknowledged before the socket closed: send it again on the next one.
          resent += 1;
          opened = await t.after(socket);
        }
      }
    };

    const restSender = async (t) => {
      const conversationId = conversationOf.get(t.user.id);
      for (let n = 0; !stop; n += 1) {
        const clientId = `${t.user.name}-rest-${n}`;
        attempted.add(clientId);
        const sent = await balanced(t.user.home, 'POST', `/api/conversations/${conversationId}/messages`, {
          sid: t.user.sid,
          body: { content: `Over REST: ${clientId}`, clientId },
        });
        outcomes.push({ what: `POST ${clientId}`, ...sent, body: undefined });
        if (sent.status === 201) acked.set(clientId, { id: sent.body.id, conversationId });
        const read = await balanced(t.user.home, 'GET', `/api/conversations/${conversationId}/messages?limit=5`, {
          sid: t.user.sid,
        });
        outcomes.push({ what: 'GET messages', ...read, body: undefined });
      }
    };

    const streams = tabs.flatMap((t) => [socketSender(t), restSender(t)]);
    const progress = async (what) => {
      const from = new Map(ackedBy);
      const requests = outcomes.length;
      await until(
        what,
        () =>
          tabs.every((t) => ackedBy.get(t.user.name) >= from.get(t.user.name) + PROGRESS) &&
          outcomes.length >= requests + 20,
        60_000,
        50,
      );
    };

    try {
      await progress('a steady stream of messages');
      const first = await stack.stopApi(0);
      await progress('messages to go on through process 1');
      await stack.startApi(0);
      const second = await stack.stopApi(1);
      await progress('messages to go on through the restarted process 0');
      for (const [i, exit] of [first, second].entries()) {
        assert.deepEqual(
          { code: exit.code, signal: exit.signal, timedOut: exit.timedOut },
          { code: 0, signal: null, timedOut: undefined },
          `process ${i} exits 0 within its drain`,
        );
      }
    } finally {
      stop = true;
      await Promise.all(streams);
    }

    ctx.diagnostic(
      `${acked.size} messages acknowledged (${resent} sent again after a close), ${outcomes.length} requests ` +
        `(${outcomes.filter((o) => o.via === 1).length} through process 1), ` +
        `${tabs.reduce((n, t) => n + t.closes.length, 0)} sockets closed by a restart`,
    );
    // Every request a process accepted was answered: no reset, no 5xx.
    const failed = outcomes.filter((o) => o.status !== 201 && o.status !== 200);
    assert.deepEqual(failed, [], `${failed.length} of ${outcomes.length} requests failed`);
    assert.ok(outcomes.some((o) => o.via === 1) && outcomes.some((o) => o.via === 0));

    // Every socket the server closed said 1012; every tab ended up on the restarted process 0.
    for (const t of tabs) {
      assert.ok(
        t.closes.every((code) => code === SERVICE_RESTART),
        `${t.user.name} closes: ${t.closes}`,
      );
      assert.ok(t.closes.length >= 1, `${t.user.name} was moved by a restart`);
      assert.equal((await t.current).via, 0, `${t.user.name} is on process 0 at the end`);
    }

    // Stored: every acknowledged message once, under the id it was acknowledged with; nothing else.
    for (const p of pairs) {
      const history = [];
      for (let offset = 0; ; offset += 100) {
        const page = await request(
          stack.baseUrls[0],
          'GET',
          `/api/conversations/${p.conversationId}/messages?limit=100&offset=${offset}`,
          {
            sid: p.seeker.sid,
          },
        );
        assert.equal(page.status, 200, JSON.stringify(page));
        history.push(...page.body);
        if (page.body.length < 100) break;
      }
      const ours = [...acked].filter(([, a]) => a.conversationId === p.conversationId);
      const stored = new Map();
      for (const m of history) stored.set(m.clientId, [...(stored.get(m.clientId) ?? []), m.id]);
      const twice = [...stored].filter(([, ids]) => ids.length > 1);
      assert.deepEqual(twice, [], 'no message is stored twice');
      const lost = ours.filter(([clientId, { id }]) => stored.get(clientId)?.[0] !== id);
      assert.deepEqual(lost, [], 'every acknowledged message is stored under its id');
      assert.ok([...stored.keys()].every((clientId) => attempted.has(clientId)));
    }

    // Live: nobody got a message twice, and the reconnected sockets deliver at once.
    for (const t of tabs) {
      const ids = deliveredTo(t).map((d) => d.id);
      assert.equal(new Set(ids).size, ids.length, `${t.user.name} got a message twice`);
    }
    for (const p of pairs) {
      const [s, m] = [tabs.find((t) => t.user === p.seeker), tabs.find((t) => t.user === p.mentor)];
      const clientId = `${p.seeker.name}-last`;
      (await s.current).socket.send('sendMessage', {
        conversationId: p.conversationId,
        content: 'The last word',
        clientId,
      });
      const got = await (await m.current).socket.next('messageReceived', (d) => d.clientId === clientId);
      assert.equal(got.content, 'The last word');
    }
  }
}

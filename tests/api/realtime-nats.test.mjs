// The real-time bus on NATS (issue 37 §2): two api processes with REALTIME_BUS=nats and a private
// nats-server. An event reaches only the process its recipient is connected to, once; events written
// while NATS is down are relayed when it is back, each delivered once; a row committed by an api that
// is then killed is relayed by the other. A group session's events travel once, on its room's subject,
// to the processes its members are connected to. One process's relay works at a time; another takes
// over when it dies.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';
import { addSeat, groupService, groupSessionWithSeats } from '../harness/group-sessions.mjs';
import { apiMetric, metricValue } from '../harness/nats.mjs';
import { connect } from '../harness/realtime.mjs';
import { freePort, startStack } from '../harness/stack.mjs';
import { until } from '../harness/wait.mjs';

let stack;
let db;
let mentor; // { c, user, mentor, service }
let seeker; // a signed-in client
let seekerVia; // the seeker signed in through each api process
let conversationId;
let admin; // a signed-in admin client
let workerMetrics; // the worker's WORKER_METRICS_ADDR

before(async () => {
  workerMetrics = `127.0.0.1:${await freePort()}`;
  stack = await startStack({
    apis: 2,
    nats: true,
    janus: true,
    env: { REALTIME_BUS: 'nats', WORKER_METRICS_ADDR: workerMetrics },
  });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  mentor = await bookableMentor(stack);
  const seekerUser = await createVerifiedUser(stack, { firstName: 'Nat', lastName: 'Seeker' });
  seeker = await signIn(stack, seekerUser);
  seekerVia = [seeker, await signIn({ ...stack, baseUrl: stack.baseUrls[1] }, seekerUser)];
  const r = await seeker.post('/api/conversations', { mentorId: mentor.mentor.id });
  assert.equal(r.status, 201, show(r));
  conversationId = r.body.id;
  const root = await createVerifiedUser(stack, { firstName: 'Root', lastName: 'Operator' });
  await db.query('UPDATE users SET is_admin = true WHERE lower(email) = lower($1)', [root.email]);
  admin = await signIn({ ...stack, baseUrl: stack.baseUrls[1] }, root);
});

/** The bus as process `i`'s health, the admin console (through process 1) and the worker's metrics show it. */
async function busFigures(i) {
  const health = await fetch(`${stack.baseUrls[i]}/api/health`).then((r) => r.json());
  const cluster = await admin.get('/api/admin/jobs/cluster');
  assert.equal(cluster.status, 200, show(cluster));
  const worker = await fetch(`http://${workerMetrics}/metrics`).then((r) => r.text());
  return {
    health: health.realtimeBus,
    console: cluster.body.realtimeBus,
    workerUnsent: metricValue(worker, 'realtime_outbox_unsent'),
  };
}
after(async () => {
  await db?.end();
  await stack?.stop();
});

let counter = 0;
const clientId = (prefix) => `${prefix}-${++counter}`;

/** The seeker sends `content` over REST (through api process `i`); resolves to the stored message. */
async function sendByRest(content, i = 0) {
  const r = await seekerVia[i].post(`/api/conversations/${conversationId}/messages`, {
    content,
    clientId: clientId('rest'),
  });
  assert.equal(r.status, 201, show(r));
  return r.body;
}

/** Every outbox row of `event` whose data mentions `text`: { id, sent }. */
async function outboxRows(text) {
  const { rows } = await db.query(
    'SELECT id, sent_at IS NOT NULL AS sent FROM realtime_outbox WHERE position($1 in payload::text) > 0 ORDER BY id',
    [text],
  );
  return rows;
}

/** Every messageReceived on `socket` with this id. */
const copies = (socket, id) => socket.received('messageReceived').filter((d) => d.id === id).length;

/** Sends a fence message from `s` and waits for it on every socket of `sockets`: what came before has arrived. */
async function fence(s, sockets) {
  const id = clientId('fence');
  s.send('sendMessage', { conversationId, content: `fence ${id}`, clientId: id });
  for (const socket of sockets) await socket.next('messageReceived', (d) => d.clientId === id);
}

describe('the real-time bus on NATS', () => {
  it('brings a message from a user on process 0 to the recipient on process 1 once', async () => {
    const s = await connect(stack, seeker, 0);
    const m = await connect(stack, mentor.c, 1);
    try {
      const id = clientId('hello');
      s.send('sendMessage', { conversationId, content: 'Hello over NATS', clientId: id });
      const ack = await s.next('messageReceived', (d) => d.clientId === id);
      const got = await m.next('messageReceived', (d) => d.clientId === id);
      assert.equal(got.id, ack.id);
      await fence(s, [s, m]);
      assert.equal(copies(m, ack.id), 1, 'the recipient got it once');
      assert.equal(copies(s, ack.id), 1, 'the sender got its acknowledgement once');
      const rows = await outboxRows(ack.id);
      assert.equal(rows.length, 1, 'one outbox row for the event');
      await until('the row to be marked sent', async () => (await outboxRows(ack.id))[0].sent, 5_000, 50);
    } finally {
      s.close();
      m.close();
    }
  });

  it("sends a user's events only to the process they are connected to, and nobody's to no process", async () => {
    const s = await connect(stack, seeker, 0);
    try {
      // The mentor is connected nowhere; the seeker only to process 0.
      const before = [
        await apiMetric(stack, 0, 'realtime_bus_received_total'),
        await apiMetric(stack, 1, 'realtime_bus_received_total'),
      ];
      const published = async () =>
        (await apiMetric(stack, 0, 'realtime_bus_published_total')) +
        (await apiMetric(stack, 1, 'realtime_bus_published_total'));
      const publishedBefore = await published();
      const message = await sendByRest('Only process 0 hears this', 1);
      await s.next('messageReceived', (d) => d.id === message.id);
      await until('both recipients published', async () => (await published()) >= publishedBefore + 2, 5_000, 50);
      await until('the row to be marked sent', async () => (await outboxRows(message.id))[0]?.sent, 5_000, 50);
      await fence(s, [s]);
      const afterwards = [
        await apiMetric(stack, 0, 'realtime_bus_received_total'),
        await apiMetric(stack, 1, 'realtime_bus_received_total'),
      ];
      // Process 0 received the seeker's copies (the message and the fence); process 1 nothing, though
      // the mentor's copy was published too: nobody there subscribes to the mentor.
      assert.ok(afterwards[0] >= before[0] + 2, `process 0 received its user's events: ${before} → ${afterwards}`);
      assert.equal(afterwards[1], before[1], "process 1 received nothing of another process's user");
      const dropped = await apiMetric(stack, 0, 'realtime_bus_duplicates_dropped_total');
      assert.equal(dropped, 0, 'no duplicates while nothing failed');
      assert.equal(await apiMetric(stack, 1, 'realtime_notify_received_total'), 0, 'no event went through NOTIFY');
    } finally {
      s.close();
    }
  });

  it(
    'relays what was written while NATS was down once it is back, each delivered once',
    { timeout: 60_000 },
    async () => {
      const s = await connect(stack, seeker, 0);
      const m = await connect(stack, mentor.c, 1);
      try {
        const calm = await busFigures(0);
        assert.equal(calm.health.kind, 'nats');
        assert.equal(calm.health.natsConnected, true);
        await stack.nats.stop();
        const sent = [];
        for (let i = 0; i < 3; i += 1) sent.push(await sendByRest(`While NATS is down ${i}`, i % 2));
        const rows = await outboxRows(sent[0].id);
        assert.equal(rows.length, 1);
        assert.equal(rows[0].sent, false, 'nothing relayed while NATS is down');
        // Operators see it from any process: the api's health and console, the worker's metrics.
        await until('every process to see the backlog', async () => {
          const f = await busFigures(0);
          return f.health.natsConnected === false && f.workerUnsent >= 3;
        });
        const down = await busFigures(0);
        // Three messages: three events at least.
        assert.ok(
          down.health.unsentEvents >= 3 && down.console.unsentEvents === down.health.unsentEvents,
          JSON.stringify(down),
        );
        assert.ok(down.console.oldestUnsentSeconds > 0 && down.console.eventsLastMinute >= 3, JSON.stringify(down));
        // Health, asked every few seconds by load balancers, leaves the costly count to the console.
        assert.ok(!('eventsLastMinute' in down.health), JSON.stringify(down.health));
        assert.equal(down.console.natsConnected, false);
        await stack.nats.start();
        for (const message of sent) {
          await m.next('messageReceived', (d) => d.id === message.id, 30_000);
          await s.next('messageReceived', (d) => d.id === message.id, 30_000);
        }
        await until(
          'every row to be marked sent',
          async () => {
            for (const x of sent) if (!(await outboxRows(x.id))[0]?.sent) return false;
            return true;
          },
          30_000,
          100,
        );
        await until('the backlog to drain everywhere', async () => {
          const f = await busFigures(0);
          return f.health.unsentEvents === 0 && f.workerUnsent === 0 && f.console.natsConnected;
        });
        await fence(s, [s, m]);
        for (const message of sent) {
          assert.equal(copies(m, message.id), 1, `the recipient got ${message.content} once`);
          assert.equal(copies(s, message.id), 1, `the sender got ${message.content} once`);
        }
      } finally {
        s.close();
        m.close();
      }
    },
  );

  it("sends a group session's events once, on its room's subject, to the processes of its members", async () => {
    const ann = await createVerifiedUser(stack, { firstName: 'Ann', lastName: 'Room' });
    const carl = await createVerifiedUser(stack, { firstName: 'Carl', lastName: 'Room' });
    const [annC, carlC] = [await signIn(stack, ann), await signIn(stack, carl)];
    const annId = (await annC.get('/api/auth/user')).body.id;
    const carlId = (await carlC.get('/api/auth/user')).body.id;
    // Carl's socket opens before he has a seat: his process learns of his room when he joins the call.
    const c = await connect(stack, carlC, 1);
    const id = await groupSessionWithSeats(db, mentor, await groupService(mentor), [annId]);
    const room = `rt.room.${id}`;
    const m = await connect(stack, mentor.c, 0);
    const a = await connect(stack, annC, 0);
    try {
      assert.equal(
        (await stack.nats.subscriptions(room)).length,
        1,
        'process 0 holds the room once for its two members',
      );
      m.send('start-group-session', { groupSessionId: id });
      for (const s of [m, a]) await s.next('group-session-started', (d) => d.groupSessionId === id);
      const { rows } = await db.query(
        `SELECT id, payload->>'room' AS room FROM realtime_outbox WHERE payload->>'event' = 'group-session-started'
         AND payload->'data'->>'groupSessionId' = $1`,
        [id],
      );
      assert.equal(rows.length, 1);
      assert.equal(rows[0].room, id, 'the event names its room');
      await until('the room message to arrive', async () => (await stack.nats.subscriptions(room))[0]?.msgs >= 1);
      assert.equal((await stack.nats.subscriptions(room))[0].msgs, 1, 'one message for both members');

      await addSeat(db, id, carlId);
      c.send('join-group-session', { groupSessionId: id });
      await until('process 1 to hold the room', async () => (await stack.nats.subscriptions(room)).length === 2);
      a.send('join-group-session', { groupSessionId: id });
      const joined = await c.next('participant-joined', (d) => d.participant?.id === annId);
      assert.equal(joined.groupSessionId, id);
      await m.next('participant-joined', (d) => d.participant?.id === annId);

      a.close();
      c.close();
      await until('process 1 to let the room go', async () => (await stack.nats.subscriptions(room)).length === 1);
      m.close();
      await until('nobody to hold the room', async () => (await stack.nats.subscriptions(room)).length === 0);
    } finally {
      for (const s of [m, a, c]) s.close();
    }
  });

  it(
    'does not bring again to a socket that moved here what a relay sent before it opened',
    { timeout: 60_000 },
    async () => {
      const first = await connect(stack, mentor.c, 0);
      let moved;
      try {
        const m1 = await sendByRest('Delivered on process 0 before NATS went away', 0);
        await first.next('messageReceived', (d) => d.id === m1.id);
        await until('the row to be marked sent', async () => (await outboxRows(m1.id))[0]?.sent, 5_000, 50);
        const catchUps = await apiMetric(stack, 1, 'realtime_bus_catch_ups_total');
        await stack.nats.stop();
        first.close();
        // The socket opens on process 1 more than the clock margin (1 s) after m1 was sent.
        const { rows } = await db.query(
          'SELECT (EXTRACT(EPOCH FROM sent_at) * 1000)::float8 AS at FROM realtime_outbox WHERE position($1 in payload::text) > 0',
          [m1.id],
        );
        await new Promise((r) => setTimeout(r, Math.max(0, rows[0].at + 1_500 - Date.now())));
        moved = await connect(stack, mentor.c, 1);
        await stack.nats.start();
        // Process 1 catches up on what was written while it was away (and 5 s before): m1 among it.
        await until(
          'process 1 to catch up',
          async () => (await apiMetric(stack, 1, 'realtime_bus_catch_ups_total')) > catchUps,
          30_000,
          100,
        );
        const m2 = await sendByRest('After NATS is back', 0);
        await moved.next('messageReceived', (d) => d.id === m2.id, 30_000);
        assert.equal(copies(moved, m1.id), 0, 'the moved socket did not get again what process 0 had delivered');
        assert.equal(copies(first, m1.id), 1);
      } finally {
        first.close();
        moved?.close();
      }
    },
  );

  it('relays from one process at a time, and a standby takes over when it dies', { timeout: 60_000 }, async () => {
    const leading = async () => [
      await apiMetric(stack, 0, 'realtime_relay_leading'),
      await apiMetric(stack, 1, 'realtime_relay_leading'),
    ];
    await until('one relay to work', async () => (await leading()).reduce((a, b) => a + b) === 1);
    const relay = (await leading()).indexOf(1);
    const standby = 1 - relay;
    const publishedBefore = await apiMetric(stack, standby, 'realtime_bus_published_total');
    const m = await connect(stack, mentor.c, standby);
    try {
      const first = await sendByRest('Relayed by the working relay', standby);
      await m.next('messageReceived', (d) => d.id === first.id);
      assert.equal(
        await apiMetric(stack, standby, 'realtime_bus_published_total'),
        publishedBefore,
        'the standby published nothing',
      );
      await stack.killApi(relay);
      await until(
        'the standby to take over',
        async () => (await apiMetric(stack, standby, 'realtime_relay_leading')) === 1,
      );
      const second = await sendByRest('Relayed by the standby that took over', standby);
      await m.next('messageReceived', (d) => d.id === second.id);
      assert.ok((await apiMetric(stack, standby, 'realtime_bus_published_total')) > publishedBefore);
      // The process that comes back stands by.
      await stack.startApi(relay);
      const expected = [0, 0];
      expected[standby] = 1;
      assert.deepEqual(await leading(), expected);
    } finally {
      m.close();
    }
  });

  it('lets another process relay an event whose api died right after committing it', { timeout: 60_000 }, async () => {
    const m = await connect(stack, mentor.c, 1);
    try {
      // With NATS away no relay can take the row: it stays in the outbox when process 0 dies.
      await stack.nats.stop();
      const message = await sendByRest('Written by process 0, which then dies', 0);
      await stack.killApi(0);
      assert.equal((await outboxRows(message.id))[0].sent, false);
      const relayedBefore = await apiMetric(stack, 1, 'realtime_bus_published_total');
      await stack.nats.start();
      await m.next('messageReceived', (d) => d.id === message.id, 30_000);
      await until('the row to be marked sent', async () => (await outboxRows(message.id))[0].sent, 30_000, 100);
      assert.ok(
        (await apiMetric(stack, 1, 'realtime_bus_published_total')) >= relayedBefore + 2,
        'process 1 relayed it',
      );
      assert.equal(copies(m, message.id), 1);
    } finally {
      m.close();
    }
  });
});

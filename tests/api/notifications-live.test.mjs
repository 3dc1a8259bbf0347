// Live notifications: written by the worker's fan-out job and pushed over /api/ws to every open
// socket of the recipient, whichever api process it is connected to; queued while no worker
// runs and delivered once one starts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor, reserve, startIn } from '../harness/booking.mjs';
import { startStack } from '../harness/stack.mjs';

let stack;
before(async () => {
  stack = await startStack({ apis: 2 });
});
after(async () => {
  await stack?.stop();
});

/** The stack as seen through api process `i`. */
const via = (i) => ({ ...stack, baseUrl: stack.baseUrls[i] });

/**
 * A socket of the signed-in client `c` on `baseUrl`, open once the server said `ready`. Every
 * frame is kept; `next(event, match)` resolves to the first `data` of that event matching `match`.
 */
async function openSocket(c, baseUrl) {
  const url = new URL('/api/ws', baseUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(url, { headers: { cookie: `sid=${c.cookies.sid}`, origin: new URL(baseUrl).origin } });
  const frames = [];
  const waiters = new Set();
  ws.on('message', (raw) => {
    const frame = JSON.parse(raw.toString());
    frames.push(frame);
    for (const w of waiters) w.check();
  });
  const socket = {
    ws,
    frames,
    next(event, match = () => true, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const waiter = {
          check() {
            const found = frames.find((f) => f.event === event && match(f.data));
            if (!found) return;
            clearTimeout(waiter.timer);
            waiters.delete(waiter);
            resolve(found.data);
          },
          timer: setTimeout(() => {
            waiters.delete(waiter);
            reject(new Error(`no ${event} within ${timeoutMs} ms; got ${JSON.stringify(frames.map((f) => f.event))}`));
          }, timeoutMs),
        };
        waiters.add(waiter);
        waiter.check();
      });
    },
    close() {
      ws.terminate();
    },
  };
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  await socket.next('ready');
  return socket;
}

const notificationsOf = async (c) => (await c.get('/api/notifications?limit=100')).body;

/** A free mentor signed in through api 0 and a seeker through api 1, each with a socket on their api. */
async function partiesOnTwoProcesses() {
  const mentor = await bookableMentor(via(0), { price: '0.00' });
  const seekerUser = await createVerifiedUser(stack);
  const seeker = await signIn(via(1), seekerUser);
  const mentorSocket = await openSocket(mentor.c, stack.baseUrls[0]);
  const seekerSocket = await openSocket(seeker, stack.baseUrls[1]);
  return { mentor, seeker, mentorSocket, seekerSocket };
}

describe('live notifications', () => {
  it('reach both parties of a free booking on their own api processes, as the API lists them', async () => {
    const { mentor, seeker, mentorSocket, seekerSocket } = await partiesOnTwoProcesses();
    try {
      const booked = await reserve(seeker, mentor, startIn(30));
      assert.equal(booked.freeBooking, true);
      assert.equal(booked.booking.status, 'confirmed');

      const mine = await seekerSocket.next('notification', (n) => n.type === 'booking_confirmed');
      assert.equal(mine.title, 'Booking confirmed');
      assert.equal(mine.isRead, false);
      assert.equal(mine.actionUrl, '/dashboard');
      const theirs = await mentorSocket.next('notification', (n) => n.type === 'booking_confirmed');
      assert.equal(theirs.title, 'New booking');
      assert.equal(theirs.actionUrl, '/mentor-dashboard');

      // The pushed object is the one the REST API returns.
      const listed = (await notificationsOf(seeker)).find((n) => n.id === mine.id);
      assert.deepEqual(
        { ...mine, createdAt: Date.parse(mine.createdAt) },
        { ...listed, createdAt: Date.parse(listed.createdAt) },
      );
      assert.ok((await notificationsOf(mentor.c)).some((n) => n.id === theirs.id));
      // Each notification reaches only its recipient.
      assert.ok(!mentorSocket.frames.some((f) => f.event === 'notification' && f.data.id === mine.id));
      assert.ok(!seekerSocket.frames.some((f) => f.event === 'notification' && f.data.id === theirs.id));
    } finally {
      mentorSocket.close();
      seekerSocket.close();
    }
  });

  it('wait in the queue while no worker runs and arrive once one starts', async () => {
    const { mentor, seeker, mentorSocket, seekerSocket } = await partiesOnTwoProcesses();
    try {
      await stack.stopWorker();
      const booked = await reserve(seeker, mentor, startIn(40));
      assert.equal(booked.booking.status, 'confirmed');
      assert.deepEqual(await notificationsOf(seeker), [], 'not written without a worker');

      await stack.startWorker();
      const pushed = await seekerSocket.next('notification', (n) => n.type === 'booking_confirmed');
      await mentorSocket.next('notification', (n) => n.type === 'booking_confirmed');
      // Announced in the transaction that wrote it: listed by the time it arrives.
      const listed = (await notificationsOf(seeker)).find((n) => n.id === pushed.id);
      assert.equal(listed?.title, 'Booking confirmed');
    } finally {
      mentorSocket.close();
      seekerSocket.close();
    }
  });
});

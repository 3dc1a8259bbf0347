// A WebSocket client for /api/ws standing in for one browser tab.
//
//   const s = await connect(stack, c, 1);           // c: a signed-in client (or a sid string); api process 1
//   s.send('sendMessage', { conversationId, content: 'hi', clientId: 'c1' });
//   const m = await s.next('messageReceived', (d) => d.clientId === 'c1');
//   s.received('messageReceived')                    // every such frame so far (consumed or not)
//   await s.closed                                   // resolves { code, reason } when the server closes it
//   const r = await refused(stack, { cookie, origin }) // { status, body } of a refused upgrade
import WebSocket from 'ws';

const DEFAULT_WAIT_MS = 15_000;

function wsUrl(stack, apiIndex) {
  const base = stack.baseUrls?.[apiIndex] ?? stack.baseUrl;
  return `${base.replace(/^http/, 'ws')}/api/ws`;
}

function cookieOf(who) {
  if (!who) return undefined;
  const sid = typeof who === 'string' ? who : who.cookies?.sid;
  return sid ? `sid=${sid}` : undefined;
}

function open(stack, { cookie, apiIndex = 0, origin } = {}) {
  const headers = {};
  if (cookie) headers.cookie = cookie;
  if (origin) headers.origin = origin;
  return new WebSocket(wsUrl(stack, apiIndex), { headers });
}

/** Connects as `who` (a signed-in client or a sid) to api process `apiIndex`; resolves once `ready` arrives. */
export async function connect(
  stack,
  who,
  apiIndex = 0,
  { origin = new URL(stack.baseUrls?.[apiIndex] ?? stack.baseUrl).origin } = {},
) {
  const ws = open(stack, { cookie: cookieOf(who), apiIndex, origin });
  const frames = [];
  const consumed = new Set();
  const waiters = [];
  let closedResolve;
  const closed = new Promise((resolve) => {
    closedResolve = resolve;
  });

  const offer = (frame, index) => {
    for (const w of waiters) {
      if (!w.done && frame.event === w.event && w.predicate(frame.data)) {
        w.done = true;
        consumed.add(index);
        w.resolve(frame.data);
        return;
      }
    }
  };
  ws.on('message', (raw) => {
    let frame;
    try {
      frame = JSON.parse(raw.toString());
    } catch {
      frame = { event: '(unparsable)', data: raw.toString() };
    }
    frames.push(frame);
    offer(frame, frames.length - 1);
  });
  ws.on('close', (code, reason) => closedResolve({ code, reason: reason.toString() }));

  const socket = {
    ws,
    frames,
    closed,
    /** Sends one frame { event, data }. */
    send(event, data = {}) {
      ws.send(JSON.stringify({ event, data }));
    },
    /** Sends raw text as it is. */
    raw(text) {
      ws.send(text);
    },
    /** The first not yet consumed `event` frame whose data satisfies `predicate` (waiting for it). */
    next(event, predicate = () => true, timeoutMs = DEFAULT_WAIT_MS) {
      const index = frames.findIndex((f, i) => !consumed.has(i) && f.event === event && predicate(f.data));
      if (index >= 0) {
        consumed.add(index);
        return Promise.resolve(frames[index].data);
      }
      return new Promise((resolve, reject) => {
        const waiter = { event, predicate, done: false, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          if (waiter.done) return;
          waiter.done = true;
          const seen = frames.map((f) => f.event).join(', ');
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${event} (frames so far: ${seen || 'none'})`));
        }, timeoutMs).unref();
      });
    },
    /** Every `event` frame received so far. */
    received(event) {
      return frames.filter((f) => f.event === event).map((f) => f.data);
    },
    close() {
      ws.close();
      return closed;
    },
  };

  await new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
    ws.once('open', resolve);
  });
  // A process that is stopping may close the socket before it is ready: fail at once then.
  await Promise.race([
    socket.next('ready'),
    closed.then(({ code }) => {
      throw new Error(`closed with ${code} before it was ready`);
    }),
  ]);
  return socket;
}

/** Tries an upgrade that should be refused; resolves to { status, body }. */
export function refused(stack, { who, cookie = cookieOf(who), apiIndex = 0, origin } = {}) {
  const ws = open(stack, { cookie, apiIndex, origin });
  return new Promise((resolve, reject) => {
    ws.once('open', () => {
      ws.close();
      reject(new Error('the upgrade was accepted'));
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => {
        let parsed = body;
        try {
          parsed = JSON.parse(body);
        } catch {
          // not JSON: the text as it came
        }
        resolve({ status: res.statusCode, body: parsed });
      });
    });
    ws.once('error', () => {});
  });
}

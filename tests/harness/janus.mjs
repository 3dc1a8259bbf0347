// A private Janus (Debian's `janus`) for a test, with the project's config (scripts/janus/*.jcfg,
// rendered as scripts/lib/janus.sh renders it) on free ports in a temp folder.
//
//   const janus = await startJanus();
//   janus.env      // JANUS_HTTP_URL, JANUS_WS_URL, JANUS_ADMIN_KEY, JANUS_TOKEN_SECRET for the api
//   await startJanus({ turn })  // with a started harness/turn.mjs: Janus relays through it too
//   await janus.stop()
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './stack.mjs';

const STARTUP_TIMEOUT_MS = 20_000;
// Each Janus gets its own 100 UDP ports for media, picked at random from 30000-49999.
const RTP_PORTS = 100;

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const secret = () => randomBytes(24).toString('hex');

// How long the TURN credentials minted for Janus last (a test's Janus lives minutes).
const JANUS_TURN_TTL_SECONDS = 86_400;

export async function startJanus({ turn = null } = {}) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'janus-'));
  const [http, admin, ws] = [await freePort(), await freePort(), await freePort()];
  const rtp = 30_000 + Math.floor(Math.random() * 200) * RTP_PORTS;
  const values = {
    CONFIG_DIR: dir,
    ADMIN_SECRET: secret(),
    TOKEN_SECRET: secret(),
    ADMIN_KEY: secret(),
    HTTP_PORT: String(http),
    ADMIN_PORT: String(admin),
    WS_PORT: String(ws),
    RTP_PORTS: `${rtp}-${rtp + RTP_PORTS - 1}`,
  };
  if (turn) {
    const { username, credential } = turn.credentials('janus', JANUS_TURN_TTL_SECONDS);
    Object.assign(values, {
      TURN_SERVER: turn.host,
      TURN_PORT: String(turn.port),
      TURN_USER: username,
      TURN_PWD: credential,
    });
  }
  const templates = path.join(repoRoot, 'scripts', 'janus');
  for (const name of await readdir(templates)) {
    let text = await readFile(path.join(templates, name), 'utf8');
    if (turn) text = text.replaceAll('#@TURN@ ', '');
    for (const [key, value] of Object.entries(values)) text = text.replaceAll(`@${key}@`, value);
    await writeFile(path.join(dir, name), text);
  }
  const log = path.join(dir, 'janus.log');
  const child = spawn('janus', ['-F', dir, '--disable-colors', '-L', log], { stdio: 'ignore' });
  let exited = null;
  child.once('exit', (code, signal) => {
    exited = { code, signal };
  });
  child.once('error', (error) => {
    exited = { error };
  });
  const env = {
    JANUS_HTTP_URL: `http://127.0.0.1:${http}/janus`,
    JANUS_WS_URL: `ws://127.0.0.1:${ws}`,
    JANUS_ADMIN_KEY: values.ADMIN_KEY,
    JANUS_TOKEN_SECRET: values.TOKEN_SECRET,
  };
  const stop = async () => {
    if (!exited) {
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await done;
      clearTimeout(timer);
    }
    if (!process.env.KEEP_STACK) await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (exited) throw new Error(`janus exited (${JSON.stringify(exited)}): is Debian's janus installed? log ${log}`);
    try {
      const res = await fetch(`${env.JANUS_HTTP_URL}/info`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) break;
    } catch {
      // not listening yet: ask again until the deadline
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`janus did not answer within ${STARTUP_TIMEOUT_MS} ms; log ${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { env, log, pid: child.pid, stop };
}

/**
 * A Janus session token signed with the api's secret (`JANUS_TOKEN_SECRET`, which only the api and
 * this test harness know): what the tests use to look into Janus as the api would.
 */
export function apiToken(janus, seconds = 60) {
  const data = `${Math.floor(Date.now() / 1000) + seconds},janus,janus.plugin.videoroom`;
  const sig = createHmac('sha1', janus.env.JANUS_TOKEN_SECRET).update(data).digest('base64');
  return `${data}:${sig}`;
}

/**
 * Sends one synchronous VideoRoom request on a fresh Janus session with `token` (undefined: none),
 * as any client of Janus's HTTP API could; resolves to the plugin's answer or Janus's error text.
 */
export async function videoroom(janus, token, body) {
  const post = async (url, payload) =>
    (
      await fetch(url, {
        method: 'POST',
        body: JSON.stringify({ ...payload, transaction: secret(), ...(token === undefined ? {} : { token }) }),
      })
    ).json();
  const session = await post(janus.env.JANUS_HTTP_URL, { janus: 'create' });
  if (session.janus !== 'success') return { refused: session.error?.reason ?? JSON.stringify(session) };
  const sessionUrl = `${janus.env.JANUS_HTTP_URL}/${session.data.id}`;
  try {
    const handle = await post(sessionUrl, { janus: 'attach', plugin: 'janus.plugin.videoroom' });
    if (handle.janus !== 'success') return { refused: handle.error?.reason ?? JSON.stringify(handle) };
    const answer = await post(`${sessionUrl}/${handle.data.id}`, { janus: 'message', body });
    return answer.plugindata?.data ?? { refused: answer.error?.reason ?? JSON.stringify(answer) };
  } finally {
    await post(sessionUrl, { janus: 'destroy' });
  }
}

/** Whether a room exists (asked with the api's token). */
export async function roomExists(janus, room) {
  return (await videoroom(janus, apiToken(janus), { request: 'exists', room })).exists;
}

/** Who is in a room now: [{id, display, publisher}] (asked with the api's token). */
export async function participants(janus, room) {
  const data = await videoroom(janus, apiToken(janus), { request: 'listparticipants', room });
  return data.participants ?? [];
}

// How long a watcher's long poll may stay open (Janus answers within 30 s even when idle).
const WATCH_POLL_MS = 40_000;

/**
 * Sits in a room as an extra participant (joined with the api's token, as the api would join a
 * member) and collects every VideoRoom event Janus sends it, e.g. the `moderation` events a
 * moderator's mute sends every participant: { id, mid, moderation: 'muted'|'unmuted' }.
 *
 *   const w = await watchRoom(janus, room);
 *   await w.next((e) => e.moderation === 'unmuted');   // waits (15 s at most)
 *   w.events                                          // every event's plugin data so far
 *   await w.stop()
 */
export async function watchRoom(janus, room) {
  const token = apiToken(janus, 600);
  const post = async (url, payload) =>
    (await fetch(url, { method: 'POST', body: JSON.stringify({ ...payload, transaction: secret(), token }) })).json();
  const session = await post(janus.env.JANUS_HTTP_URL, { janus: 'create' });
  if (session.janus !== 'success') throw new Error(`janus create: ${JSON.stringify(session)}`);
  const sessionUrl = `${janus.env.JANUS_HTTP_URL}/${session.data.id}`;
  const handle = await post(sessionUrl, { janus: 'attach', plugin: 'janus.plugin.videoroom' });
  if (handle.janus !== 'success') throw new Error(`janus attach: ${JSON.stringify(handle)}`);
  const events = [];
  const waiters = [];
  const stopping = new AbortController();
  const poll = async () => {
    while (!stopping.signal.aborted) {
      let answer;
      try {
        const url = `${sessionUrl}?maxev=10&token=${encodeURIComponent(token)}`;
        const signal = AbortSignal.any([stopping.signal, AbortSignal.timeout(WATCH_POLL_MS)]);
        answer = await (await fetch(url, { signal })).json();
      } catch {
        continue;
      }
      for (const event of Array.isArray(answer) ? answer : [answer]) {
        const data = event.plugindata?.data;
        if (!data) continue;
        events.push(data);
        for (const w of waiters.filter((w) => !w.done && w.predicate(data))) {
          w.done = true;
          w.resolve(data);
        }
      }
    }
  };
  const polling = poll();
  const id = 1 + Math.floor(Math.random() * 2 ** 40);
  await post(`${sessionUrl}/${handle.data.id}`, {
    janus: 'message',
    body: { request: 'join', ptype: 'publisher', room, id, display: 'test watcher' },
  });
  const watcher = {
    id,
    events,
    /** The first event so far or to come that satisfies `predicate`. */
    next(predicate, timeoutMs = 15_000) {
      const seen = events.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = { predicate, resolve, done: false };
        waiters.push(waiter);
        setTimeout(() => {
          if (waiter.done) return;
          waiter.done = true;
          reject(new Error(`no such Janus event within ${timeoutMs} ms; saw ${JSON.stringify(events)}`));
        }, timeoutMs).unref();
      });
    },
    async stop() {
      stopping.abort();
      await post(sessionUrl, { janus: 'destroy' });
      await polling;
    },
  };
  await watcher.next((e) => e.videoroom === 'joined' && e.id === id);
  return watcher;
}

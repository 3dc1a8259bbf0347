// A private Janus (Debian's `janus`) for a test, with the project's config (scripts/janus/*.jcfg,
// rendered as scripts/lib/janus.sh renders it) on free ports in a temp folder.
//
//   const janus = await startJanus();
//   janus.env      // JANUS_HTTP_URL, JANUS_WS_URL, JANUS_ADMIN_KEY, JANUS_TOKEN_SECRET for the api
//   await startJanus({ turn })  // with a started harness/turn.mjs: Janus relays through it too
//   await janus.stop()
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
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

/** Asks Janus (with a caller's signed session token) whether a room exists. */
export async function roomExists(janus, token, room) {
  const post = async (url, body) =>
    (await fetch(url, { method: 'POST', body: JSON.stringify({ ...body, transaction: secret(), token }) })).json();
  const session = await post(janus.env.JANUS_HTTP_URL, { janus: 'create' });
  const sessionUrl = `${janus.env.JANUS_HTTP_URL}/${session.data.id}`;
  const handle = await post(sessionUrl, { janus: 'attach', plugin: 'janus.plugin.videoroom' });
  const answer = await post(`${sessionUrl}/${handle.data.id}`, { janus: 'message', body: { request: 'exists', room } });
  await post(sessionUrl, { janus: 'destroy' });
  return answer.plugindata.data.exists;
}

/**
 * Joins a room as a publisher with a caller's tokens (as a browser would, over the HTTP API), then
 * leaves; resolves to 'joined' or Janus's error text.
 */
export async function tryJoin(janus, { sessionToken, roomToken, roomId, participantId }) {
  const post = async (url, body) =>
    (
      await fetch(url, {
        method: 'POST',
        body: JSON.stringify({ ...body, transaction: secret(), token: sessionToken }),
      })
    ).json();
  const session = await post(janus.env.JANUS_HTTP_URL, { janus: 'create' });
  if (session.janus !== 'success') return session.error?.reason ?? JSON.stringify(session);
  const sessionUrl = `${janus.env.JANUS_HTTP_URL}/${session.data.id}`;
  try {
    const handle = await post(sessionUrl, { janus: 'attach', plugin: 'janus.plugin.videoroom' });
    await post(`${sessionUrl}/${handle.data.id}`, {
      janus: 'message',
      body: { request: 'join', ptype: 'publisher', room: roomId, id: participantId, token: roomToken },
    });
    // The answer to a join comes as an event on the session's long poll.
    for (let i = 0; i < 20; i += 1) {
      const res = await fetch(`${sessionUrl}?maxev=1&token=${encodeURIComponent(sessionToken)}`);
      const event = await res.json();
      const data = event.plugindata?.data;
      if (data?.videoroom === 'joined') return 'joined';
      if (data?.error) return data.error;
    }
    return 'no answer';
  } finally {
    await post(sessionUrl, { janus: 'destroy' });
  }
}

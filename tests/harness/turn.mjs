// A private TURN server (Debian's coturn, `turnserver`) for a test, with the project's config
// (scripts/turn/turnserver.conf, rendered as scripts/lib/turn.sh renders it) on 127.0.0.1, a free
// port and its own relay port range; pid file, log and user database under tests/artifacts/turn/.
//
//   const turn = await startTurn();   // { relayIp: relayAddress() } to relay to Janus
//   turn.env       // RTC_TURN_URL, RTC_TURN_SECRET for the api
//   turn.host, turn.port, turn.secret, turn.url
//   turn.credentials('janus', ttlSeconds)  // { username, credential }: the TURN REST scheme
//   await allocate(turn, { username, credential })  // 'success' or the error (a real Allocate over UDP)
//   await turn.stop()
//
// `--allow-loopback-peers` is added on the command line: every peer of a test is on 127.0.0.1.
import { spawn } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { artifactsDir, repoRoot } from './stack.mjs';

const STARTUP_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;
// Each coturn gets its own 100 UDP relay ports, picked at random from 50000-59999 (Janus's test
// ranges are in 30000-49999).
const RELAY_PORTS = 100;
const RELAY_BASE = 50_000;
const RELAY_SLOTS = 100;
export const TURN_REALM = 'mystic-mentors';
// Default lifetime of credentials minted here (Janus's, and those of allocate()).
const DEFAULT_TTL_SECONDS = 86_400;

/** A port free on 127.0.0.1 for both TCP and UDP a moment ago (coturn listens on both). */
async function freeTcpUdpPort() {
  for (;;) {
    const port = await new Promise((resolve, reject) => {
      const server = net.createServer();
      server.unref();
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port: p } = server.address();
        server.close(() => resolve(p));
      });
    });
    const udpFree = await new Promise((resolve) => {
      const socket = dgram.createSocket('udp4');
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
}

/** The TURN REST credentials coturn's `use-auth-secret` accepts: `<expiry>:<name>` / base64 HMAC-SHA1. */
export function turnCredentials(secret, name, ttlSeconds = DEFAULT_TTL_SECONDS) {
  const username = `${Math.floor(Date.now() / 1000) + ttlSeconds}:${name}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return { username, credential };
}

/** Fills the @NAME@ placeholders of scripts/turn/turnserver.conf. */
export async function renderTurnConfig(values) {
  let text = await readFile(path.join(repoRoot, 'scripts', 'turn', 'turnserver.conf'), 'utf8');
  for (const [key, value] of Object.entries(values)) text = text.replaceAll(`@${key}@`, value);
  return text;
}

/**
 * The machine's own first non-loopback IPv4 address (127.0.0.1 without one). A coturn that relays to
 * Janus must relay from it: Janus offers only such host candidates (it skips loopback), which a relay
 * socket bound to 127.0.0.1 cannot reach. Relayed traffic still never leaves this machine. Between
 * two browsers, relay from 127.0.0.1 (coturn does not relay to its own relay address).
 */
export function relayAddress() {
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

export async function startTurn({ relayIp = '127.0.0.1' } = {}) {
  const id = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const dir = path.join(artifactsDir, 'turn', id);
  await mkdir(dir, { recursive: true });
  const port = await freeTcpUdpPort();
  const relay = RELAY_BASE + Math.floor(Math.random() * RELAY_SLOTS) * RELAY_PORTS;
  const secret = randomBytes(24).toString('hex');
  const conf = path.join(dir, 'turnserver.conf');
  const text = await renderTurnConfig({
    LISTEN_IP: '127.0.0.1',
    RELAY_IP: relayIp,
    PORT: String(port),
    MIN_PORT: String(relay),
    MAX_PORT: String(relay + RELAY_PORTS - 1),
    SECRET: secret,
    DATA_DIR: dir,
    LOG_FILE: path.join(dir, 'turnserver.log'),
  });
  await writeFile(conf, text, { mode: 0o600 });
  const log = path.join(dir, 'turnserver.log');
  const child = spawn('turnserver', ['-c', conf, '--allow-loopback-peers'], { stdio: 'ignore' });
  let exited = null;
  const exit = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    });
    child.once('error', (error) => {
      exited = { error: error.message };
      resolve(exited);
    });
  });
  const host = '127.0.0.1';
  const url = `turn:${host}:${port}?transport=udp`;
  const turn = {
    host,
    port,
    secret,
    url,
    log,
    dir,
    pid: child.pid,
    relayPorts: [relay, relay + RELAY_PORTS - 1],
    env: { RTC_TURN_URL: url, RTC_TURN_SECRET: secret },
    credentials: (name, ttlSeconds) => turnCredentials(secret, name, ttlSeconds),
    stop: async () => {
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exit;
        clearTimeout(timer);
      }
      if (!process.env.KEEP_STACK) await rm(dir, { recursive: true, force: true });
    },
  };
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    if (exited) {
      throw new Error(`turnserver exited (${JSON.stringify(exited)}): is Debian's coturn installed? log ${log}`);
    }
    if ((await binding(host, port, 500).catch(() => null)) === 'success') break;
    if (Date.now() > deadline) {
      await turn.stop();
      throw new Error(`turnserver did not answer a STUN binding within ${STARTUP_TIMEOUT_MS} ms; log ${log}`);
    }
  }
  return turn;
}

// --- A few STUN/TURN messages (RFC 5389 / RFC 5766), enough to check a server and its credentials.

const MAGIC = 0x2112a442;
const BINDING_REQUEST = 0x0001;
const BINDING_SUCCESS = 0x0101;
const ALLOCATE_REQUEST = 0x0003;
const ALLOCATE_SUCCESS = 0x0103;
const ALLOCATE_ERROR = 0x0113;
const REFRESH_REQUEST = 0x0004;
const ATTR = {
  USERNAME: 0x0006,
  MESSAGE_INTEGRITY: 0x0008,
  ERROR_CODE: 0x0009,
  LIFETIME: 0x000d,
  REALM: 0x0014,
  NONCE: 0x0015,
  XOR_RELAYED_ADDRESS: 0x0016,
  REQUESTED_TRANSPORT: 0x0019,
};
const UDP_PROTOCOL = 17;

function attribute(type, value) {
  const padded = Buffer.alloc(4 + Math.ceil(value.length / 4) * 4);
  padded.writeUInt16BE(type, 0);
  padded.writeUInt16BE(value.length, 2);
  value.copy(padded, 4);
  return padded;
}

/** A STUN message; with `key`, MESSAGE-INTEGRITY (HMAC-SHA1) is appended. */
function message(type, attributes, key) {
  const txid = randomBytes(12);
  const body = Buffer.concat(attributes);
  const header = (length) => {
    const h = Buffer.alloc(20);
    h.writeUInt16BE(type, 0);
    h.writeUInt16BE(length, 2);
    h.writeUInt32BE(MAGIC, 4);
    txid.copy(h, 8);
    return h;
  };
  if (!key) return { txid, bytes: Buffer.concat([header(body.length), body]) };
  const signed = Buffer.concat([header(body.length + 24), body]);
  const integrity = attribute(ATTR.MESSAGE_INTEGRITY, createHmac('sha1', key).update(signed).digest());
  return { txid, bytes: Buffer.concat([signed, integrity]) };
}

function parse(bytes) {
  const type = bytes.readUInt16BE(0);
  const length = bytes.readUInt16BE(2);
  const attrs = new Map();
  for (let at = 20; at + 4 <= 20 + length;) {
    const t = bytes.readUInt16BE(at);
    const l = bytes.readUInt16BE(at + 2);
    attrs.set(t, bytes.subarray(at + 4, at + 4 + l));
    at += 4 + Math.ceil(l / 4) * 4;
  }
  const error = attrs.get(ATTR.ERROR_CODE);
  return {
    type,
    txid: bytes.subarray(8, 20),
    attrs,
    error: error ? { code: error[2] * 100 + error[3], reason: error.subarray(4).toString() } : null,
  };
}

/** Sends `msg` over `socket` and resolves to the parsed answer with its transaction id. */
function exchange(socket, host, port, msg, timeoutMs) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('message', onMessage);
      reject(new Error(`no STUN answer from ${host}:${port} within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (bytes) => {
      if (bytes.length < 20) return;
      const answer = parse(bytes);
      if (!answer.txid.equals(msg.txid)) return;
      clearTimeout(timer);
      socket.off('message', onMessage);
      resolve(answer);
    };
    socket.on('message', onMessage);
    socket.send(msg.bytes, port, host);
  });
}

async function withSocket(fn) {
  const socket = dgram.createSocket('udp4');
  await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
  try {
    return await fn(socket);
  } finally {
    socket.close();
  }
}

/** A STUN Binding request; resolves to 'success' when the server answers it. */
export function binding(host, port, timeoutMs = 2_000) {
  return withSocket(async (socket) => {
    const answer = await exchange(socket, host, port, message(BINDING_REQUEST, []), timeoutMs);
    return answer.type === BINDING_SUCCESS ? 'success' : `type 0x${answer.type.toString(16)}`;
  });
}

/**
 * A TURN Allocate (UDP relay) with long-term credentials, as a browser makes it; resolves to
 * 'success' (with the allocation released again) or the server's error ('401 Unauthorized', ...).
 * `server` is { host, port } (a started turn, or parsed from a `turn:` url).
 */
export function allocate(server, { username, credential }, timeoutMs = 2_000) {
  const { host, port } = server;
  return withSocket(async (socket) => {
    const transport = attribute(ATTR.REQUESTED_TRANSPORT, Buffer.from([UDP_PROTOCOL, 0, 0, 0]));
    const first = await exchange(socket, host, port, message(ALLOCATE_REQUEST, [transport]), timeoutMs);
    if (first.type !== ALLOCATE_ERROR || first.error?.code !== 401) {
      return first.error ? `${first.error.code} ${first.error.reason}` : `type 0x${first.type.toString(16)}`;
    }
    const realm = first.attrs.get(ATTR.REALM);
    const nonce = first.attrs.get(ATTR.NONCE);
    const key = createHash('md5').update(`${username}:${realm.toString()}:${credential}`).digest();
    const auth = [
      attribute(ATTR.USERNAME, Buffer.from(username)),
      attribute(ATTR.REALM, realm),
      attribute(ATTR.NONCE, nonce),
    ];
    const second = await exchange(socket, host, port, message(ALLOCATE_REQUEST, [transport, ...auth], key), timeoutMs);
    if (second.type !== ALLOCATE_SUCCESS) {
      return second.error ? `${second.error.code} ${second.error.reason}` : `type 0x${second.type.toString(16)}`;
    }
    if (!second.attrs.has(ATTR.XOR_RELAYED_ADDRESS)) return 'success without a relayed address';
    // Release the allocation (a Refresh with lifetime 0) so the test leaves nothing behind.
    const zero = attribute(ATTR.LIFETIME, Buffer.alloc(4));
    await exchange(socket, host, port, message(REFRESH_REQUEST, [zero, ...auth], key), timeoutMs).catch(() => {});
    return 'success';
  });
}

/** { host, port } of a `turn:host:port?transport=udp` url. */
export function parseTurnUrl(url) {
  const m = /^turns?:([^:?]+)(?::(\d+))?/.exec(url);
  if (!m) throw new Error(`not a turn: url: ${url}`);
  return { host: m[1], port: Number(m[2] ?? 3478) };
}

// A Web Push service of our own on loopback (RFC 8030's push resource), standing in for the
// browsers' push services, and subscribers with key pairs made here, so a test decrypts each push
// (RFC 8291, aes128gcm) and checks its headers and VAPID token (RFC 8292).
//
//   const service = await startPushService();
//   const sub = service.subscriber();              // { endpoint, keys: { p256dh, auth } }: what a browser posts
//   service.answer(sub, [503, { status: 410 }]);   // the next answers for this endpoint (then 201)
//   const push = await service.next(sub, (p) => p.payload.kind === 'incoming_call');
//   push.payload, push.headers.ttl, push.vapid.claims   // decrypted, read and verified
//   service.accepted(sub)                          // every push answered 201, oldest first
//   service.hold(sub) / service.release(sub)       // hold requests unanswered; `held` lists them
//   await service.stop();
import crypto from 'node:crypto';
import http from 'node:http';

const b64url = (buf) => Buffer.from(buf).toString('base64url');

/** RFC 8291 decryption of one aes128gcm body for a subscriber (`ecdh`, `auth`). */
export function decrypt(body, { ecdh, auth }) {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const asPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65 || ciphertext.length > recordSize)
    throw new Error('not one aes128gcm record keyed by a P-256 point');
  const shared = ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), asPublic]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', shared, auth, keyInfo, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('the last record must end with the delimiter 0x02');
  return padded.subarray(0, end);
}

/** The VAPID `Authorization` header read and its ES256 signature checked with the key it names. */
export function readVapid(header) {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`not a VAPID Authorization header: ${header}`);
  const [, token, k] = m;
  const [h, c, s] = token.split('.');
  const point = Buffer.from(k, 'base64url');
  const key = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) },
    format: 'jwk',
  });
  const valid = crypto.verify(
    'sha256',
    Buffer.from(`${h}.${c}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  return {
    key: k,
    valid,
    header: JSON.parse(Buffer.from(h, 'base64url').toString()),
    claims: JSON.parse(Buffer.from(c, 'base64url').toString()),
  };
}

export async function startPushService() {
  const subscribers = new Map(); // path -> { ecdh, auth, answers: [], held: boolean }
  const requests = []; // every request: { path, status, headers, body, payload?, vapid?, error?, aborted? }
  const held = []; // { path, req, res, closed: Promise }
  const waiters = new Set();
  let seq = 0;

  const notify = () => {
    for (const w of waiters) w();
  };

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url, 'http://x').pathname;
      const sub = subscribers.get(path);
      const entry = { path, method: req.method, headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
      if (!sub) {
        res.writeHead(404).end();
        return;
      }
      try {
        entry.payload = JSON.parse(decrypt(entry.body, sub).toString('utf8'));
      } catch (err) {
        entry.error = String(err);
      }
      try {
        entry.vapid = readVapid(req.headers.authorization);
      } catch (err) {
        entry.vapidError = String(err);
      }
      const respond = () => {
        // A held request whose sender went away was never accepted: nothing to answer.
        if (entry.aborted || res.writableEnded) return;
        const answer = sub.answers.shift() ?? { status: 201 };
        entry.status = answer.status;
        requests.push(entry);
        notify();
        res.writeHead(answer.status, {
          ...(answer.status === 201 ? { location: `${path}/messages/${++seq}` } : {}),
          ...(answer.headers ?? {}),
        });
        res.end();
      };
      if (sub.held) {
        let closedResolve;
        const closed = new Promise((resolve) => {
          closedResolve = resolve;
        });
        // The sender went away before we answered: the push was never accepted.
        res.on('close', () => {
          if (!res.writableEnded) {
            entry.aborted = true;
            entry.status = 'aborted';
            requests.push(entry);
            notify();
          }
          closedResolve();
        });
        held.push({ path, respond, closed, entry });
        notify();
        return;
      }
      respond();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;

  const pathOf = (sub) => new URL(sub.endpoint).pathname;

  const service = {
    base,
    origin: base,
    requests,
    held,
    /** A new browser: its subscription JSON, with the private parts for decryption kept here. */
    subscriber() {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = crypto.randomBytes(16);
      const path = `/push/${crypto.randomUUID()}`;
      subscribers.set(path, { ecdh, auth, answers: [], held: false });
      return {
        endpoint: `${base}${path}`,
        expirationTime: null,
        keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) },
      };
    },
    /** The next answers for this endpoint, in order: numbers or { status, headers }; then 201. */
    answer(sub, answers) {
      subscribers.get(pathOf(sub)).answers.push(...answers.map((a) => (typeof a === 'number' ? { status: a } : a)));
    },
    /** Requests to this endpoint stay unanswered until `release`. */
    hold(sub) {
      subscribers.get(pathOf(sub)).held = true;
    },
    /** Answers the held requests still open and stops holding. */
    release(sub) {
      const path = pathOf(sub);
      subscribers.get(path).held = false;
      for (const h of held.filter((x) => x.path === path)) {
        h.respond();
        held.splice(held.indexOf(h), 1);
      }
    },
    /** Every request to this endpoint so far. */
    requestsTo(sub) {
      return requests.filter((r) => r.path === pathOf(sub));
    },
    /** Every push to this endpoint the service accepted (answered 201). */
    accepted(sub) {
      return this.requestsTo(sub).filter((r) => r.status === 201);
    },
    /** The first accepted push to `sub` matching `match`, waiting up to `timeoutMs`. */
    next(sub, match = () => true, timeoutMs = 20_000) {
      return this.waitFor(() => this.accepted(sub).find(match), `a push to ${pathOf(sub)}`, timeoutMs);
    },
    /** Resolves to the first truthy `check()`, re-checked on every request. */
    waitFor(check, what = 'a push', timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const attempt = () => {
          const found = check();
          if (!found) return;
          waiters.delete(attempt);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(attempt);
          const seen = requests.map((r) => `${r.path} ${r.status} ${r.payload?.kind ?? r.error}`).join('; ');
          reject(new Error(`no ${what} within ${timeoutMs} ms (requests: ${seen || 'none'})`));
        }, timeoutMs);
        waiters.add(attempt);
        attempt();
      });
    },
    stop() {
      server.closeAllConnections?.();
      return new Promise((resolve) => server.close(resolve));
    },
  };
  return service;
}

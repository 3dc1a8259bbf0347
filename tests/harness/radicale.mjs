// A private CalDAV server for a test (Debian's radicale, as scripts/lib/radicale.sh starts it):
// 127.0.0.1 on a free port, one htpasswd user with a random password (plain htpasswd), storage under
// tests/artifacts/radicale/<id>/. The test talks to it over HTTP like any CalDAV client.
//
//   const cal = await startRadicale();
//   cal.url, cal.user, cal.password          // what a mentor types into the Calendar tab
//   await cal.makeCalendar('work', 'Work')  // MKCALENDAR; resolves to the calendar's URL
//   await cal.put('work', 'dentist.ics', ics)
//   await cal.get('work', 'booking-<id>.ics')  // { status, text }
//   await cal.stop(); await cal.start()      // the same port and storage again
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { artifactsDir } from './stack.mjs';
import { until } from './wait.mjs';

const STARTUP_TIMEOUT_MS = 20_000;

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

export async function startRadicale() {
  const id = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  const dir = path.join(artifactsDir, 'radicale', id);
  await mkdir(path.join(dir, 'collections'), { recursive: true });
  const user = 'mentor';
  const password = randomBytes(12).toString('hex');
  const users = path.join(dir, 'users');
  await writeFile(users, `${user}:${password}\n`, { mode: 0o600 });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const log = path.join(dir, 'radicale.log');
  const auth = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  let child = null;
  let exited = null;

  async function start() {
    const { openSync } = await import('node:fs');
    const out = openSync(log, 'a');
    exited = null;
    child = spawn(
      'radicale',
      [
        '--server-hosts',
        `127.0.0.1:${port}`,
        '--auth-type',
        'htpasswd',
        '--auth-htpasswd-filename',
        users,
        '--auth-htpasswd-encryption',
        'plain',
        '--storage-filesystem-folder',
        path.join(dir, 'collections'),
      ],
      { stdio: ['ignore', out, out] },
    );
    child.once('exit', (code, signal) => {
      exited = { code, signal };
    });
    await until(
      `radicale to answer on ${url} (log ${log})`,
      async () => {
        if (exited) throw new Error(`radicale exited ${JSON.stringify(exited)}; log ${log}`);
        try {
          await fetch(url);
          return true;
        } catch {
          return false;
        }
      },
      STARTUP_TIMEOUT_MS,
    );
  }

  async function stop() {
    if (!child || exited) return;
    const done = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await done;
  }

  async function request(method, target, { body, headers = {} } = {}) {
    const res = await fetch(new URL(target, url), {
      method,
      headers: { Authorization: auth, ...headers },
      body,
    });
    return { status: res.status, text: await res.text(), headers: res.headers };
  }

  const calendarUrl = (name) => `${url}${user}/${name}/`;

  await start();
  // The user's principal collection is made at the first authenticated request.
  await request('PROPFIND', `/${user}/`, { headers: { Depth: '0' } });

  return {
    url,
    user,
    password,
    dir,
    log,
    start,
    stop,
    request,
    calendarUrl,
    /** MKCALENDAR for events; resolves to the calendar's URL. */
    async makeCalendar(name, displayName) {
      const body = `<?xml version="1.0" encoding="utf-8"?>
<C:mkcalendar xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:set><D:prop><D:displayname>${displayName}</D:displayname>
    <C:supported-calendar-component-set><C:comp name="VEVENT"/></C:supported-calendar-component-set>
  </D:prop></D:set>
</C:mkcalendar>`;
      const r = await request('MKCALENDAR', calendarUrl(name), {
        body,
        headers: { 'Content-Type': 'application/xml' },
      });
      if (r.status !== 201) throw new Error(`MKCALENDAR ${name}: ${r.status} ${r.text}`);
      return calendarUrl(name);
    },
    /** PUT of one calendar object into calendar `name`. */
    async put(name, file, ics) {
      const r = await request('PUT', `${calendarUrl(name)}${file}`, {
        body: ics,
        headers: { 'Content-Type': 'text/calendar; charset=utf-8' },
      });
      if (r.status !== 201 && r.status !== 204) throw new Error(`PUT ${name}/${file}: ${r.status} ${r.text}`);
    },
    /** GET of one calendar object: { status, text }. */
    async get(name, file) {
      return request('GET', `${calendarUrl(name)}${file}`);
    },
  };
}

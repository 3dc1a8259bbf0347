// A private PostgreSQL cluster for tests that stop and start the database server (an outage),
// which they must never do to the shared one.
//
//   const pg = await startPostgres();   // initdb in a temp folder, pg_ctl start on a free port
//   pg.url                               // postgres://postgres@127.0.0.1:<port>/postgres (trust auth)
//   await pg.stop(); await pg.start();   // pg_ctl stop -m fast / start, both waiting
//   await pg.destroy()                   // stops it and removes the folder
//   startPostgres({ settings: ['wal_level=replica'] })   // more `-c` settings (harness/replica.mjs)
//
// Binaries: the newest /usr/lib/postgresql/*/bin (as scripts/lib/db.sh). PostgreSQL refuses to run
// as root, so as root the folder belongs to the `postgres` system user and initdb/pg_ctl run through
// `runuser -u postgres --`.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './stack.mjs';

const run = promisify(execFile);

export function binDir() {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    : [];
  versions.sort((a, b) => Number.parseFloat(a) - Number.parseFloat(b));
  if (!versions.length) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql/*/bin');
  return path.join(root, versions.at(-1), 'bin');
}

export const isRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL tool as the cluster's owner. */
export async function asOwner(bin, args) {
  const [cmd, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  try {
    return await run(cmd, argv, { cwd: '/', timeout: 120_000 });
  } catch (e) {
    throw new Error(`${path.basename(bin)} ${args.join(' ')} failed: ${e.stderr || e.message}`, { cause: e });
  }
}

export async function startPostgres({ settings = [] } = {}) {
  const bin = binDir();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'mentor-pg-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'postgres.log');
  if (isRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: g } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(g.trim()));
  }
  await asOwner(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--no-locale',
  ]);
  const port = await freePort();
  const options = [
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off -c max_connections=100`,
    ...settings.map((s) => `-c ${s}`),
  ].join(' ');
  const ctl = (...args) => asOwner(path.join(bin, 'pg_ctl'), ['-D', data, ...args]);
  let running = false;

  async function start() {
    await ctl('start', '-l', log, '-w', '-t', '60', '-o', options);
    running = true;
  }
  async function stop() {
    await ctl('stop', '-m', 'fast', '-w', '-t', '60');
    running = false;
  }
  async function destroy() {
    if (running) {
      try {
        await stop();
      } catch {
        // already stopped
      }
    }
    if (!process.env.KEEP_STACK) await rm(dir, { recursive: true, force: true });
  }

  // The cluster must not outlive a test process that forgets to destroy it.
  process.once('exit', () => {
    if (running) {
      try {
        const [cmd, argv] = isRoot
          ? ['runuser', ['-u', 'postgres', '--', path.join(bin, 'pg_ctl'), '-D', data, 'stop', '-m', 'immediate']]
          : [path.join(bin, 'pg_ctl'), ['-D', data, 'stop', '-m', 'immediate']];
        execFileSync(cmd, argv, { cwd: '/', stdio: 'ignore', timeout: 30_000 });
      } catch {
        // already stopped
      }
    }
  });

  await start();
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, log, start, stop, destroy };
}

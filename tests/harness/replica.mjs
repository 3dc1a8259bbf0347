// A private PostgreSQL primary with a real streaming replica, for the tests of catalogue reads from
// a replica (api/replica-reads.test.mjs); never the shared server.
//
//   const { primary, replica, destroy } = await startReplicated();
//   primary.url, replica.url              // postgres://postgres@127.0.0.1:<port>/postgres (trust auth)
//   startStack({ server: primary.url, readServer: replica.url })   // DATABASE_READ_URL on the replica
//   await replica.pauseReplay(); await replica.resumeReplay();      // a replica falling behind
//   await replica.stop(); await replica.start();                    // a replica going down and back
//   await destroy()                                                 // both stopped, folders removed
//
// The primary is harness/postgres.mjs's cluster with wal_level=replica; the replica is
// `pg_basebackup -R` of it (standby.signal and primary_conninfo written), started with `pg_ctl`
// on another free port, as the same owner (`postgres` when the tests run as root).
import { execFile, execFileSync } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { asOwner, binDir, isRoot, startPostgres } from './postgres.mjs';
import { freePort } from './stack.mjs';

const run = promisify(execFile);

/** Runs one statement on the server at `url` (its `postgres` database). */
async function query(url, sql, params = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(sql, params);
  } finally {
    await c.end();
  }
}

export async function startReplicated() {
  const primary = await startPostgres({ settings: ['wal_level=replica', 'max_wal_senders=5'] });
  const bin = binDir();
  let dir;
  try {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mentor-replica-'));
    if (isRoot) {
      const { stdout: u } = await run('id', ['-u', 'postgres']);
      const { stdout: g } = await run('id', ['-g', 'postgres']);
      await chown(dir, Number(u.trim()), Number(g.trim()));
    }
  } catch (e) {
    await primary.destroy();
    throw e;
  }
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'postgres.log');
  const port = await freePort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off -c max_connections=100 -c hot_standby=on`;
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

  process.once('exit', () => {
    if (!running) return;
    const argv = [path.join(bin, 'pg_ctl'), '-D', data, 'stop', '-m', 'immediate'];
    try {
      if (isRoot) execFileSync('runuser', ['-u', 'postgres', '--', ...argv], { cwd: '/', stdio: 'ignore' });
      else execFileSync(argv[0], argv.slice(1), { cwd: '/', stdio: 'ignore' });
    } catch {
      // already stopped
    }
  });

  async function destroy() {
    if (running) {
      try {
        await stop();
      } catch {
        // already stopped
      }
    }
    if (!process.env.KEEP_STACK) await rm(dir, { recursive: true, force: true });
    await primary.destroy();
  }

  try {
    await asOwner(path.join(bin, 'pg_basebackup'), [
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
      '-D',
      data,
      '-d',
      primary.url,
    ]);
    await start();
  } catch (e) {
    await destroy();
    throw e;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  const replica = {
    url,
    port,
    dir,
    log,
    start,
    stop,
    /** Stops replaying what the primary sends (it keeps receiving it): the replica falls behind. */
    pauseReplay: () => query(url, 'SELECT pg_wal_replay_pause()'),
    resumeReplay: () => query(url, 'SELECT pg_wal_replay_resume()'),
    /** Runs `sql` on the replica's database `database` (read-only). */
    query: (database, sql, params) => {
      const u = new URL(url);
      u.pathname = `/${database}`;
      return query(u.toString(), sql, params);
    },
  };
  return { primary, replica, destroy };
}

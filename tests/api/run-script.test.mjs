// scripts/run's terminal manners (scripts/lib/supervise.sh), with stand-in processes: npm's and
// the build's chatter stays in .data/logs unless VERBOSE=1 or the step fails; Ctrl-C, SIGTERM and a
// process that ends cleanly read 'stopping' (exit 0), never a red 'a process exited with status 0';
// a failing process is named with its status. And scripts/run binds the api to 127.0.0.1 unless HOST.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../harness/stack.mjs';

/** Runs `script` in bash with common.sh and supervise.sh sourced; `onStart` may signal it. */
function bash(script, { env = {}, onStart } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      'bash',
      ['-c', `set -euo pipefail; source scripts/lib/common.sh; source scripts/lib/supervise.sh; ${script}`],
      { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      onStart?.(child, stderr);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('scripts/run: quiet steps', () => {
  it('keeps a tool’s notices in its log, shows them when it fails or with VERBOSE=1', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'quiet-'));
    const env = { QUIET_LOG_DIR: dir, VERBOSE: '' };
    const ok = await bash(`quietly npm-ci sh -c 'echo "npm notice New major version"; echo added 12 packages >&2'`, {
      env,
    });
    assert.equal(ok.code, 0);
    assert.equal(ok.stdout + ok.stderr, '');
    assert.match(await readFile(path.join(dir, 'npm-ci.log'), 'utf8'), /npm notice New major version/);

    const failed = await bash(`quietly web-build sh -c 'echo "error TS2322: broken"; exit 3'`, { env });
    assert.equal(failed.code, 3);
    assert.match(failed.stderr, /error TS2322: broken/);
    assert.match(failed.stderr, /VERBOSE=1/);

    const verbose = await bash(`quietly npm-ci sh -c 'echo "npm notice shown"'`, { env: { ...env, VERBOSE: '1' } });
    assert.match(verbose.stdout, /npm notice shown/);
  });
});

describe('scripts/run: stopping', () => {
  const running = 'running:';
  const script = `cleanup() { echo cleaned >&2; }; echo ${running} >&2; supervise cleanup "api=exec sleep 30" "worker=exec sleep 30"`;

  for (const signal of ['SIGINT', 'SIGTERM']) {
    it(`${signal} stops both processes and says 'stopping', exit 0`, async () => {
      let sent = false;
      const r = await bash(script, {
        onStart: (child, stderr) => {
          if (!sent && stderr.includes(running)) {
            sent = true;
            // After the processes started (a moment for bash to fork them).
            setTimeout(() => child.kill(signal), 300);
          }
        },
      });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /==> stopping/);
      assert.match(r.stderr, /cleaned/);
      assert.doesNotMatch(r.stderr, /exited with status|failed/);
    });
  }

  it('a process that ends cleanly (as after the terminal’s Ctrl-C) reads as stopping, exit 0', async () => {
    const r = await bash(`cleanup() { :; }; supervise cleanup "api=exit 0" "worker=exec sleep 30"`);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /==> stopping \(the api stopped\)/);
    assert.doesNotMatch(r.stderr, /exited with status|failed/);
    const interrupted = await bash(`cleanup() { :; }; supervise cleanup "api=exec sleep 30" "worker=exit 130"`);
    assert.equal(interrupted.code, 0, interrupted.stderr);
    assert.match(interrupted.stderr, /==> stopping \(the worker stopped\)/);
  });

  it('a process that fails is named with its status, which is the script’s', async () => {
    const r = await bash(`cleanup() { echo cleaned >&2; }; supervise cleanup "api=exec sleep 30" "worker=exit 3"`);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /the worker failed with status 3; stopping the rest/);
    assert.match(r.stderr, /cleaned/);
  });
});

describe('scripts/run: the address', () => {
  it('binds the api to 127.0.0.1 unless HOST says otherwise, and says so', async () => {
    const run = await readFile(path.join(repoRoot, 'scripts', 'run'), 'utf8');
    assert.match(run, /^export HOST="\$\{HOST:-127\.0\.0\.1\}"$/m);
    assert.match(run, /listening on \$HOST:\$PORT/);
  });
});

describe('README: what a newcomer needs', () => {
  it('is short up to the deviations, has the newcomer’s sections, and every docs/ file it names exists', async () => {
    const readme = await readFile(path.join(repoRoot, 'README.md'), 'utf8');
    const [newcomer, deviations] = readme.split('\n## Deviations from the spec\n');
    assert.ok(deviations, 'the deviations stay in the README');
    assert.ok(newcomer.split('\n').length <= 80, `${newcomer.split('\n').length} lines before the deviations`);
    for (const heading of ['Two commands', 'Stopping', 'Demo accounts', 'Test cards', 'Where things are']) {
      assert.match(newcomer, new RegExp(`^## ${heading}`, 'm'), heading);
    }
    for (const command of [
      'scripts/run',
      'scripts/test',
      'HOST=0.0.0.0',
      'VERBOSE=1',
      'seeker-password',
      '4111111111111111',
    ]) {
      assert.ok(newcomer.includes(command), command);
    }
    const named = new Set(readme.match(/docs\/[\w-]+\.md/g));
    for (const doc of ['docs/architecture.md', 'docs/operations.md', 'docs/testing.md', 'docs/figures.md']) {
      assert.ok(named.has(doc), `the README links ${doc}`);
    }
    for (const doc of named) {
      await readFile(path.join(repoRoot, doc), 'utf8');
    }
  });
});

// Fails when the committed generated client (src/api) differs from what orval produces
// from ../openapi.yaml. It regenerates in place, then asks git whether anything under
// src/api changed or appeared; run it on a clean src/api.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const spec = path.resolve(webDir, '..', 'openapi.yaml');
if (!existsSync(spec)) {
  console.error(`check:generated: ${spec} does not exist; run \`api openapi > openapi.yaml\` first.`);
  process.exit(1);
}

const orval = spawnSync('npx', ['--no-install', 'orval', '--config', 'orval.config.ts'], {
  cwd: webDir,
  stdio: 'inherit',
});
if (orval.status !== 0) process.exit(orval.status ?? 1);

const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '--', 'src/api'], {
  cwd: webDir,
  encoding: 'utf8',
});
if (status.trim() !== '') {
  console.error('check:generated: web/src/api is out of date with openapi.yaml. Differences:');
  console.error(status);
  spawnSync('git', ['--no-pager', 'diff', '--stat', '--', 'src/api'], { cwd: webDir, stdio: 'inherit' });
  console.error('Run `npm run generate` in web/ and commit the result.');
  process.exit(1);
}
console.log('check:generated: web/src/api matches openapi.yaml');

// Fails when the committed generated client (src/api) differs from what orval produces
// from ../openapi.yaml, or the real-time event types (src/lib/realtime/protocol.gen.ts) from what
// scripts/realtime-types.mjs makes of ../realtime.schema.json. It regenerates in place, then asks
// git whether anything there changed or appeared; run it on a clean tree.
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

const realtime = spawnSync('node', ['scripts/realtime-types.mjs'], { cwd: webDir, stdio: 'inherit' });
if (realtime.status !== 0) process.exit(realtime.status ?? 1);

const generated = ['src/api', 'src/lib/realtime/protocol.gen.ts'];
const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '--', ...generated], {
  cwd: webDir,
  encoding: 'utf8',
});
if (status.trim() !== '') {
  console.error(
    'check:generated: web/src/api or src/lib/realtime/protocol.gen.ts is out of date with openapi.yaml or realtime.schema.json. Differences:',
  );
  console.error(status);
  spawnSync('git', ['--no-pager', 'diff', '--', ...generated], { cwd: webDir, stdio: 'inherit' });
  console.error('Run scripts/generate (or `npm run generate` in web/) and commit the result.');
  process.exit(1);
}
console.log('check:generated: web/src/api matches openapi.yaml, protocol.gen.ts matches realtime.schema.json');

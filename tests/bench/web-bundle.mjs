// The JavaScript a signed-out visitor's browser loads for the landing page (/): the entry chunk, the
// landing page's own chunk and every chunk they import statically, gzipped, from the web build's
// manifest (web/dist/.vite/manifest.json). Target: at most 200 KB. A figure, never pass/fail.
//
//   node tests/bench/web-bundle.mjs        (after `npm run build` in web/)
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { repoRoot } from '../harness/stack.mjs';

const TARGET_KB = 200;
// What the first visit to / renders signed out.
const LANDING = ['src/features/landing/landing-page.tsx', 'src/features/home/home-page.tsx'];

const dist = path.join(repoRoot, 'web', 'dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const loaded = new Set();
const visit = (key) => {
  if (!manifest[key] || loaded.has(key)) return;
  loaded.add(key);
  for (const dep of manifest[key].imports ?? []) visit(dep);
};
for (const key of [entry, ...LANDING]) visit(key);

let raw = 0;
let gzip = 0;
const rows = [];
for (const key of loaded) {
  const bytes = readFileSync(path.join(dist, manifest[key].file));
  const gz = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gzip += gz;
  rows.push([manifest[key].file, bytes.length, gz]);
}
rows.sort((a, b) => b[2] - a[2]);
for (const [file, bytes, gz] of rows)
  console.log(
    `${file.padEnd(48)} ${(bytes / 1024).toFixed(1).padStart(8)} KB ${(gz / 1024).toFixed(1).padStart(7)} KB gz`,
  );
const kb = gzip / 1024;
console.log(
  `landing page JavaScript: ${(raw / 1024).toFixed(1)} KB, ${kb.toFixed(1)} KB gzipped (target ≤ ${TARGET_KB} KB: ${kb <= TARGET_KB ? 'met' : 'not met'})`,
);
if (process.env.BENCH_RESULTS) {
  const row = {
    figure: "Web: the landing page's JavaScript on first load, gzipped",
    measured: `${kb.toFixed(1)} KB`,
    target: `≤ ${TARGET_KB} KB`,
    health: null,
    met: kb <= TARGET_KB,
  };
  appendFileSync(process.env.BENCH_RESULTS, JSON.stringify(row) + '\n');
}

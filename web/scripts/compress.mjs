// Last step of the web build: writes a brotli (.br) and a gzip (.gz) copy beside every text file
// of dist/ (the api sends the one a browser accepts, api/src/web.rs), at the strongest settings,
// since this runs once per build and never per request. A copy that is not smaller is not written.
//
//   node scripts/compress.mjs [dir]     (default: dist)
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

// The extensions api/src/web.rs (compressible_type) sends encoded.
export const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.json', '.webmanifest', '.txt', '.xml']);

const web = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dir = path.resolve(web, process.argv[2] ?? 'dist');

let files = 0;
let before = 0;
let after = 0;
for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile()) continue;
  const file = path.join(entry.parentPath, entry.name);
  // A copy left by an earlier build would be stale: only fresh ones are kept.
  if (file.endsWith('.br') || file.endsWith('.gz')) {
    rmSync(file);
    continue;
  }
  if (!COMPRESSIBLE.has(path.extname(file))) continue;
  const bytes = readFileSync(file);
  const br = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const gz = gzipSync(bytes, { level: 9 });
  if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
  if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
  files += 1;
  before += bytes.length;
  after += Math.min(br.length, bytes.length);
}
console.log(
  `compressed ${files} files in ${path.relative(web, dir)}: ${(before / 1024).toFixed(0)} KB, ${(after / 1024).toFixed(0)} KB as brotli`,
);

// The operations of the OpenAPI document, read with a tiny reader for the YAML that poem-openapi
// writes (paths at two spaces, methods at four, fields at six); no YAML package needed.
//
//   operations(text) -> [{ method: 'GET', path: '/api/mentors/{id}', operationId, secured }]
//   await servedOperations() -> the operations of `api openapi` (what the built binary serves)
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { apiBin, repoRoot } from './stack.mjs';

export function operations(text) {
  const out = [];
  let inPaths = false;
  let path = null;
  let op = null;
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) {
      inPaths = line.startsWith('paths:');
      continue;
    }
    if (!inPaths) continue;
    let m = /^ {2}(?:'([^']+)'|"([^"]+)"|(\/\S*)):\s*$/.exec(line);
    if (m) {
      path = m[1] ?? m[2] ?? m[3];
      op = null;
      continue;
    }
    m = /^ {4}(get|put|post|delete|patch|head|options):\s*$/.exec(line);
    if (m && path) {
      op = { method: m[1].toUpperCase(), path, operationId: null, secured: false };
      out.push(op);
      continue;
    }
    if (!op) continue;
    m = /^ {6}operationId:\s*(\S+)/.exec(line);
    if (m) op.operationId = m[1];
    if (/^ {6}security:/.test(line)) op.secured = true;
  }
  return out;
}

/** The operations of the committed openapi.yaml. */
export async function committedOperations() {
  return operations(await readFile(path.join(repoRoot, 'openapi.yaml'), 'utf8'));
}

/** The operations of the document the built api generates (`api openapi`). */
export async function servedOperations() {
  const { stdout } = await promisify(execFile)(apiBin, ['openapi'], { maxBuffer: 64 * 1024 * 1024 });
  return operations(stdout);
}

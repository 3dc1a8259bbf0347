// The JavaScript a signed-out visitor's browser loads for the landing page (/), gzipped
// (tests/harness/web-bundle.mjs says what counts). Target: at most 150 KB. A figure, never
// pass/fail here; tests/api/web-serving.test.mjs holds the build to the same budget.
//
//   node tests/bench/web-bundle.mjs        (after `npm run build` in web/)
import { appendFileSync } from 'node:fs';
import { LANDING_JS_BUDGET_KB, landingJavaScript } from '../harness/web-bundle.mjs';

const { files, bytes, gzip } = landingJavaScript();
for (const f of files)
  console.log(
    `${f.file.padEnd(48)} ${(f.bytes / 1024).toFixed(1).padStart(8)} KB ${(f.gzip / 1024).toFixed(1).padStart(7)} KB gz`,
  );
const kb = gzip / 1024;
const met = kb <= LANDING_JS_BUDGET_KB;
console.log(
  `landing page JavaScript: ${(bytes / 1024).toFixed(1)} KB, ${kb.toFixed(1)} KB gzipped (target ≤ ${LANDING_JS_BUDGET_KB} KB: ${met ? 'met' : 'not met'})`,
);
if (process.env.BENCH_RESULTS) {
  const row = {
    figure: "Web: the landing page's JavaScript on first load, gzipped",
    measured: `${kb.toFixed(1)} KB`,
    target: `≤ ${LANDING_JS_BUDGET_KB} KB`,
    health: null,
    met,
  };
  appendFileSync(process.env.BENCH_RESULTS, JSON.stringify(row) + '\n');
}

// After a failed Playwright run: each failed test and the first lines of its error, printed last
// so they are in the tail of a long CI log (the list reporter prints errors far above the end).
import { existsSync, readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

const RESULTS = new URL('./artifacts/playwright-results.json', import.meta.url);
const LINES = 12;

if (!existsSync(RESULTS)) process.exit(0);
const report = JSON.parse(readFileSync(RESULTS, 'utf8'));
const failed = [];
const walk = (suite, titles) => {
  for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests ?? []) {
      const last = t.results?.at(-1);
      if (last && !['passed', 'skipped'].includes(last.status))
        failed.push({ title: [...titles, spec.title].filter(Boolean).join(' › '), last });
    }
  }
};
for (const suite of report.suites ?? []) walk(suite, [suite.title]);
for (const { title, last } of failed) {
  console.error(`\n✘ ${title} (${last.status}, ${last.duration} ms)`);
  const message = stripVTControlCharacters(last.error?.message ?? last.errors?.[0]?.message ?? '');
  console.error(
    message
      .split('\n')
      .slice(0, LINES)
      .map((l) => `    ${l}`)
      .join('\n'),
  );
  const at = last.error?.location;
  if (at) console.error(`    at ${at.file}:${at.line}:${at.column}`);
}

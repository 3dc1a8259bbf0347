// Prints the figures the benchmarks appended to a results file (one JSON object per line:
// figure, measured, target, health, met) as one Markdown table, docs/figures.md's table.
//
//   node bench/table.mjs <results.jsonl>
import { readFileSync } from 'node:fs';

const [file] = process.argv.slice(2);
if (!file) throw new Error('usage: node bench/table.mjs <results.jsonl>');
const rows = readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line));
const cell = (v) => String(v ?? '-').replaceAll('|', '\\|');
console.log('| figure | measured | target | GET /api/health, same run | met |');
console.log('|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${cell(r.figure)} | ${cell(r.measured)} | ${cell(r.target)} | ${cell(r.health)} | ${r.met === null ? '-' : r.met ? 'yes' : '**no**'} |`,
  );
}
const judged = rows.filter((r) => r.met !== null);
console.log(`\n${judged.filter((r) => r.met).length} of ${judged.length} targets met.`);

// Lighthouse on the public pages, served by a running api from the built web/dist: the `lighthouse`
// package driving Debian's Chromium (CHROME_PATH, default /usr/bin/chromium; never a downloaded
// browser) with its default mobile settings and simulated throttling. Three runs per page; the
// median run by performance score gives the performance score and the largest contentful paint,
// beside the median accessibility score. Also GET /api/health's rate on the same api (wrk, a few
// seconds), for the table. Figures, never pass/fail.
//
//   node bench/lighthouse-bench.mjs <api base url> [mentor id]
//   BENCH_RESULTS=<file> (appends one JSON line per figure)  BENCH_LIGHTHOUSE_RUNS=3
import { execFile } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** Issue 23's targets. */
export const PERFORMANCE_TARGET = 90;
export const LCP_TARGET_MS = 2500;
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const HEALTH_SECONDS = 5;
const CONNECTIONS = 64;

const [base, mentorArg] = process.argv.slice(2);
if (!base) throw new Error('usage: node bench/lighthouse-bench.mjs <api base url> [mentor id]');
const lighthouseBin = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'node_modules',
  '.bin',
  'lighthouse',
);
const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';

async function mentorId() {
  if (mentorArg) return mentorArg;
  const res = await fetch(new URL('/api/mentors?page=1&pageSize=1', base));
  const body = await res.json();
  if (!body.mentors?.length) throw new Error('no mentor listed to measure a mentor page with');
  return body.mentors[0].id;
}

/** One Lighthouse run: { performance, accessibility, lcp, fcp } (scores 0..100, times in ms). */
async function lighthouse(url) {
  const { stdout } = await run(
    lighthouseBin,
    [
      url,
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      '--only-categories=performance,accessibility',
      '--chrome-flags=--headless=new --no-sandbox',
    ],
    { env: { ...process.env, CHROME_PATH: chrome }, maxBuffer: 256 * 1024 * 1024 },
  );
  const lhr = JSON.parse(stdout);
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  return {
    performance: Math.round(lhr.categories.performance.score * 100),
    accessibility: Math.round(lhr.categories.accessibility.score * 100),
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    fcp: lhr.audits['first-contentful-paint'].numericValue,
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function healthRate() {
  const { stdout } = await run('wrk', [
    `-t${Math.min(CONNECTIONS, 2)}`,
    `-c${CONNECTIONS}`,
    `-d${HEALTH_SECONDS}s`,
    new URL('/api/health', base).href,
  ]);
  const m = stdout.match(/Requests\/sec:\s+([\d.]+)/);
  if (!m) throw new Error(`wrk printed no rate:\n${stdout}`);
  return Number(m[1]);
}

const id = await mentorId();
const pages = [
  ['/', '/'],
  ['/mentors', '/mentors'],
  ["a mentor's page", `/mentor/${id}`],
];
const health = await healthRate();
const healthText = `${Math.round(health).toLocaleString('en-US')} req/s`;
console.log(`GET /api/health at ${CONNECTIONS} connections: ${healthText}`);

for (const [name, p] of pages) {
  const url = new URL(p, base).href;
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await lighthouse(url));
  const byScore = [...runs].sort((a, b) => a.performance - b.performance);
  const mid = byScore[Math.floor(byScore.length / 2)];
  const accessibility = median(runs.map((r) => r.accessibility));
  console.log(
    `Lighthouse ${name} (${p}), mobile, median of ${RUNS}: performance ${mid.performance} (runs ${runs
      .map((r) => r.performance)
      .join(
        ', ',
      )}), LCP ${(mid.lcp / 1000).toFixed(2)} s, FCP ${(mid.fcp / 1000).toFixed(2)} s, accessibility ${accessibility}`,
  );
  if (process.env.BENCH_RESULTS) {
    const rows = [
      {
        figure: `Web: Lighthouse performance, ${name} (mobile, median of ${RUNS})`,
        measured: `${mid.performance} (accessibility ${accessibility})`,
        target: `≥ ${PERFORMANCE_TARGET}`,
        health: healthText,
        met: mid.performance >= PERFORMANCE_TARGET,
      },
      {
        figure: `Web: largest contentful paint, ${name} (Lighthouse mobile)`,
        measured: `${(mid.lcp / 1000).toFixed(2)} s`,
        target: `≤ ${(LCP_TARGET_MS / 1000).toFixed(1)} s`,
        health: healthText,
        met: mid.lcp <= LCP_TARGET_MS,
      },
    ];
    for (const row of rows) appendFileSync(process.env.BENCH_RESULTS, JSON.stringify(row) + '\n');
  }
}

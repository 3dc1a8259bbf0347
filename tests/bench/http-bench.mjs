// A small HTTP load generator: for each scenario and concurrency, sends a fixed number of GET
// requests with that many clients in flight and prints requests per second and latency
// percentiles. Figures, not assertions: run it through scripts/bench.
//
//   node bench/http-bench.mjs <baseUrl> <requests> <concurrency,...> <name=path> [<name=path> ...]

import { performance } from 'node:perf_hooks';

export async function measure(url, requests, concurrency) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  async function client() {
    while (next < requests) {
      next += 1;
      const t0 = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      if (!res.ok) failures += 1;
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, client));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { rps: requests / seconds, p50: pct(50), p95: pct(95), p99: pct(99), failures };
}

export function row(name, concurrency, r) {
  const f = (ms) => `${ms.toFixed(1)} ms`.padStart(10);
  return `${name.padEnd(34)} c=${String(concurrency).padStart(2)} ${r.rps.toFixed(0).padStart(6)} req/s  p50${f(r.p50)}  p95${f(r.p95)}  p99${f(r.p99)}${r.failures ? `  FAILURES ${r.failures}` : ''}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [baseUrl, requests, concurrencies, ...scenarios] = process.argv.slice(2);
  for (const scenario of scenarios) {
    const [name, path] = scenario.split(/=(.*)/s);
    await measure(baseUrl + path, 20, 4); // warm-up
    for (const c of concurrencies.split(',').map(Number)) {
      console.log(row(name, c, await measure(baseUrl + path, Number(requests), c)));
    }
  }
}

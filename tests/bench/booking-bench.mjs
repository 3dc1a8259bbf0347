// Booking figures: available-slots latency for a mentor whose 90-day calendar is full of
// bookings, and reservations per second with 64 clients on distinct slots.
//
//   node bench/booking-bench.mjs <baseUrl> <requests>
// Expects `api seed` data (seeker@mystic-mentors.test) and the bench mentor made by scripts/bench.

import { measure, row } from './http-bench.mjs';
import { performance } from 'node:perf_hooks';

const [baseUrl, requestsArg] = process.argv.slice(2);
const requests = Number(requestsArg);
const origin = { Origin: baseUrl, 'Content-Type': 'application/json' };

async function login(email, password) {
  const res = await fetch(`${baseUrl}/api/login`, { method: 'POST', headers: origin, body: JSON.stringify({ email, password }) });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

const mentor = await (await fetch(`${baseUrl}/api/mentors?search=Benchmark%20Calendar`)).json();
const bench = mentor.mentors.find((m) => m.displayName === 'Benchmark Calendar');
if (!bench) throw new Error('the bench mentor is missing: run scripts/bench');
const service = bench.services.find((s) => s.duration === 30);

const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
for (const offset of [1, 45, 89]) {
  const path = `/api/mentors/${bench.id}/available-slots?date=${day(offset)}&duration=30&timeZone=America/New_York`;
  await measure(baseUrl + path, 20, 4);
  for (const c of [1, 64]) console.log(row(`available-slots (day +${offset})`, c, await measure(baseUrl + path, requests, c)));
}

// Reservations: every client takes the next free half hour; each start is used once.
const cookie = await login('seeker@mystic-mentors.test', 'seeker-password');
const starts = [];
const first = Math.ceil((Date.now() + 2 * 86_400_000) / 1_800_000) * 1_800_000;
for (let t = first; starts.length < requests; t += 1_800_000) {
  if (new Date(t).getUTCMinutes() === 30) starts.push(new Date(t).toISOString()); // :00 holds bookings already
}
let next = 0;
let created = 0;
let conflicts = 0;
const latencies = [];
const t0 = performance.now();
await Promise.all(
  Array.from({ length: 64 }, async () => {
    while (next < starts.length) {
      const at = starts[next++];
      const s = performance.now();
      const res = await fetch(`${baseUrl}/api/reservations`, {
        method: 'POST',
        headers: { ...origin, Cookie: cookie },
        body: JSON.stringify({ serviceId: service.id, mentorId: bench.id, scheduledAt: at, totalAmount: service.price }),
      });
      await res.arrayBuffer();
      latencies.push(performance.now() - s);
      if (res.status === 201) created += 1;
      else conflicts += 1;
    }
  }),
);
const seconds = (performance.now() - t0) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
console.log(
  row('reservations, distinct slots', 64, { rps: starts.length / seconds, p50: pct(50), p95: pct(95), p99: pct(99), failures: conflicts }) +
    `  (${created} held)`,
);

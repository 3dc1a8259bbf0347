// Janus (the SFU of group calls) under one publisher and N subscribers, each subscriber a page of
// Debian's Chromium: Janus's CPU (share of one core) and resident memory with the streams flowing,
// and each subscriber's join-to-first-frame time. Figures, never pass/fail.
//
//   node tests/bench/janus-bench.mjs [N1,N2,...]     (default 1,2,4,8; BENCH_JANUS_SECONDS=10)
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor } from '../harness/booking.mjs';
import { launchOptions, mediaArgs } from '../harness/chromium.mjs';
import { groupService, groupSessionWithSeats } from '../harness/group-sessions.mjs';
import { repoRoot, startStack } from '../harness/stack.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const counts = (process.argv[2] ?? '1,2,4,8').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_JANUS_SECONDS ?? 10);
const TICKS = 100; // USER_HZ of /proc/<pid>/stat

function janusUsage(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]);
  const rss = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1];
  return { ticks, rssMiB: Number(rss) / 1024 };
}

// The bench page and the two scripts it loads, from the web app's own packages.
const files = {
  '/bench.html': [path.join(here, 'janus', 'bench.html'), 'text/html'],
  '/janus.es.js': [path.join(repoRoot, 'web/node_modules/janus-gateway/npm/dist/janus.es.js'), 'text/javascript'],
  '/adapter.js': [path.join(repoRoot, 'web/node_modules/webrtc-adapter/out/adapter.js'), 'text/javascript'],
};
const server = http.createServer((req, res) => {
  const file = files[req.url.split('?')[0]];
  if (!file) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': file[1] }).end(readFileSync(file[0]));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const pageUrl = `http://127.0.0.1:${server.address().port}/bench.html`;

const max = Math.max(...counts);
const stack = await startStack({ janus: true });
const db = new pg.Client({ connectionString: stack.databaseUrl });
await db.connect();
const browser = await chromium.launch({ ...launchOptions, args: [...launchOptions.args, ...mediaArgs] });
try {
  const mentor = await bookableMentor(stack);
  const service = await groupService(mentor, { price: '0.00', maxParticipants: 20 });
  const seats = [];
  const seatIds = [];
  for (let i = 0; i < max; i += 1) {
    const c = await signIn(stack, await createVerifiedUser(stack));
    seats.push(c);
    seatIds.push((await c.get('/api/auth/user')).body.id);
  }
  const sessionId = await groupSessionWithSeats(db, mentor, service, seatIds, {
    startMinutes: -1,
    maxParticipants: 20,
  });
  const callOf = async (c) => {
    const r = await c.get(`/api/group-sessions/${sessionId}/call`);
    if (r.status !== 200) throw new Error(`call tokens: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const open = async (call, extra) => {
    const page = await browser.newPage();
    const cfg = {
      server: call.janusUrl,
      sessionToken: call.sessionToken,
      roomToken: call.roomToken,
      room: call.roomId,
      id: call.participantId,
      ...extra,
    };
    await page.goto(`${pageUrl}#${encodeURIComponent(JSON.stringify(cfg))}`);
    return page;
  };

  const mentorCall = await callOf(mentor.c);
  const publisher = await open(mentorCall, { publish: true });
  await publisher.waitForFunction(() => window.published === true || window.benchError !== null, null, {
    timeout: 60_000,
  });
  const publishError = await publisher.evaluate(() => window.benchError);
  if (publishError) throw new Error(`publisher: ${publishError}`);
  const pid = stack.janus.pid;
  console.log(
    `Janus ${pid}: one publisher (Chromium's fake camera and microphone), N subscribers, ${SECONDS} s per row`,
  );
  console.log('subscribers | Janus CPU (% of a core) | Janus RSS (MiB) | first frame p50 / max (ms)');
  const idle = janusUsage(pid);
  console.log(`idle        | -                      | ${idle.rssMiB.toFixed(1).padStart(15)} | -`);
  for (const n of counts) {
    const pages = [];
    for (let i = 0; i < n; i += 1) {
      pages.push(await open(await callOf(seats[i]), { publish: false, feed: mentorCall.participantId }));
    }
    const frames = [];
    for (const page of pages) {
      await page.waitForFunction(() => window.firstFrameMs !== null || window.benchError !== null, null, {
        timeout: 60_000,
      });
      const [ms, error] = await page.evaluate(() => [window.firstFrameMs, window.benchError]);
      if (error) throw new Error(`subscriber: ${error}`);
      frames.push(ms);
    }
    const before = janusUsage(pid);
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    const after = janusUsage(pid);
    const cpu = ((after.ticks - before.ticks) / TICKS / ((Date.now() - t0) / 1000)) * 100;
    frames.sort((a, b) => a - b);
    const p50 = frames[Math.floor(frames.length / 2)];
    console.log(
      `${String(n).padStart(11)} | ${cpu.toFixed(1).padStart(22)} | ${after.rssMiB.toFixed(1).padStart(15)} | ${p50.toFixed(0)} / ${frames.at(-1).toFixed(0)}`,
    );
    for (const page of pages) await page.close();
  }
  await publisher.close();
} finally {
  await browser.close();
  await db.end();
  await stack.stop();
  server.close();
}

// Janus (the SFU of group calls) under one publisher and N subscribers, each subscriber a page of
// Debian's Chromium taking a seat over /api/ws as the app does (the api alone signals Janus) without
// publishing: Janus's CPU (share of one core) and resident memory with the streams flowing, and each
// subscriber's join-to-first-frame time. Figures, never pass/fail.
//
//   node tests/bench/janus-bench.mjs [N1,N2,...]     (default 1,2,4,8; BENCH_JANUS_SECONDS=10)
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import pg from 'pg';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor } from '../harness/booking.mjs';
import { launchOptions, mediaArgs } from '../harness/chromium.mjs';
import { groupService, groupSessionWithSeats } from '../harness/group-sessions.mjs';
import { startStack } from '../harness/stack.mjs';

const counts = (process.argv[2] ?? '1,2,4,8').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_JANUS_SECONDS ?? 10);
const TICKS = 100; // USER_HZ of /proc/<pid>/stat

function janusUsage(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(stat[11]) + Number(stat[12]);
  const rss = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1];
  return { ticks, rssMiB: Number(rss) / 1024 };
}

/**
 * Runs in a subscriber's page (same origin as the api, signed in): takes a seat over /api/ws as the
 * app does but publishes nothing, answers the api's subscriber offers, and resolves to the time from
 * the start to the first decoded frame of the publisher's video.
 */
function subscribeOnly({ sessionId, iceServers }) {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`);
    const pc = new RTCPeerConnection({ iceServers });
    window.__benchSeat = { ws, pc };
    const send = (event, data) => ws.send(JSON.stringify({ event, data: { groupSessionId: sessionId, ...data } }));
    pc.onicecandidate = (e) =>
      send('ice-candidate', { target: 'subscriber', candidate: e.candidate ? e.candidate.toJSON() : null });
    pc.ontrack = (e) => {
      if (e.track.kind !== 'video') return;
      const video = document.createElement('video');
      video.muted = true;
      video.autoplay = true;
      video.srcObject = new MediaStream([e.track]);
      document.body.append(video);
      video.requestVideoFrameCallback(() => resolve(performance.now() - t0));
    };
    ws.onmessage = async (m) => {
      const { event, data } = JSON.parse(m.data);
      if (event === 'ready') send('join-group-session', {});
      else if (event === 'error') reject(new Error(data.message));
      else if (event === 'group-call-subscribe-offer') {
        await pc.setRemoteDescription({ type: 'offer', sdp: data.sdp });
        const answer = await pc.createAnswer();
        await pc.setLocalDescription(answer);
        send('group-call-subscribe-answer', { sdp: answer.sdp });
      }
    };
  });
}

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
  const contextFor = async (c) => {
    const context = await browser.newContext({ baseURL: stack.baseUrl, permissions: ['camera', 'microphone'] });
    await context.addCookies([
      { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
      { name: 'signed_in', value: '1', url: stack.baseUrl },
    ]);
    return context;
  };

  // The mentor publishes from the app's own call page (camera and microphone).
  const mentorContext = await contextFor(mentor.c);
  const publisher = await mentorContext.newPage();
  await publisher.goto(`/group-video-call/${sessionId}`);
  await publisher.getByTestId('local-video').waitFor();
  const iceServers = (await mentor.c.get(`/api/group-sessions/${sessionId}/call`)).body.iceServers;
  const pid = stack.janus.pid;
  console.log(
    `Janus ${pid}: one publisher (Chromium's fake camera and microphone), N subscribers, ${SECONDS} s per row`,
  );
  console.log('subscribers | Janus CPU (% of a core) | Janus RSS (MiB) | first frame p50 / max (ms)');
  const idle = janusUsage(pid);
  console.log(`idle        | -                      | ${idle.rssMiB.toFixed(1).padStart(15)} | -`);
  for (const n of counts) {
    const contexts = [];
    const firstFrames = [];
    for (let i = 0; i < n; i += 1) {
      const context = await contextFor(seats[i]);
      contexts.push(context);
      const page = await context.newPage();
      // Any page of the app's origin (the socket is same-origin only); the seat is the script's own.
      await page.goto('/');
      firstFrames.push(page.evaluate(subscribeOnly, { sessionId, iceServers }));
    }
    const frames = await Promise.all(firstFrames);
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
    for (const context of contexts) await context.close();
  }
  await mentorContext.close();
} finally {
  await browser.close();
  await db.end();
  await stack.stop();
}

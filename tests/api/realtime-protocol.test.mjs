// The real-time protocol is one Rust type each way (domain/src/realtime/protocol.rs): the built
// api prints it as realtime.schema.json, the web's types are generated from that, and every name
// is the spec's or a documented deviation. Any drift between the three fails here; a live api
// refuses an unknown event with `error` and knows every name the spec gives.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { generate, outputPath, schemaPath } from '../../web/scripts/realtime-types.mjs';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { connect } from '../harness/realtime.mjs';
import { apiBin, repoRoot, startStack } from '../harness/stack.mjs';

// The spec's names: 01 §7 (chat and one-to-one calls) and 02 (group session events).
const SPEC_CLIENT = [
  'sendMessage',
  'joinConversation',
  'leaveConversation',
  'markMessageRead',
  'markConversationRead',
  'initiateCall',
  'acceptCall',
  'rejectCall',
  'endCall',
  'sendOffer',
  'sendAnswer',
  'sendIceCandidate',
  'startTyping',
  'stopTyping',
  'ice-candidate',
  'start-group-session',
  'join-group-session',
  'end-group-session',
  'leave-group-session',
  'mute-participant',
  'unmute-participant',
  'remove-participant',
  'toggle-video',
  'toggle-audio',
];
const SPEC_SERVER = [
  'messageReceived',
  'messageRead',
  'conversationRead',
  'callInitiated',
  'incomingCall',
  'callAccepted',
  'callRejected',
  'callEnded',
  'offer',
  'answer',
  'iceCandidate',
  'userTyping',
  'error',
  'group-session-started',
  'participant-joined',
  'participant-left',
  'group-session-ended',
  'participant-muted',
  'participant-unmuted',
];
// Issue 36 (readings now): its own names, as the issue gives them.
const ISSUE_36_CLIENT = ['watchPresence'];
const ISSUE_36_SERVER = ['presenceChanged', 'instantSessionRequested', 'instantSessionChanged', 'balanceLow'];
// The documented deviations (docs/realtime-web.md), and nothing else.
const EXTRA_CLIENT = ['resumeCall', 'group-call-offer', 'group-call-subscribe-answer', 'ping', ...ISSUE_36_CLIENT];
const EXTRA_SERVER = [
  'ready',
  'pong',
  'callResumed',
  'notification',
  'toggle-video',
  'toggle-audio',
  'group-call-answer',
  'group-call-subscribe-offer',
  ...ISSUE_36_SERVER,
];

const committedSchema = () => JSON.parse(readFileSync(schemaPath, 'utf8'));
const namesOf = (root) =>
  root.oneOf.map((variant) => variant.properties.event.const ?? variant.properties.event.enum[0]);
const sorted = (names) => [...names].sort();

describe('the real-time protocol', () => {
  it('is what the built api prints (realtime.schema.json is current)', () => {
    const printed = execFileSync(apiBin, ['realtime-schema'], { encoding: 'utf8' });
    assert.equal(printed, readFileSync(schemaPath, 'utf8'), 'realtime.schema.json is stale: run scripts/generate');
  });

  it("gives the web's generated types (protocol.gen.ts is current)", async () => {
    assert.equal(
      await generate(committedSchema()),
      readFileSync(outputPath, 'utf8'),
      `${path.relative(repoRoot, outputPath)} is stale: run scripts/generate`,
    );
  });

  it('names every event as the spec does, plus the documented deviations only', () => {
    const schema = committedSchema();
    assert.deepEqual(sorted(namesOf(schema.client)), sorted([...SPEC_CLIENT, ...EXTRA_CLIENT]));
    assert.deepEqual(sorted(namesOf(schema.server)), sorted([...SPEC_SERVER, ...EXTRA_SERVER]));
    for (const name of [...namesOf(schema.client), ...namesOf(schema.server)]) {
      // Group session events are kebab-case, the others camelCase.
      assert.match(name, /^[a-z]+(-[a-z]+)+$|^[a-z]+([A-Z][a-z]*)*$/, name);
    }
  });
});

describe('a live socket', () => {
  let stack;
  let user;
  before(async () => {
    stack = await startStack();
    user = await signIn(stack, await createVerifiedUser(stack));
  });
  after(async () => {
    await stack?.stop();
  });

  it('answers an unknown event, or a name only the server sends, with error', async () => {
    const s = await connect(stack, user);
    try {
      s.send('launchRockets', {});
      // A refused frame carries the HTTP API's error code (issue 30: a refusal is no connection fault).
      assert.deepEqual(await s.next('error'), {
        message: 'Unknown event: launchRockets',
        event: 'launchRockets',
        code: 'validation',
      });
      s.send('messageReceived', {});
      assert.deepEqual(await s.next('error'), {
        message: 'Unknown event: messageReceived',
        event: 'messageReceived',
        code: 'validation',
      });
    } finally {
      await s.close();
    }
  });

  it("echoes a huge unknown event's name cut to 64 characters (MAX_ECHOED_EVENT_CHARS)", async () => {
    const s = await connect(stack, user);
    try {
      s.send('x'.repeat(60_000), {});
      const cut = `${'x'.repeat(64)}…`;
      assert.deepEqual(await s.next('error'), { message: `Unknown event: ${cut}`, event: cut, code: 'validation' });
    } finally {
      await s.close();
    }
  });

  it("knows every name the spec gives a client, and sends only the protocol's names", async () => {
    const s = await connect(stack, user);
    try {
      for (const name of [...SPEC_CLIENT, ...EXTRA_CLIENT].filter((n) => n !== 'ping')) {
        // No data: each is refused for what it lacks, never as unknown.
        s.send(name, {});
        const error = await s.next('error', (d) => d.event === name);
        assert.doesNotMatch(error.message, /^Unknown event/, name);
        assert.match(error.message, new RegExp(`^Invalid ${name}: missing field`), name);
      }
      s.send('ping');
      await s.next('pong');
      const server = new Set(namesOf(committedSchema().server));
      for (const frame of s.frames) assert.ok(server.has(frame.event), frame.event);
    } finally {
      await s.close();
    }
  });
});

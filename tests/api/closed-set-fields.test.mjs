// Request fields whose value is one of a closed set are that set's enum in openapi.yaml (so the
// web client's types are unions), yet a value outside the set still gets the spec's own message for
// that field, not the parser's words: a wrong word, a number, a list, and nothing where the field is
// required. Spaces around a right value were accepted before the fields were typed and still are.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { createAdmin } from '../harness/admin.mjs';
import { bookableMentor, pay, reserve, startIn } from '../harness/booking.mjs';
import { client, show } from '../harness/client.mjs';
import { repoRoot, startStack } from '../harness/stack.mjs';

const SERVICE_TYPE = 'Please choose a service type';
const PAYOUT_METHOD = 'Please choose a payout method: paypal, venmo or zelle';
const PAID_METHOD = 'Method must be one of paypal, venmo, zelle or manual';
const MENTOR_MOVE = 'Status must be confirmed, completed or cancelled';
const GROUP_MOVE = 'Status must be active, completed or cancelled';
const ROLE = 'Invalid role: use user, mentor or admin';
const BOOKING_STATUS = 'Invalid status: use pending, confirmed, completed or cancelled';
const CATEGORY = 'Please choose a valid category';
const AUDIENCE = 'Audience must be all, seekers or mentors';
const MESSAGE_TYPE = "Message type must be 'text'";
const APPROVAL_STATUS = 'approvalStatus must be pending, approved or rejected';
const JOB_STATE = 'Invalid state: use pending, scheduled, running, failed, set_aside, done or discarded';

/** Values that are not one of any of these sets. */
const OUTSIDE = ['palmistry', 5, ['tarot'], { value: 'tarot' }, ''];

let stack;
before(async () => {
  stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

function assertValidation(res, message) {
  assert.equal(res.status, 400, show(res));
  assert.deepEqual(res.body, { code: 'validation', message }, show(res));
}

/** The lines of a block that starts at `header` (its indentation ends where a line is indented no deeper). */
function block(text, header) {
  const at = text.indexOf(`\n${header}\n`);
  assert.ok(at >= 0, `openapi.yaml has ${header.trim()}`);
  const indent = header.length - header.trimStart().length;
  const lines = [];
  for (const line of text.slice(at + header.length + 2).split('\n')) {
    if (line.trim() && line.length - line.trimStart().length <= indent) break;
    lines.push(line);
  }
  return lines.join('\n');
}

describe('closed-set request fields in openapi.yaml', () => {
  let yaml;
  before(async () => {
    yaml = await readFile(path.join(repoRoot, 'openapi.yaml'), 'utf8');
  });

  const bodyFields = [
    ['NewServiceRequest', 'serviceType', 'ServiceType'],
    ['ServiceChangesRequest', 'serviceType', 'ServiceType'],
    ['PayoutPreferencesRequest', 'method', 'PayoutMethod'],
    ['MarkPaidRequest', 'method', 'PaidMethod'],
    ['StatusRequest', 'status', 'BookingStatusView'],
    ['GroupStatusRequest', 'status', 'GroupStatus'],
    ['ContactRequest', 'category', 'ContactCategory'],
    ['AnnouncementRequest', 'audience', 'Audience'],
    ['SendMessageRequest', 'messageType', 'MessageType'],
  ];
  for (const [schema, field, set] of bodyFields) {
    it(`${schema}.${field} is a ${set}`, () => {
      const fields = block(yaml, `    ${schema}:`);
      const f = block(fields, `        ${field}:`);
      assert.match(f, new RegExp(`\\$ref: '#/components/schemas/${set}'`), f);
      assert.doesNotMatch(f, /^ {10}type: string$/m, f);
    });
  }

  for (const [route, param, set] of [
    ['/api/admin/users', 'role', 'Role'],
    ['/api/admin/bookings', 'status', 'BookingStatusView'],
    ['/api/admin/mentors', 'approvalStatus', 'ApprovalStatus'],
    ['/api/admin/jobs', 'state', 'JobState'],
  ]) {
    it(`${route}?${param} is a ${set}`, () => {
      const op = block(yaml, `  ${route}:`);
      const p = op.slice(op.indexOf(`- name: ${param}\n`));
      assert.match(p.split('\n      - name:')[0], new RegExp(`\\$ref: '#/components/schemas/${set}'`));
    });
  }
});

describe('closed-set request fields keep the spec messages', () => {
  let mentor;
  let admin;
  before(async () => {
    mentor = await bookableMentor(stack);
    admin = await createAdmin(stack);
  });

  const service = (serviceType) => ({
    title: 'Star chart',
    description: 'A reading of your chart for the closed-set tests.',
    price: '25.00',
    duration: 30,
    ...(serviceType === undefined ? {} : { serviceType }),
  });

  it('a service type', async () => {
    for (const bad of [...OUTSIDE, undefined]) {
      assertValidation(await mentor.c.post('/api/services', service(bad)), SERVICE_TYPE);
    }
    const made = await mentor.c.post('/api/services', service(' tarot '));
    assert.equal(made.status, 201, show(made));
    assert.equal(made.body.serviceType, 'tarot');
    for (const bad of OUTSIDE) {
      assertValidation(await mentor.c.put(`/api/mentor/services/${made.body.id}`, { serviceType: bad }), SERVICE_TYPE);
    }
    const changed = await mentor.c.put(`/api/mentor/services/${made.body.id}`, { serviceType: 'meditation' });
    assert.equal(changed.status, 200, show(changed));
    assert.equal(changed.body.serviceType, 'meditation');
  });

  it('a payout method (any case, as before)', async () => {
    for (const bad of [...OUTSIDE, undefined]) {
      const body = { paypalEmail: 'orla@example.com', ...(bad === undefined ? {} : { method: bad }) };
      assertValidation(await mentor.c.post('/api/mentor/payout-preferences', body), PAYOUT_METHOD);
    }
    const saved = await mentor.c.post('/api/mentor/payout-preferences', {
      method: ' PayPal ',
      paypalEmail: 'orla@example.com',
    });
    assert.equal(saved.status, 200, show(saved));
    assert.equal(saved.body.method, 'paypal');
  });

  it("a payment's recorded method", async () => {
    const markPaid = (method) =>
      admin.c.post('/api/admin/payouts/mark-paid', {
        mentorId: mentor.mentor.id,
        bookingIds: ['00000000-0000-4000-8000-000000000001'],
        ...(method === undefined ? {} : { method }),
      });
    for (const bad of ['bitcoin', 5, ['paypal'], { m: 1 }]) {
      assertValidation(await markPaid(bad), PAID_METHOD);
    }
    // Nothing, or only spaces, is the default (manual): past the method, no such payout is pending.
    for (const none of [undefined, '  ', ' Zelle ']) {
      const res = await markPaid(none);
      assert.notEqual(res.body.message, PAID_METHOD, show(res));
    }
  });

  it("a mentor's move of a booking", async () => {
    const seeker = await createVerifiedUser(stack);
    const c = await signIn(stack, seeker);
    const held = await reserve(c, mentor, startIn(30));
    const booking = await pay(c, held.reservation.id, seeker);
    for (const bad of [...OUTSIDE, 'reserved', 'expired']) {
      assertValidation(await mentor.c.put(`/api/mentor/bookings/${booking.id}`, { status: bad }), MENTOR_MOVE);
    }
    assertValidation(await mentor.c.put(`/api/mentor/bookings/${booking.id}`, {}), MENTOR_MOVE);
  });

  it("a mentor's move of a group session", async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const bad of [...OUTSIDE, 'scheduled']) {
      assertValidation(await mentor.c.put(`/api/group-sessions/${unknown}`, { status: bad }), GROUP_MOVE);
    }
    assertValidation(await mentor.c.put(`/api/group-sessions/${unknown}`, {}), GROUP_MOVE);
  });

  it("the admin's filters", async () => {
    assertValidation(await admin.c.get('/api/admin/users?role=wizard'), ROLE);
    assert.equal((await admin.c.get('/api/admin/users?role=%20mentor%20')).status, 200);
    assert.equal((await admin.c.get('/api/admin/users?role=')).status, 200);
    for (const bad of ['reserved', 'expired', 'done']) {
      assertValidation(await admin.c.get(`/api/admin/bookings?status=${bad}`), BOOKING_STATUS);
    }
    for (const ok of ['all', '', 'confirmed']) {
      const res = await admin.c.get(`/api/admin/bookings?status=${ok}`);
      assert.equal(res.status, 200, show(res));
    }
    for (const bad of ['', 'Approved', 'listed']) {
      assertValidation(await admin.c.get(`/api/admin/mentors?approvalStatus=${bad}`), APPROVAL_STATUS);
    }
    assert.equal((await admin.c.get('/api/admin/mentors?approvalStatus=%20pending%20')).status, 200);
    assertValidation(await admin.c.get('/api/admin/jobs?state=Failed'), JOB_STATE);
    for (const ok of ['', 'set_aside']) {
      const res = await admin.c.get(`/api/admin/jobs?state=${ok}`);
      assert.equal(res.status, 200, show(res));
    }
  });

  it("a contact message's category (none or blank is general)", async () => {
    const message = (category) => ({
      name: 'Ann',
      email: 'ann@example.com',
      message: 'A question about the closed sets.',
      ...(category === undefined ? {} : { category }),
    });
    for (const bad of OUTSIDE.filter((v) => v !== '')) {
      assertValidation(await client(stack.baseUrl).post('/api/contact', message(bad)), CATEGORY);
    }
    const sent = await client(stack.baseUrl).post('/api/contact', message(' billing '));
    assert.equal(sent.status, 201, show(sent));
  });

  it("an announcement's audience", async () => {
    for (const bad of [...OUTSIDE, undefined]) {
      const body = {
        title: 'Hello',
        message: 'To the closed-set tests.',
        ...(bad === undefined ? {} : { audience: bad }),
      };
      assertValidation(await admin.c.post('/api/admin/announcements', body), AUDIENCE);
    }
  });

  it("a message's type (none or blank is text)", async () => {
    const seeker = await signIn(stack, await createVerifiedUser(stack));
    const conversation = await seeker.post('/api/conversations', { mentorId: mentor.mentor.id });
    assert.ok([200, 201].includes(conversation.status), show(conversation));
    const send = (messageType) =>
      seeker.post(`/api/conversations/${conversation.body.id}/messages`, {
        content: 'Hello',
        ...(messageType === undefined ? {} : { messageType }),
      });
    for (const bad of OUTSIDE.filter((v) => v !== '')) {
      assertValidation(await send(bad), MESSAGE_TYPE);
    }
    for (const ok of [undefined, '', ' text ']) {
      const res = await send(ok);
      assert.equal(res.status, 201, show(res));
      assert.equal(res.body.messageType, 'text');
    }
  });
});

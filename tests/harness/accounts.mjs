// Account helpers shared by the API and browser tests: unique addresses, registration,
// e-mail verification through the real outbox, and signed-in clients.
import assert from 'node:assert/strict';
import { client, show } from './client.mjs';
import { mailTo, tokenFrom } from './mail.mjs';

export const VERIFY_SUBJECT = 'Verify your email address';
export const RESET_SUBJECT = 'Reset your password';
export const PASSWORD = 'correct-horse-42';

let counter = 0;
/** A fresh address, unique across processes and runs. */
export function uniqueEmail(prefix = 'user') {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${process.pid}.${counter}@example.com`;
}

/** A registration body with a unique e-mail; `overrides` replace fields. */
export function newUser(overrides = {}) {
  return { email: uniqueEmail(), password: PASSWORD, firstName: 'Ada', lastName: 'Lovelace', ...overrides };
}

/** POST /api/register and assert 201. Resolves to the user body that was sent. */
export async function register(stack, overrides = {}, c = client(stack.baseUrl)) {
  const user = newUser(overrides);
  const res = await c.post('/api/register', user);
  assert.equal(res.status, 201, `register ${user.email}: ${show(res)}`);
  return user;
}

// Links in mail point at APP_BASE_URL (the first api of a stack with several).
const linkBase = (stack) => stack.env?.APP_BASE_URL ?? stack.baseUrl;

/** Waits for the newest verification mail to `email` and returns its token. */
export async function verificationToken(stack, email, { after = [] } = {}) {
  const seen = new Set(after.map((m) => m.path));
  const mail = await stack.waitForMail((m) => mailTo(email, VERIFY_SUBJECT)(m) && !seen.has(m.path));
  return tokenFrom(mail, `${linkBase(stack)}/verify-email`);
}

/** Waits for the newest reset mail to `email` and returns its token. */
export async function resetToken(stack, email, { after = [] } = {}) {
  const seen = new Set(after.map((m) => m.path));
  const mail = await stack.waitForMail((m) => mailTo(email, RESET_SUBJECT)(m) && !seen.has(m.path));
  return tokenFrom(mail, `${linkBase(stack)}/reset-password`);
}

/** Registers and verifies a user through the outbox (needs the worker). */
export async function createVerifiedUser(stack, overrides = {}) {
  const c = client(stack.baseUrl);
  const user = await register(stack, overrides, c);
  const token = await verificationToken(stack, user.email);
  const res = await c.post('/api/verify-email', { token });
  assert.equal(res.status, 200, `verify ${user.email}: ${show(res)}`);
  return user;
}

/** A client signed in as `user` ({ email, password }). */
export async function signIn(stack, user, opts) {
  const c = client(stack.baseUrl, opts);
  const res = await c.post('/api/login', { email: user.email, password: user.password });
  assert.equal(res.status, 200, `login ${user.email}: ${show(res)}`);
  assert.ok(c.cookies.sid, `login ${user.email} set no sid cookie`);
  return c;
}

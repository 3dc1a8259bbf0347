// Reads the file outbox (MAIL_TRANSPORT=file): one .eml file per message in a folder.
// Messages are decoded with a real MIME parser (postal-mime): headers, encoded words,
// quoted-printable and base64 bodies, multipart/alternative text and HTML parts.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';

/** @typedef {{ to: string, subject: string, text: string, html: string, path: string, from: string, date: string | undefined, attachments: any[], mtimeMs: number }} Mail */

const cache = new Map(); // path -> { size, mtimeMs, mail }

function addresses(list) {
  const out = [];
  for (const a of list ?? []) {
    if (a.group) out.push(...a.group.map((m) => m.address));
    else if (a.address) out.push(a.address);
  }
  return out;
}

// A file that is still being written may parse as a truncated message. A multipart message is
// complete once its closing delimiter `--boundary--` is there; a single-part one once its headers
// have ended and its size stopped changing between two reads.
function isComplete(raw, email) {
  const ct = email.headers.find((h) => h.key === 'content-type')?.value ?? '';
  const m = /boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i.exec(ct);
  if (/^\s*multipart\//i.test(ct) && m) {
    const boundary = m[1] ?? m[2];
    return raw.includes(`--${boundary}--`);
  }
  return /\r?\n\r?\n/.test(raw);
}

async function parseFile(file) {
  const st = await stat(file);
  const hit = cache.get(file);
  if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.mail;
  const buf = await readFile(file);
  const again = await stat(file);
  if (again.size !== buf.length) return null; // still growing
  const email = await PostalMime.parse(buf);
  if (!isComplete(buf.toString('latin1'), email)) return null;
  const to = addresses(email.to);
  const mail = {
    to: to.join(', '),
    toList: to,
    from: addresses(email.from ? [email.from] : []).join(', '),
    subject: email.subject ?? '',
    text: email.text ?? '',
    html: email.html ?? '',
    date: email.date,
    attachments: email.attachments ?? [],
    headers: email.headers,
    path: file,
    mtimeMs: st.mtimeMs,
  };
  cache.set(file, { size: st.size, mtimeMs: st.mtimeMs, mail });
  return mail;
}

/** Every complete message in `dir`, oldest first. */
export async function readMails(dir) {
  let names;
  try {
    names = await readdir(dir);
  } catch (e) {
    if (e.code === 'ENOENT') return [];
    throw e;
  }
  const mails = [];
  for (const name of names.filter((n) => n.endsWith('.eml'))) {
    try {
      const mail = await parseFile(path.join(dir, name));
      if (mail) mails.push(mail);
    } catch (e) {
      if (e.code !== 'ENOENT') throw e;
    }
  }
  mails.sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
  return mails;
}

/** Polls `dir` until a message satisfies `predicate`; rejects with what it saw after `timeoutMs`. */
export async function waitForMail(dir, predicate, timeoutMs = 15000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await readMails(dir);
    const found = mails.find(predicate);
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = mails.map((m) => `  to=${m.to} subject=${JSON.stringify(m.subject)}`).join('\n') || '  (none)';
      throw new Error(`no matching mail in ${dir} within ${timeoutMs} ms; messages seen:\n${seen}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Matches a mail sent to `email` (case-insensitive), optionally with exactly this subject. */
export function mailTo(email, subject) {
  const want = email.toLowerCase();
  return (m) => m.toList.some((a) => a.toLowerCase() === want) && (subject === undefined || m.subject === subject);
}

/**
 * The first link in the decoded plain-text part that starts with `prefix` (for example
 * `${baseUrl}/verify-email`), as a URL. Throws with the text when there is none.
 */
export function findLink(mail, prefix) {
  for (const source of [mail.text, mail.html]) {
    for (const m of source.matchAll(/https?:\/\/[^\s"'<>]+/g)) {
      const href = m[0].replace(/&amp;/g, '&');
      if (href.startsWith(prefix)) return new URL(href);
    }
  }
  throw new Error(`no link starting with ${prefix} in the mail "${mail.subject}" (${mail.path}):\n${mail.text}`);
}

/** The `token` query parameter of the first link starting with `prefix`. */
export function tokenFrom(mail, prefix) {
  const url = findLink(mail, prefix);
  const token = url.searchParams.get('token');
  if (!token) throw new Error(`the link ${url} has no token`);
  return token;
}

// A tiny HTTP client over fetch with a cookie jar, standing in for one browser.
//
//   const c = client(stack.baseUrl);             // like a page of the app: Origin = baseUrl on non-GET requests
//   const c = client(stack.baseUrl, { origin: 'https://evil.example' }); // a cross-site page
//   const c = client(stack.baseUrl, { origin: null });                   // no Origin (curl, a server)
//   const r = await c.post('/api/login', { email, password });
//   r.status, r.body (parsed JSON, or the text when the response is not JSON), r.headers, r.text
//   c.cookies.sid                                       // the session cookie, if any
//
// Redirects are not followed (a 302 comes back as a 302). Options per call:
//   { headers: {...}, raw: 'string or Buffer body', contentType: '...' }
//   { pending: true } on POST /api/mentors: the new profile awaits review (otherwise the harness approves it)

import { afterRequest } from './vetting.mjs';

function parseSetCookie(line) {
  const [pair, ...attrs] = line.split(';');
  const eq = pair.indexOf('=');
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  const attributes = {};
  for (const a of attrs) {
    const i = a.indexOf('=');
    const key = (i < 0 ? a : a.slice(0, i)).trim().toLowerCase();
    attributes[key] = i < 0 ? true : a.slice(i + 1).trim();
  }
  return { name, value, attributes };
}

function expired(attributes) {
  if (attributes['max-age'] !== undefined && Number(attributes['max-age']) <= 0) return true;
  if (attributes.expires && Date.parse(attributes.expires) <= Date.now()) return true;
  return false;
}

export function client(baseUrl, { origin = new URL(baseUrl).origin } = {}) {
  const cookies = {};
  const state = { lastSetCookies: [] };

  async function request(method, path, body, opts = {}) {
    const headers = { accept: 'application/json', ...(opts.headers ?? {}) };
    // Browsers send Origin on every request but GET and HEAD.
    const sendsOrigin = method !== 'GET' && method !== 'HEAD';
    if (origin && sendsOrigin && !Object.keys(headers).some((k) => k.toLowerCase() === 'origin'))
      headers.origin = origin;
    const jar = Object.entries(cookies)
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');
    if (jar) headers.cookie = jar;
    let payload;
    if (opts.raw !== undefined) {
      payload = opts.raw;
      headers['content-type'] = opts.contentType ?? 'application/json';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    const res = await fetch(new URL(path, baseUrl), { method, headers, body: payload, redirect: 'manual' });
    const setCookies = res.headers.getSetCookie();
    state.lastSetCookies = setCookies.map(parseSetCookie);
    for (const c of state.lastSetCookies) {
      if (c.value === '' || expired(c.attributes)) delete cookies[c.name];
      else cookies[c.name] = c.value;
    }
    const text = await res.text();
    let parsed = text;
    // Parsed when the server says JSON, or when the text looks like JSON (assert the content type
    // separately where it matters).
    if (text && ((res.headers.get('content-type') ?? '').includes('json') || /^\s*[[{]/.test(text))) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    } else if (text === '') {
      parsed = null;
    }
    const result = { status: res.status, body: parsed, headers: res.headers, text, setCookies: state.lastSetCookies };
    // A mentor made through the harness is approved at once (see vetting.mjs; `{ pending: true }` keeps it pending).
    await afterRequest(baseUrl, method, path, opts, result);
    return result;
  }

  return {
    baseUrl,
    cookies,
    /** The parsed Set-Cookie headers of the last response: [{ name, value, attributes }]. */
    get lastSetCookies() {
      return state.lastSetCookies;
    },
    get: (path, opts) => request('GET', path, undefined, opts),
    post: (path, body, opts) => request('POST', path, body, opts),
    put: (path, body, opts) => request('PUT', path, body, opts),
    patch: (path, body, opts) => request('PATCH', path, body, opts),
    delete: (path, body, opts) => request('DELETE', path, body, opts),
    request,
  };
}

/** A printable summary of a response for assertion messages. */
export function show(res) {
  return `${res.status} ${typeof res.body === 'string' ? res.body.slice(0, 500) : JSON.stringify(res.body)}`;
}

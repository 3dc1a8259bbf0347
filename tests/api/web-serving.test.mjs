// How the api serves the built web app (issue 23): precompressed brotli and gzip with the right
// bytes, a year of caching for hashed assets and none for HTML, HEAD wherever GET, the landing
// page's JavaScript within its budget, and HTML that shows the page's frame before any script runs.
// Needs web/dist built by `npm run build` in web/ (scripts/test does it).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { bookableMentor } from '../harness/booking.mjs';
import { startStack, webDist } from '../harness/stack.mjs';
import { LANDING_JS_BUDGET_KB, landingJavaScript } from '../harness/web-bundle.mjs';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const built = existsSync(path.join(webDist, 'shell.html'));
const skip = !built && 'web/dist is not built with its prerendered pages (npm run build in web/)';

let stack;
before(async () => {
  if (built) stack = await startStack();
});
after(async () => {
  await stack?.stop();
});

/** One request with exactly these headers; the body as sent (node:http never decompresses). */
function raw(pathname, { method = 'GET', headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = request(new URL(pathname, stack.baseUrl), { method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const distFile = (name) => readFileSync(path.join(webDist, name));
const entryScript = () => {
  const manifest = JSON.parse(distFile('.vite/manifest.json'));
  return '/' + Object.values(manifest).find((m) => m.isEntry).file;
};
/** The markup inside <div id="root">, as the server sent it (nothing has run). */
const rootMarkup = (html) => {
  const start = html.search(/<div id="root"[\s>]/);
  assert.ok(start >= 0, 'the HTML has #root');
  const end = html.indexOf('<script', start);
  return html.slice(start, end >= 0 ? end : undefined);
};

describe('compression', { skip }, () => {
  it('sends brotli when accepted, with the bytes of the file', async () => {
    const script = entryScript();
    const res = await raw(script, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-encoding'], 'br');
    assert.match(res.headers.vary ?? '', /accept-encoding/i);
    assert.match(res.headers['content-type'] ?? '', /javascript/);
    assert.equal(Number(res.headers['content-length']), res.body.length);
    const original = distFile(script.slice(1));
    assert.ok(res.body.length < original.length / 2, `${res.body.length} bytes for ${original.length}`);
    assert.deepEqual(brotliDecompressSync(res.body), original);
  });

  it('sends gzip when brotli is not accepted, with the bytes of the file', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip', 'gzip;q=1, br;q=0.5']) {
      const res = await raw('/', { headers: { 'accept-encoding': accept } });
      assert.equal(res.status, 200, accept);
      assert.equal(res.headers['content-encoding'], 'gzip', accept);
      assert.match(res.headers['content-type'] ?? '', /text\/html/);
      assert.deepEqual(gunzipSync(res.body), distFile('index.html'), accept);
    }
  });

  it('sends the file as it is to a client that accepts no encoding', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }]) {
      const res = await raw('/', { headers });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-encoding'], undefined, JSON.stringify(headers));
      assert.match(res.headers.vary ?? '', /accept-encoding/i, 'a cache keeps the forms apart');
      assert.deepEqual(res.body, distFile('index.html'));
    }
  });

  it('the stylesheet and the favicon go compressed too, the notification sound as it is', async () => {
    const css = distFile('index.html')
      .toString()
      .match(/href="(\/assets\/[^"]+\.css)"/)[1];
    const res = await raw(css, { headers: { 'accept-encoding': 'br' } });
    assert.equal(res.headers['content-encoding'], 'br');
    assert.match(res.headers['content-type'] ?? '', /text\/css/);
    assert.deepEqual(brotliDecompressSync(res.body), distFile(css.slice(1)));
    const icon = await raw('/favicon.svg', { headers: { 'accept-encoding': 'gzip' } });
    assert.equal(icon.headers['content-encoding'], 'gzip');
    assert.match(icon.headers['content-type'] ?? '', /image\/svg\+xml/);
    const sound = await raw('/notification.mp3', { headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(sound.status, 200);
    assert.equal(sound.headers['content-encoding'], undefined);
    assert.deepEqual(sound.body, distFile('notification.mp3'));
  });
});

describe('caching', { skip }, () => {
  it('hashed assets are cached for a year, immutable', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const res = await raw(entryScript(), { headers: { 'accept-encoding': encoding } });
      assert.equal(res.status, 200);
      assert.equal(res.headers['cache-control'], IMMUTABLE, encoding);
    }
  });

  it('HTML is revalidated on every visit (no-cache), and answers 304 while unchanged', async () => {
    for (const p of ['/', '/mentors', '/mentor/123', '/some/page', '/favicon.svg']) {
      const res = await raw(p, { headers: { 'accept-encoding': 'br' } });
      assert.equal(res.status, 200, p);
      assert.equal(res.headers['cache-control'], 'no-cache', p);
      assert.ok(res.headers.etag, `${p} has an ETag`);
      const again = await raw(p, { headers: { 'accept-encoding': 'br', 'if-none-match': res.headers.etag } });
      assert.equal(again.status, 304, p);
      assert.equal(again.body.length, 0);
    }
  });

  it('the service worker, the manifest and the offline page are revalidated, with their types (issue 34)', async () => {
    for (const [p, type] of [
      ['/sw.js', /^text\/javascript/],
      ['/manifest.webmanifest', /^application\/manifest\+json/],
      ['/offline.html', /^text\/html/],
      ['/icons/icon-512.png', /^image\/png/],
    ]) {
      for (const encoding of ['br', 'identity']) {
        const res = await raw(p, { headers: { 'accept-encoding': encoding } });
        assert.equal(res.status, 200, p);
        assert.match(res.headers['content-type'] ?? '', type, p);
        // A worker script cached for long would keep an old worker running for as long.
        assert.equal(res.headers['cache-control'], 'no-cache', `${p} ${encoding}`);
      }
    }
    const worker = await raw('/sw.js', { headers: { 'accept-encoding': 'br' } });
    assert.deepEqual(brotliDecompressSync(worker.body), distFile('sw.js'));
  });

  it('a missing asset is a 404, never HTML that a browser would keep for a year', async () => {
    const res = await raw('/assets/no-such-chunk.js', { headers: { 'accept-encoding': 'br' } });
    assert.equal(res.status, 404);
    assert.notEqual(res.headers['cache-control'], IMMUTABLE);
  });
});

describe('HEAD wherever GET', { skip }, () => {
  const compared = ['content-type', 'content-length', 'content-encoding', 'cache-control', 'etag', 'vary'];
  for (const p of ['/', '/mentors', '/mentor/123', 'asset', '/api/health', '/api/mentors', '/api/site-info']) {
    it(`HEAD ${p}: the GET's status and headers, no body`, async () => {
      const url = p === 'asset' ? entryScript() : p;
      const headers = { 'accept-encoding': 'br, gzip' };
      const get = await raw(url, { headers });
      const head = await raw(url, { method: 'HEAD', headers });
      assert.equal(get.status, 200, `GET ${url}`);
      assert.equal(head.status, 200, `HEAD ${url}`);
      assert.equal(head.body.length, 0);
      assert.equal(Number(head.headers['content-length']), get.body.length, 'the GET body length');
      for (const h of compared) assert.equal(head.headers[h], get.headers[h], `${url} ${h}`);
    });
  }

  it('HEAD where GET is refused is refused the same way', async () => {
    const get = await raw('/api/verify-email');
    const head = await raw('/api/verify-email', { method: 'HEAD' });
    assert.equal(get.status, 405);
    assert.equal(head.status, 405);
    assert.equal(head.body.length, 0);
  });
});

describe('first paint', { skip }, () => {
  it("the landing page's JavaScript is within its budget, gzipped", () => {
    const { gzip, files } = landingJavaScript();
    const kb = gzip / 1024;
    assert.ok(
      kb <= LANDING_JS_BUDGET_KB,
      `${kb.toFixed(1)} KB > ${LANDING_JS_BUDGET_KB} KB: ${files
        .slice(0, 5)
        .map((f) => `${f.file} ${(f.gzip / 1024).toFixed(1)} KB`)
        .join(', ')}`,
    );
  });

  it('the pages run one script, the entry, and link its stylesheet', async () => {
    const manifest = JSON.parse(distFile('.vite/manifest.json'));
    const entry = Object.values(manifest).find((m) => m.isEntry);
    assert.ok(entry.css?.length, 'the entry carries the stylesheet');
    for (const p of ['/', '/mentors', '/mentor/123']) {
      const head = (await raw(p)).body.toString().split('<body')[0];
      assert.equal(head.match(/<script\b/g)?.length, 1, `${p} has one script, the entry`);
      assert.match(head, new RegExp(`<link rel="stylesheet"[^>]*href="/${entry.css[0]}"`), `${p} links the stylesheet`);
    }
  });

  it('the served HTML shows the frame and the page before any script runs', async () => {
    const pages = {
      '/': ['Connect with trusted spiritual mentors', 'Find Your Mentor'],
      '/mentors': ['Find Your Mentor', 'Loading mentors'],
      '/mentor/123': [],
      '/help-center': [],
    };
    for (const [p, texts] of Object.entries(pages)) {
      const res = await raw(p);
      assert.equal(res.status, 200, p);
      const root = rootMarkup(res.body.toString());
      // The header with the brand and the sign-in link, the main landmark and the footer.
      assert.match(root, /<header[\s>]/, `${p} header`);
      assert.match(root, /Mystic Mentors/, `${p} brand`);
      assert.match(root, /href="\/auth"/, `${p} sign-in link`);
      assert.match(root, /<main[\s>]/, `${p} main`);
      assert.match(root, /<footer[\s>]/, `${p} footer`);
      for (const text of texts) assert.ok(root.includes(text), `${p} shows '${text}'`);
    }
    // Client-side routes without a page of their own get the frame, not the landing page; only a
    // prerendered page says which page it is (the app hydrates it).
    const other = rootMarkup((await raw('/mentor/123')).body.toString());
    assert.ok(!other.includes('Connect with trusted spiritual mentors'));
    assert.ok(!other.includes('data-prerendered'));
    assert.ok(
      rootMarkup((await raw('/mentors')).body.toString()).startsWith('<div id="root" data-prerendered="/mentors">'),
    );
  });
});

describe("a mentor's page", { skip }, () => {
  /** The JSON the api wrote beside #root for the app, by the api path it answers. */
  const servedData = (html) => {
    const m = html.match(/<script type="application\/json" data-api-path="([^"]+)">([^<]*)<\/script>/);
    return m && { path: m[1], body: JSON.parse(m[2]) };
  };

  it('shows the mentor before any script runs, as the catalogue is now, escaped', async () => {
    const { c, mentor } = await bookableMentor(stack);
    const page = `/mentor/${mentor.id}`;
    const first = await raw(page);
    assert.equal(first.status, 200);
    assert.match(first.headers['content-type'] ?? '', /^text\/html/);
    assert.equal(first.headers['cache-control'], 'no-cache');
    let html = first.body.toString();
    const root = rootMarkup(html);
    assert.ok(root.includes('>Orla Ops</h1>'), 'the name in the card');
    assert.ok(root.includes('>OO</span>'), 'the initials');
    assert.ok(root.includes('Available day and night for the operational tests'), 'the bio');
    assert.match(root, /<header[\s>]/);
    assert.match(root, /<footer[\s>]/);
    // The app starts from exactly what GET /api/mentors/{id} answers.
    const api = await c.get(`/api/mentors/${mentor.id}`);
    assert.deepEqual(servedData(html), { path: `/api/mentors/${mentor.id}`, body: api.body });

    // While nothing changes: 304 for the ETag; after an edit the next load shows the edit.
    const etag = first.headers.etag;
    assert.ok(etag);
    const again = await raw(page, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    const bio = 'Reads <b>charts</b> & "cards" </script><script>alert(1)</script> with care, at any hour of the day.';
    const edit = await c.put('/api/mentor/profile', { bio });
    assert.equal(edit.status, 200, JSON.stringify(edit.body));
    const changed = await raw(page, { headers: { 'if-none-match': etag } });
    assert.equal(changed.status, 200, 'the edit is shown, not a 304 for the old page');
    assert.notEqual(changed.headers.etag, etag);
    html = changed.body.toString();
    assert.ok(
      rootMarkup(html).includes(
        'Reads &lt;b&gt;charts&lt;/b&gt; &amp; &quot;cards&quot; &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; with care',
      ),
    );
    assert.ok(!html.includes('<script>alert(1)'), 'nothing of the bio runs');
    assert.equal(servedData(html).body.bio, bio);
    assert.deepEqual(servedData(html).body, (await c.get(`/api/mentors/${mentor.id}`)).body);
    // HEAD has the GET's headers.
    const head = await raw(page, { method: 'HEAD' });
    assert.equal(head.headers.etag, changed.headers.etag);
    assert.equal(head.body.length, 0);
  });

  it('a mentor nobody may see yet, or none at all, gets the frame alone', async () => {
    const user = await createVerifiedUser(stack);
    const c = await signIn(stack, user);
    const pending = await c.post(
      '/api/mentors',
      {
        displayName: 'Pending Pell',
        bio: 'Awaiting review, so nobody but the mentor and the administrators sees this profile.',
        specialties: ['Astrology'],
        basePrice: '25.00',
        timeZone: 'UTC',
      },
      { pending: true },
    );
    assert.equal(pending.status, 201, JSON.stringify(pending.body));
    const shell = rootMarkup(distFile('shell.html').toString());
    for (const p of [`/mentor/${pending.body.id}`, '/mentor/00000000-0000-4000-8000-000000000000']) {
      const html = (await raw(p)).body.toString();
      assert.equal(rootMarkup(html), shell, p);
      assert.equal(servedData(html), null, p);
      assert.ok(!html.includes('Pending Pell'), p);
    }
  });
});

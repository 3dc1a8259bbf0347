// After `vite build` (dist/) and `vite build --ssr src/prerender.tsx` (dist-prerender/): writes the
// prerendered public pages into the built index.html's #root, one file per page (see PRERENDERED in
// src/prerender.tsx), so the api serves HTML that paints the page's frame before any script runs.
//
//   node scripts/prerender.mjs
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const web = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(web, 'dist');
const ssrDir = path.join(web, 'dist-prerender');
const { PAGES, SHELL_FILE, MENTOR_PAGE_FILE, renderPage, renderShell, renderMentorPage } = await import(
  pathToFileURL(path.join(ssrDir, 'prerender.js')).href
);

const ROOT = '<div id="root"></div>';
const template = readFileSync(path.join(dist, 'index.html'), 'utf8');
if (!template.includes(ROOT)) throw new Error(`dist/index.html has no ${ROOT}`);

function write(file, attr, markup) {
  const html = template.replace(ROOT, `<div id="root"${attr}>${markup}</div>`);
  const out = path.join(dist, file);
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, html);
  console.log(`prerendered dist/${file} (${(html.length / 1024).toFixed(1)} KB)`);
}
// data-prerendered: the page this HTML shows, which main.tsx hydrates; none for the frame alone.
for (const { path: route, file } of PAGES) write(file, ` data-prerendered="${route}"`, await renderPage(route));
write(SHELL_FILE, '', renderShell());
write(MENTOR_PAGE_FILE, '', renderMentorPage());
rmSync(ssrDir, { recursive: true, force: true });

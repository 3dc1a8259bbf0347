import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadPage } from './app/routes';
import { fetchUser } from './lib/auth';
import { registerServiceWorker } from './lib/push';
import { queryClient } from './lib/query-client';
import { apiKey } from './lib/query-keys';

/**
 * Answers the api wrote into the page (`<script type="application/json" data-api-path>`, the body
 * of a GET of that path, api/src/web.rs), put in the query cache under that path's key, so the
 * first render has them without asking again.
 */
function adoptServedData() {
  for (const el of document.querySelectorAll<HTMLScriptElement>('script[type="application/json"][data-api-path]')) {
    try {
      queryClient.setQueryData(apiKey(el.dataset.apiPath!), JSON.parse(el.textContent ?? ''));
    } catch {
      // Not usable: the page asks for it as usual.
    }
    el.remove();
  }
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

/**
 * The app itself, loaded by main.tsx once the served HTML has been painted.
 * The served HTML already shows the page's frame (web/scripts/prerender.mjs). It stays on screen
 * until the app's first render can show the page itself: the signed-in state and the page's chunk
 * load first, so the frame is never swapped for a spinner. Failures are the app's to show.
 * A signed-out visitor of a prerendered page (`data-prerendered` names it) gets that HTML hydrated,
 * not rebuilt; otherwise the app renders afresh. Either way the first render is a transition, done
 * in slices that leave the page responsive.
 */
async function start(container: HTMLElement) {
  adoptServedData();
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  );
  let user = null;
  if (container.hasChildNodes()) {
    const path = window.location.pathname;
    // The signed-out page's chunk loads beside the user (the public pages are the same for both).
    [user] = await Promise.all([
      fetchUser(queryClient).catch(() => null),
      preloadPage(path, false).catch(() => undefined),
    ]);
    if (user) await preloadPage(path, true).catch(() => undefined);
  }
  const page = window.location.pathname + window.location.search;
  if (!user && container.dataset.prerendered === page) {
    startTransition(() => void hydrateRoot(container, app));
  } else {
    const root = createRoot(container);
    startTransition(() => root.render(app));
  }
}

void start(root);
// The service worker (notifications and the offline page) once the page has loaded.
registerServiceWorker();

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadPage } from './app/routes';
import { fetchUser } from './lib/auth';
import { queryClient } from './lib/query-client';
import './styles/index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

/**
 * The served HTML already shows the page's frame (web/scripts/prerender.mjs). It stays on screen
 * until the app's first render can show the page itself: the signed-in state and the page's chunk
 * load first, so the frame is never swapped for a spinner. Failures are the app's to show.
 */
async function start(container: HTMLElement) {
  if (container.hasChildNodes()) {
    const path = window.location.pathname;
    // The signed-out page's chunk loads beside the user (the public pages are the same for both).
    const [user] = await Promise.all([
      fetchUser(queryClient).catch(() => null),
      preloadPage(path, false).catch(() => undefined),
    ]);
    if (user) await preloadPage(path, true).catch(() => undefined);
  }
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start(root);

import './styles/index.css';

/**
 * The entry: only the stylesheet and this loader. The served HTML already shows the page (the
 * build prerenders the public pages, web/scripts/prerender.mjs), so the app's code (boot.tsx and
 * what it imports) is fetched and run once that HTML has been painted: evaluating it never holds
 * back the first paint, which on a slow phone would otherwise wait for all of it.
 * A page that is not shown (a background tab, where no frame comes) loads at once, and a second
 * without a frame loads it anyway.
 */
function afterFirstPaint(): Promise<void> {
  if (document.visibilityState !== 'visible') return Promise.resolve();
  // The timer runs after the frame that requestAnimationFrame's callback starts, i.e. after its paint.
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 1000);
  });
}

void afterFirstPaint().then(() => import('./boot'));

import './styles/index.css';

/**
 * The entry: only the stylesheet and this loader. The served HTML already shows the page (the
 * build prerenders the public pages, web/scripts/prerender.mjs, and the api fills in a mentor's),
 * so the app's code (boot.tsx and what it imports) is fetched and run once that HTML is on the
 * screen: evaluating it never holds back the first paint, which on a slow or busy phone would
 * otherwise wait for all of it.
 * "On the screen" is the browser's first-contentful-paint entry (reported once the frame is
 * presented, not merely started); a browser without paint timing waits for the next frame
 * instead, a page that is not shown (a background tab, where no frame comes) loads at once, and
 * five seconds without a paint load it anyway.
 */
function afterFirstPaint(): Promise<void> {
  if (document.visibilityState !== 'visible') return Promise.resolve();
  return new Promise((resolve) => {
    setTimeout(resolve, 5000);
    if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('paint')) {
      const observer = new PerformanceObserver((list) => {
        if (list.getEntriesByName('first-contentful-paint').length === 0) return;
        observer.disconnect();
        resolve();
      });
      observer.observe({ type: 'paint', buffered: true });
    } else {
      requestAnimationFrame(() => setTimeout(resolve, 0));
    }
  });
}

void afterFirstPaint().then(() => import('./boot'));

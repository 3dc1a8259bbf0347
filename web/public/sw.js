// The service worker of Mystic Mentors (docs/push.md): shows Web Push notifications, takes a click
// to the page it names, and serves the offline page when a navigation finds no network.
// Served from the site's root (scope '/') with `Cache-Control: no-cache`, so a new version is
// picked up on the next visit. Plain JavaScript on purpose: it is copied into dist/ as it is.

const OFFLINE_CACHE = 'offline-v1';
const OFFLINE_URL = '/offline.html';
const ICON = '/icons/icon-192.png';
/** A ring older than this is stale (the call stopped ringing): never shown. */
const RING_STALE_MS = 45_000;
/** Kinds an open, visible tab already shows live (its socket heard them): not shown twice. */
const LIVE_IN_TAB = new Set(['incoming_call', 'new_message', 'reading_requested']);

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(OFFLINE_CACHE)
      .then((cache) => cache.addAll([OFFLINE_URL, ICON, '/favicon.svg']))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== OFFLINE_CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// Only page navigations are intercepted, and only when the network fails: everything else goes
// to the network untouched (the app's own caching rules stay in charge).
self.addEventListener('fetch', (event) => {
  if (event.request.mode !== 'navigate') return;
  event.respondWith(fetch(event.request).catch(async () => (await caches.match(OFFLINE_URL)) ?? Response.error()));
});

function readPush(data) {
  if (!data) return {};
  try {
    return data.json();
  } catch {
    return { title: 'Mystic Mentors', body: data.text() };
  }
}

async function showPush(push) {
  const kind = push.kind ?? '';
  const tag = push.tag || undefined;
  if (kind === 'incoming_call' && push.sentAt && Date.now() - Date.parse(push.sentAt) > RING_STALE_MS) return;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const visible = windows.some((c) => c.visibilityState === 'visible' && c.focused !== false);
  if (visible && LIVE_IN_TAB.has(kind)) return;
  if (kind === 'call_ended' && tag) {
    // Whatever rings for this call stops: the replacement below takes its place quietly.
    for (const n of await self.registration.getNotifications({ tag })) n.close();
  }
  await self.registration.showNotification(push.title || 'Mystic Mentors', {
    body: push.body ?? '',
    tag,
    icon: ICON,
    badge: ICON,
    data: { url: push.url || '/', kind },
    renotify: Boolean(tag) && kind !== 'call_ended',
    requireInteraction: kind === 'incoming_call',
    silent: kind === 'call_ended',
    timestamp: push.sentAt ? Date.parse(push.sentAt) : Date.now(),
  });
}

self.addEventListener('push', (event) => {
  event.waitUntil(showPush(readPush(event.data)));
});

// A click focuses a tab of the app (taking it to the notification's page) or opens one there.
// For an incoming call that page is the conversation: the tab's socket hears the call still
// ringing and shows it ready to accept.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || '/', self.location.origin);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const same = windows.find((c) => c.url === target.href);
      const tab = same ?? windows.find((c) => new URL(c.url).origin === target.origin);
      if (tab) {
        await tab.focus();
        if (!same) tab.postMessage({ type: 'navigate', url: target.pathname + target.search });
        return;
      }
      await self.clients.openWindow(target.href);
    })(),
  );
});

// The push service renewed the subscription: tell the api (the session's cookie goes along).
self.addEventListener('pushsubscriptionchange', (event) => {
  event.waitUntil(
    (async () => {
      const options = event.oldSubscription?.options;
      const subscription =
        event.newSubscription ?? (options ? await self.registration.pushManager.subscribe(options) : null);
      if (!subscription) return;
      await fetch('/api/push/subscriptions', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(subscription.toJSON()),
      });
    })(),
  );
});

/**
 * Web Push in this browser (docs/push.md): the service worker, this browser's permission and
 * subscription, the user's other subscribed devices and push preferences. The notification
 * settings and the prompt after a first booking both use it. Permission is only ever asked from
 * a click ({@link turnOnPush}), never on load.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createPushSubscription,
  deletePushSubscription,
  getGetPushPreferencesUrl,
  getListPushSubscriptionsUrl,
  getPushPreferences,
  getPushPublicKey,
  listPushSubscriptions,
  updatePushPreferences,
} from '@/api/endpoints/notifications/notifications';
import type { PushDevice, PushPreferencesChange, PushPreferencesView } from '@/api/model';
import { apiKey } from './query-keys';

export type { PushDevice, PushPreferencesView };

export const SERVICE_WORKER_URL = '/sw.js';

/** What this browser can do about push notifications now. */
export type BrowserPushState =
  | 'unsupported' // no service worker, PushManager or Notification here
  | 'denied' // the user blocked notifications for this site
  | 'off' // allowed or not asked yet, and not subscribed
  | 'on'; // subscribed

export const PUSH_TEXT = {
  turnOn: 'Turn on notifications',
  turnOff: 'Turn off in this browser',
  turnedOn: 'Notifications are on in this browser',
  turnedOff: 'Notifications are off in this browser',
  unsupported: 'This browser cannot show notifications from Mystic Mentors.',
  denied: 'Notifications are blocked for this site. Allow them in your browser settings, then try again.',
  failed: 'Could not turn on notifications',
  preferencesLoadFailed: 'Failed to load push preferences',
  preferencesUpdateFailed: 'Failed to update push preferences',
  devicesLoadFailed: 'Failed to load your devices',
  deviceRemoved: 'Device removed',
  deviceRemoveFailed: 'Failed to remove the device',
} as const;

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window
  );
}

/**
 * Registers the service worker once the page has loaded (boot calls it): it shows pushes and the
 * offline page. A click on a notification while a tab is open asks that tab to go to its page.
 */
export function registerServiceWorker(navigate: (url: string) => void = defaultNavigate) {
  if (typeof window === 'undefined' || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    const data = event.data as { type?: string; url?: string } | undefined;
    if (data?.type === 'navigate' && typeof data.url === 'string' && data.url.startsWith('/')) navigate(data.url);
  });
  const register = () => {
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch(() => {
      // No worker: the site works as before, without notifications or the offline page.
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/** An in-app move that the router hears (react-router follows popstate). */
function defaultNavigate(url: string) {
  window.history.pushState(null, '', url);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a) return false;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

async function registration(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration('/');
  if (!existing) await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
  return navigator.serviceWorker.ready;
}

/** This browser's subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const reg = await navigator.serviceWorker.getRegistration('/');
  return (await reg?.pushManager.getSubscription()) ?? null;
}

/** This browser's state (it never asks for permission). */
export async function browserPushState(): Promise<BrowserPushState> {
  return (await browserPush()).state;
}

/** This browser's state and, when it is subscribed, its endpoint. */
export async function browserPush(): Promise<{ state: BrowserPushState; endpoint: string | null }> {
  if (!pushSupported()) return { state: 'unsupported', endpoint: null };
  if (Notification.permission === 'denied') return { state: 'denied', endpoint: null };
  const subscription = await currentSubscription();
  return subscription ? { state: 'on', endpoint: subscription.endpoint } : { state: 'off', endpoint: null };
}

/**
 * What the settings show for this browser: subscribed in the browser but unknown to the api (its
 * row went when its session signed out) is off, and 'Turn on notifications' saves it again.
 */
export function effectivePushState(
  browser: { state: BrowserPushState; endpoint: string | null } | undefined,
  devices: { endpoint: string }[] | undefined,
): BrowserPushState | undefined {
  if (!browser) return undefined;
  if (browser.state !== 'on' || !devices) return browser.state;
  return devices.some((d) => d.endpoint === browser.endpoint) ? 'on' : 'off';
}

/**
 * From a click: asks for permission (when not granted yet), subscribes this browser with the
 * api's VAPID key (a subscription made with an older key is replaced) and saves it.
 */
export async function turnOnPush(): Promise<BrowserPushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'off';
  const reg = await registration();
  const key = keyBytes((await getPushPublicKey()).publicKey);
  let subscription = await reg.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  const json = subscription.toJSON();
  await createPushSubscription({
    endpoint: json.endpoint ?? subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
    expirationTime: json.expirationTime ?? undefined,
  });
  return 'on';
}

/** Unsubscribes this browser and forgets its row (`id` from the device list). */
export async function turnOffPush(id?: string): Promise<BrowserPushState> {
  const subscription = await currentSubscription();
  await subscription?.unsubscribe();
  if (id) await deletePushSubscription(id);
  return browserPushState();
}

export const pushKeys = {
  devices: () => apiKey(getListPushSubscriptionsUrl()),
  preferences: () => apiKey(getGetPushPreferencesUrl()),
  browser: () => ['push', 'browser'] as const,
};

export const pushQueries = {
  /** GET /api/push/subscriptions: the user's subscribed browsers. */
  devices: () =>
    queryOptions({ queryKey: pushKeys.devices(), queryFn: ({ signal }) => listPushSubscriptions({ signal }) }),
  /** GET /api/user/push-preferences: the five switches. */
  preferences: () =>
    queryOptions({ queryKey: pushKeys.preferences(), queryFn: ({ signal }) => getPushPreferences({ signal }) }),
  /** This browser's state and endpoint: read from the browser, never asking. */
  browser: () => queryOptions({ queryKey: pushKeys.browser(), queryFn: browserPush }),
};

export const usePushDevices = () => useQuery(pushQueries.devices());
export const usePushPreferences = () => useQuery(pushQueries.preferences());
export const useBrowserPushState = () => useQuery(pushQueries.browser());

export function useUpdatePushPreferences() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: PushPreferencesChange) => updatePushPreferences(change),
    onSuccess: (saved) => client.setQueryData(pushKeys.preferences(), saved),
  });
}

/** Turns this browser on or off; refreshes its state and the device list. */
export function useTogglePush() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ on, id }: { on: boolean; id?: string }) => (on ? turnOnPush() : turnOffPush(id)),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: pushKeys.browser() });
      void client.invalidateQueries({ queryKey: pushKeys.devices() });
    },
  });
}

export function useRemovePushDevice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deletePushSubscription(id),
    onSuccess: () => void client.invalidateQueries({ queryKey: pushKeys.devices() }),
  });
}

/** A short name for a device from its user agent: "Chrome on Android". */
export function deviceName(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown browser';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\/|Chromium\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : 'Browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return system ? `${browser} on ${system}` : browser;
}

/** The one-time prompt after a first booking: shown once per browser, only while not asked yet. */
export const PUSH_PROMPT_KEY = 'push-prompt-shown';

export function shouldOfferPush(): boolean {
  if (!pushSupported() || Notification.permission !== 'default') return false;
  try {
    return localStorage.getItem(PUSH_PROMPT_KEY) === null;
  } catch {
    return false;
  }
}

export function pushOffered() {
  try {
    localStorage.setItem(PUSH_PROMPT_KEY, new Date().toISOString());
  } catch {
    // Private mode: it may show again; still never without a click to accept.
  }
}

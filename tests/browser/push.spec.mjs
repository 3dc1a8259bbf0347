// The installable app (issue 34): the service worker registers, the manifest is valid, the offline
// page shows with the network off, and a push dispatched to the worker through the DevTools
// protocol (`ServiceWorker.deliverPushMessage`; Chromium's own push service is out of reach here)
// is shown as a notification, replaced by a later one with its tag. The notification settings
// never ask for permission on load.
import AxeBuilder from '@axe-core/playwright';
import { bookableMentor, reserve, startIn } from '../harness/booking.mjs';
import { test, expect, createVerifiedUser, signIn } from '../harness/fixtures.mjs';
import { connect } from '../harness/realtime.mjs';

/** Serious and critical axe violations of the page as it is now. */
async function axeViolations(page) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations
    .filter((v) => ['serious', 'critical'].includes(v.impact))
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

/** The page signed in with the session of an api sign-in. */
async function signInPage(page, stack, c) {
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes) {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.subarray(0, 8).equals(signature)).toBe(true);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The service worker's registration once it is active and controls the page. */
async function activeWorker(page) {
  await page.goto('/');
  const script = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
      );
    }
    return reg.active.scriptURL;
  });
  return script;
}

test('the manifest makes the site installable', async ({ page, request }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const res = await request.get(href);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = await res.json();
  expect(manifest.name).toBe('Mystic Mentors');
  expect(manifest.short_name).toBeTruthy();
  expect(manifest.display).toBe('standalone');
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
  expect(manifest.start_url.startsWith('/')).toBe(true);
  const sizes = new Set();
  for (const icon of manifest.icons) {
    const image = await request.get(icon.src);
    expect(image.status(), icon.src).toBe(200);
    expect(image.headers()['content-type']).toBe('image/png');
    const { width, height } = pngSize(await image.body());
    expect(`${width}x${height}`).toBe(icon.sizes);
    sizes.add(icon.sizes);
  }
  expect([...sizes].sort()).toEqual(['192x192', '512x512']);
  expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
  expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe(manifest.theme_color);
});

test('the service worker registers, is never cached for long, and shows the offline page', async ({
  page,
  context,
  request,
}) => {
  expect(await activeWorker(page)).toMatch(/\/sw\.js$/);
  const sw = await request.get('/sw.js');
  expect(sw.headers()['content-type']).toMatch(/javascript/);
  expect(sw.headers()['cache-control']).toBe('no-cache');
  // Nothing asked for permission on the way.
  expect(await page.evaluate(() => Notification.permission)).toBe('default');

  await context.setOffline(true);
  try {
    await page.goto('/mentors').catch(() => undefined);
    await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
    await expect(page).toHaveTitle(/offline/i);
  } finally {
    await context.setOffline(false);
  }
  await page.getByRole('link', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'You are offline' })).toHaveCount(0);
});

test('a push delivered to the worker is shown as a notification and replaced by its tag', async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(['notifications'], { origin: baseURL });
  const cdp = await context.newCDPSession(page);
  const registrationId = new Promise((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((r) => r.scopeURL === `${baseURL}/` && !r.isDeleted);
      if (mine) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await activeWorker(page);
  const id = await registrationId;

  const push = (data) =>
    cdp.send('ServiceWorker.deliverPushMessage', { origin: baseURL, registrationId: id, data: JSON.stringify(data) });
  const shown = (tag) =>
    page.evaluate(async (t) => {
      const reg = await navigator.serviceWorker.ready;
      return (await reg.getNotifications({ tag: t })).map((n) => ({
        title: n.title,
        body: n.body,
        icon: n.icon,
        tag: n.tag,
        url: n.data?.url,
      }));
    }, tag);

  const sentAt = new Date().toISOString();
  await push({
    kind: 'booking_confirmed',
    title: 'Booking confirmed',
    body: 'Your session "Star reading" with Mira is confirmed.',
    url: '/dashboard',
    tag: 'notification-1',
    sentAt,
  });
  await expect
    .poll(() => shown('notification-1'))
    .toEqual([
      {
        title: 'Booking confirmed',
        body: 'Your session "Star reading" with Mira is confirmed.',
        icon: `${baseURL}/icons/icon-192.png`,
        tag: 'notification-1',
        url: '/dashboard',
      },
    ]);

  await push({
    kind: 'booking_rescheduled',
    title: 'Booking rescheduled',
    body: 'You moved "Star reading".',
    url: '/dashboard',
    tag: 'notification-1',
    sentAt,
  });
  await expect.poll(async () => (await shown('notification-1')).map((n) => n.title)).toEqual(['Booking rescheduled']);

  // A ring that is no longer fresh is never shown.
  await push({
    kind: 'incoming_call',
    title: 'Incoming call',
    body: 'Ann Lee is calling you',
    url: '/messages',
    tag: 'call-1',
    sentAt: new Date(Date.now() - 120_000).toISOString(),
  });
  await push({
    kind: 'booking_cancelled',
    title: 'Booking cancelled',
    body: 'x',
    url: '/dashboard',
    tag: 'after',
    sentAt,
  });
  await expect.poll(() => shown('after')).toHaveLength(1);
  expect(await shown('call-1')).toEqual([]);
});

test('the notification settings show this browser and ask for nothing until a click', async ({ page, stack }) => {
  const c = await signIn(stack, await createVerifiedUser(stack));
  await signInPage(page, stack, c);
  await page.goto('/notifications');
  await expect(page.getByRole('heading', { name: 'Push notifications' })).toBeVisible();
  await expect(page.getByTestId('push-browser-state')).toHaveText('Notifications are off in this browser');
  await expect(page.getByRole('button', { name: 'Turn on notifications' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Messages' })).toBeChecked();
  await expect(page.getByText('No other device gets notifications.')).toBeVisible();
  expect(await page.evaluate(() => Notification.permission)).toBe('default');

  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('switch', { name: 'Bookings' }).click();
  await expect(page.getByRole('switch', { name: 'Bookings' })).not.toBeChecked();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Bookings' })).not.toBeChecked();
});

test('after a first booking the dashboard offers notifications once, asking nothing until a click', async ({
  page,
  stack,
}) => {
  const mentor = await bookableMentor(stack, { price: '0.00' });
  const seeker = await signIn(stack, await createVerifiedUser(stack));
  await signInPage(page, stack, seeker);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: /^Welcome( back)?, / })).toBeVisible();
  await expect(page.getByText('Never miss a session')).toHaveCount(0);

  await reserve(seeker, mentor, startIn(30));
  await page.reload();
  await expect(page.getByText('Never miss a session')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Turn on notifications' })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  expect(await page.evaluate(() => Notification.permission)).toBe('default');
  await page.getByRole('button', { name: 'Not now' }).click();
  await expect(page.getByText('Never miss a session')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('heading', { name: /^Welcome( back)?, / })).toBeVisible();
  await expect(page.getByText('Never miss a session')).toHaveCount(0);
});

test("a ring's page opened while the call rings shows it ready to accept", async ({ page, stack }) => {
  const mentor = await bookableMentor(stack);
  const seeker = await signIn(stack, await createVerifiedUser(stack, { firstName: 'Rhea', lastName: 'Ring' }));
  const conversation = (await seeker.post('/api/conversations', { mentorId: mentor.mentor.id })).body;
  const caller = await connect(stack, seeker);
  try {
    caller.send('initiateCall', { conversationId: conversation.id });
    const call = await caller.next('callInitiated');
    // What a click on the incoming_call notification opens (its url), in a tab that was not open.
    await signInPage(page, stack, mentor.c);
    await page.goto(`/messages?conversation=${conversation.id}`);
    const ring = page.getByTestId('incoming-call');
    await expect(ring).toBeVisible();
    await expect(ring.getByRole('heading', { name: 'Rhea Ring' })).toBeVisible();
    await expect(ring.getByRole('button', { name: 'Accept' })).toBeVisible();
    caller.send('endCall', { callId: call.callId });
    await expect(ring).toHaveCount(0);
  } finally {
    await caller.close();
  }
});

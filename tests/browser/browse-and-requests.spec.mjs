// Browsing details from issue 24, in Chromium against the real api (serving web/dist) and worker:
// - the mentor list's price filters apply as the value changes (no blur needed), and a mentor out
//   of range leaves the list;
// - on a phone (390×844) the filters fold behind a Filters button so the first mentor shows on the
//   first screen;
// - a seeker's walk asks nothing of /api/mentor/profile, a signed-out walk nothing of /api/auth/user
//   (the `signed_in` cookie says whether to ask), and a mentor still gets the mentor links;
// - toasts cover none of the header's controls; the mentor dashboard's stat cards take their
//   content's height.
import { test, expect, createVerifiedUser, signIn, show } from '../harness/fixtures.mjs';

/** A mentor (approved by the harness) with one service at `price`; resolves to the mentor body. */
async function mentorAt(stack, displayName, price) {
  const user = await createVerifiedUser(stack, { firstName: displayName.split(' ')[0] });
  const c = await signIn(stack, user);
  const m = await c.post('/api/mentors', {
    displayName,
    bio: 'Moonwell readings for the browsing tests, with a bio long enough to pass the check.',
    specialties: ['Astrology'],
    basePrice: price,
    timeZone: 'UTC',
  });
  if (m.status !== 201) throw new Error(show(m));
  const s = await c.post('/api/services', {
    title: 'Moonwell Reading',
    description: 'A reading under the moonwell for the browsing tests.',
    serviceType: 'astrology',
    price,
    duration: 60,
  });
  if (s.status !== 201) throw new Error(show(s));
  return { c, user, mentor: m.body };
}

/** Signs the page's context in the way a sign-in leaves a browser: the session and `signed_in`. */
async function signInPage(page, stack, c) {
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: c.cookies.signed_in, url: stack.baseUrl },
  ]);
}

const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

let mentors;
test.beforeAll(async ({ stack }) => {
  mentors = {
    cheap: await mentorAt(stack, 'Moonwell Cheap', '30.00'),
    dear: await mentorAt(stack, 'Moonwell Dear', '80.00'),
  };
});

test('price filters apply while typing and out-of-range mentors leave the list', async ({ page }) => {
  await page.goto('/mentors?search=moonwell');
  const list = page.getByRole('list', { name: 'Mentors' });
  await expect(list.getByRole('heading', { name: 'Moonwell Dear' })).toBeVisible();
  await expect(list.getByRole('heading', { name: 'Moonwell Cheap' })).toBeVisible();

  const max = page.getByLabel('Max price');
  await max.fill('50');
  // Still typing in the box (it has focus): the list follows anyway.
  await expect(max).toBeFocused();
  await expect(list.getByRole('heading', { name: 'Moonwell Dear' })).toHaveCount(0);
  await expect(list.getByRole('heading', { name: 'Moonwell Cheap' })).toBeVisible();
  await expect(page).toHaveURL(/maxPrice=50/);

  const min = page.getByLabel('Min price');
  await min.fill('40');
  await expect(min).toBeFocused();
  await expect(page.getByText('No Mentors Found')).toBeVisible();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the filters fold behind a button and the first mentor is on the first screen', async ({ page }) => {
    await page.goto('/mentors?search=moonwell');
    // A search's result, not what the prerendered page showed before the app took over.
    const first = page
      .getByRole('list', { name: 'Mentors' })
      .getByRole('listitem')
      .filter({ hasText: 'Moonwell' })
      .first();
    await expect(first).toBeVisible();
    await expect(page.getByLabel('Min price')).toBeHidden();
    await expect(page.getByRole('group', { name: 'Filter by service' })).toBeHidden();
    const box = await first.boundingBox();
    expect(box.y, 'the first card starts well inside the first screen').toBeLessThan(844 - 200);

    const toggle = page.getByRole('button', { name: 'Filters', exact: true });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByLabel('Min price')).toBeVisible();
    await expect(page.getByRole('group', { name: 'Filter by service' })).toBeVisible();
  });
});

/** Paths of the /api requests a walk over `paths` makes. */
async function apiRequestsOfWalk(page, paths) {
  const seen = [];
  const listener = (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith('/api/')) seen.push(url.pathname);
  };
  page.on('request', listener);
  for (const p of paths) {
    await page.goto(p);
    await page.waitForLoadState('networkidle');
  }
  page.off('request', listener);
  return seen;
}

test('a signed-out walk never asks for the user; a seeker walk never for a mentor profile', async ({ page, stack }) => {
  const id = mentors.cheap.mentor.id;
  const walk = ['/', '/mentors', `/mentor/${id}`, '/mentors?search=moonwell', '/contact', '/'];

  const signedOut = await apiRequestsOfWalk(page, walk);
  expect(signedOut.length, 'the walk did call the api').toBeGreaterThan(0);
  expect(signedOut.filter((p) => p === '/api/auth/user')).toEqual([]);
  await expect(page.getByRole('link', { name: 'Sign In' }).first()).toBeVisible();

  const seeker = await signIn(stack, await createVerifiedUser(stack, { firstName: 'Selma' }));
  await signInPage(page, stack, seeker);
  const signedIn = await apiRequestsOfWalk(page, [...walk, '/dashboard', '/favorites', '/messages', '/profile']);
  expect(signedIn).toContain('/api/auth/user');
  expect(signedIn.filter((p) => p === '/api/mentor/profile')).toEqual([]);
  await expect(page.getByRole('link', { name: 'Mentor Dashboard' })).toHaveCount(0);

  // A mentor still gets the mentor links, from the user's own view.
  await page.context().clearCookies();
  await signInPage(page, stack, mentors.dear.c);
  await page.goto('/');
  await expect(page.getByRole('link', { name: 'Mentor Dashboard' }).first()).toBeAttached();
});

test('a toast covers none of the header controls', async ({ page, stack }) => {
  const seeker = await signIn(stack, await createVerifiedUser(stack, { firstName: 'Tova' }));
  await signInPage(page, stack, seeker);
  await page.goto('/mentors?search=moonwell');
  await page
    .getByRole('button', { name: /favorites/i })
    .first()
    .click();
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'Added to favorites' });
  await expect(toast).toBeVisible();
  const toastBox = await toast.boundingBox();
  const controls = page.getByRole('banner').locator('a:visible, button:visible');
  const count = await controls.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i += 1) {
    const box = await controls.nth(i).boundingBox();
    if (!box) continue;
    const name = (await controls.nth(i).getAttribute('aria-label')) ?? (await controls.nth(i).innerText());
    expect(overlaps(toastBox, box), `the toast covers '${name}'`).toBe(false);
  }
  const header = await page.getByRole('banner').boundingBox();
  expect(overlaps(toastBox, header), 'the toast covers the header').toBe(false);
});

test.describe('on a wide screen', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the mentor dashboard's stat cards take their content's height", async ({ page, stack }) => {
    await signInPage(page, stack, mentors.cheap.c);
    await page.goto('/mentor-dashboard');
    const card = (label) => page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=..');
    await expect(card('Total Sessions')).toBeVisible();
    const earnings = await page.getByRole('region', { name: 'Earnings' }).boundingBox();
    for (const label of ['Total Sessions', 'This Month', 'Total Earnings', 'Rating']) {
      const box = await card(label).boundingBox();
      // Label, value and a note: about 120 px. Stretched to the Earnings card's height, far more.
      expect(box.height, `${label}: ${box.height}px tall beside Earnings at ${earnings.height}px`).toBeLessThan(160);
    }
  });
});

// Phone and desktop walks (issue 24): landing, mentor list, mentor page, booking, dashboard, messages
// and a group call page, at 390x844 and at 1280x800. On every page nothing scrolls sideways and every
// button, link and field of the page's main content lies within the width of the screen (or of a
// strip that scrolls on its own); the page's primary action is visible once scrolled to. Each page
// is saved as tests/artifacts/screens/<size>-<page>.png (three of them are copied to
// docs/screenshots/ for docs/testing.md).
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '../harness/fixtures.mjs';
import { ARTIFACTS, pageSettled, seedPages, usePageAs } from '../harness/pages.mjs';

const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
];
const SCREENS = path.join(ARTIFACTS, 'screens');

/** Sideways overflow of the page and the controls of <main> that stick out of the screen. */
function overflow() {
  const width = document.documentElement.clientWidth;
  const scrollsOnItsOwn = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if ((o === 'auto' || o === 'scroll') && p.scrollWidth > p.clientWidth) return true;
    }
    return false;
  };
  const outside = [];
  for (const el of document.querySelectorAll('main button, main a[href], main input, main select, main textarea')) {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || getComputedStyle(el).visibility === 'hidden') continue;
    if (scrollsOnItsOwn(el)) continue;
    if (r.left < -1 || r.right > width + 1) {
      outside.push(`${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') || el.textContent).trim()}"`);
    }
  }
  return { scrollWidth: document.documentElement.scrollWidth, width, outside };
}

let world;
test.beforeAll(async ({ stack }) => {
  test.setTimeout(300_000);
  world = await seedPages(stack);
});

for (const { name: size, viewport } of SIZES) {
  test.describe(`at ${size} size`, () => {
    test.use({ viewport, locale: 'en-US', timezoneId: 'UTC' });

    /** Checks the page as it is now and saves its screenshot; `primary` must be reachable. */
    async function walkStep(page, name, primary) {
      await pageSettled(page);
      const { scrollWidth, width, outside } = await page.evaluate(overflow);
      expect(scrollWidth, `${name} scrolls sideways at ${size} size`).toBeLessThanOrEqual(width);
      expect(outside, `${name}: controls outside the screen at ${size} size`).toEqual([]);
      if (primary) {
        await primary.scrollIntoViewIfNeeded();
        await expect(primary).toBeInViewport();
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      fs.mkdirSync(SCREENS, { recursive: true });
      const file = path.join(SCREENS, `${size}-${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      expect(fs.statSync(file).size).toBeGreaterThan(0);
    }

    test(`the main pages fit the screen at ${size} size`, async ({ page, stack }) => {
      test.setTimeout(300_000);
      await usePageAs(page, stack, null);
      await page.goto('/');
      await walkStep(page, 'landing', page.getByRole('main').getByRole('link').first());

      await usePageAs(page, stack, world.seeker.c);
      await page.goto('/mentors');
      await walkStep(
        page,
        'mentors',
        page
          .getByRole('main')
          .getByRole('link', { name: /Orla Ops/ })
          .first(),
      );
      // On a phone the filters fold away behind a button (the first mentor is on the first screen).
      const moreFilters = page.locator('#mentor-more-filters');
      if (size === 'phone') {
        await expect(moreFilters).toBeHidden();
        await page.getByRole('button', { name: 'Filters', exact: true }).click();
        await expect(moreFilters).toBeVisible();
      } else {
        await expect(moreFilters).toBeVisible();
      }

      await page.goto(`/mentor/${world.mentor.mentor.id}`);
      await walkStep(page, 'mentor', page.getByRole('link', { name: `Book ${world.mentor.service.title}` }));

      await page.goto(`/booking/${world.mentor.service.id}`);
      await expect(page.getByRole('heading', { name: 'Choose a time' })).toBeVisible();
      await walkStep(page, 'booking', page.getByRole('button', { name: 'Continue to Payment' }));

      await page.goto('/dashboard');
      await walkStep(
        page,
        'dashboard',
        page.getByRole('list', { name: 'Upcoming sessions' }).getByRole('article').first(),
      );

      await page.goto(`/messages?mentor=${world.mentor.mentor.id}`);
      await expect(page.getByTestId('message').getByText('Hello, looking forward to our reading.')).toBeVisible();
      await walkStep(page, 'messages', page.getByRole('button', { name: 'Send' }));

      await page.goto(`/group-video-call/${world.ids['group-video-call:sessionId']}`);
      await walkStep(page, 'group-call', null);

      await usePageAs(page, stack, world.mentor.c);
      await page.goto('/mentor-dashboard');
      await walkStep(page, 'mentor-dashboard', null);

      await usePageAs(page, stack, world.admin.c);
      await page.goto('/admin');
      await walkStep(page, 'admin', null);
    });
  });
}

// Accessibility (issue 24): axe (WCAG 2.0/2.1 A and AA) over every route of the router, signed out,
// as a seeker, as a mentor and as an admin, with real ids for the routes' parameters; no violation
// of impact serious or critical may remain. Signed out, the signed-in routes redirect to /auth,
// which is scanned once. The report of a failure lists each violation with its pages and nodes.
import AxeBuilder from '@axe-core/playwright';
import { test, expect } from '../harness/fixtures.mjs';
import { concretePath, pageSettled, routerPaths, seedPages, usePageAs } from '../harness/pages.mjs';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING_IMPACTS = ['serious', 'critical'];

test.use({ locale: 'en-US', timezoneId: 'UTC', viewport: { width: 1280, height: 800 } });

/** Serious and critical violations of the page as it is now, one line per rule and node. */
async function violations(page) {
  const { violations: found } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return found
    .filter((v) => FAILING_IMPACTS.includes(v.impact))
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary}`));
}

let world;
const roles = [
  { role: 'signed out', client: () => null },
  { role: 'a seeker', client: () => world.seeker.c },
  { role: 'a mentor', client: () => world.mentor.c },
  { role: 'an admin', client: () => world.admin.c },
];

test.beforeAll(async ({ stack }) => {
  test.setTimeout(300_000);
  world = await seedPages(stack);
});

for (const { role, client } of roles) {
  test(`every route passes axe ${role}`, async ({ page, stack }) => {
    test.setTimeout(900_000);
    const routes = routerPaths();
    expect(routes.signedIn.length).toBeGreaterThan(10);
    const c = client();
    await usePageAs(page, stack, c);
    const report = [];
    const seen = new Set();
    for (const route of [...routes.public, ...routes.signedIn]) {
      const target = concretePath(route, world.ids);
      await page.goto(target);
      await pageSettled(page);
      const landed = new URL(page.url()).pathname;
      if (!c && routes.signedIn.includes(route) && route !== '/') expect(landed, `${target} signed out`).toBe('/auth');
      if (seen.has(landed)) continue;
      seen.add(landed);
      const found = await violations(page);
      // Printed as found, so a long scan shows its progress.
      for (const line of found) console.log(`[${role}] ${target}: ${line}`);
      report.push(...found.map((line) => `${target}: ${line}`));
    }
    expect(seen.size).toBeGreaterThan(c ? routes.signedIn.length : routes.public.length - 1);
    expect(report, `axe found serious or critical violations ${role}:\n${report.join('\n')}`).toEqual([]);
  });
}

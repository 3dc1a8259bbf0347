// Group sessions in the browser, against the real api (serving web/dist) and worker: a mentor with a
// paid group service creates a session in the Create Group Session dialog (the dialog's validation
// first); a seeker in another browser context finds it on /group-sessions (and from the mentor's
// page), joins it, pays on /group-booking/{id} and sees the 'Booked' badge. Screenshots:
// tests/artifacts/group-sessions-*.png.
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect, createVerifiedUser, signIn, show } from '../harness/fixtures.mjs';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
const shot = (page, name) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
const ZONE = 'UTC';

test.use({ timezoneId: ZONE, locale: 'en-US' });

/** A mentor (UTC, available all week) with a paid group service of 60 minutes. */
async function seedMentor(stack) {
  const user = await createVerifiedUser(stack, { firstName: 'Gaia', lastName: 'Circle' });
  const c = await signIn(stack, user);
  let res = await c.post('/api/mentors', {
    displayName: 'Gaia Circle',
    bio: 'Leads moon circles and group meditations for seekers who want to grow together on their path.',
    specialties: ['Meditation Guide'],
    basePrice: '30.00',
    timeZone: ZONE,
  });
  assert.equal(res.status, 201, show(res));
  const mentor = res.body;
  for (let day = 0; day <= 6; day += 1) {
    res = await c.post('/api/mentor/availability', { dayOfWeek: day, startTime: '00:00', endTime: '24:00' });
    assert.equal(res.status, 201, show(res));
  }
  res = await c.post('/api/services', {
    title: 'Moon Circle',
    description: 'A guided group meditation under the full moon, for up to twenty seekers.',
    serviceType: 'meditation',
    price: '30.00',
    duration: 60,
    isGroupSession: true,
    maxParticipants: 20,
  });
  assert.equal(res.status, 201, show(res));
  return { user, c, mentor, service: res.body };
}

async function signInPage(page, stack, user) {
  const c = await signIn(stack, user);
  await page.context().addCookies([
    { name: 'sid', value: c.cookies.sid, url: stack.baseUrl },
    { name: 'signed_in', value: '1', url: stack.baseUrl },
  ]);
}

/** 'YYYY-MM-DDTHH:mm' two days ahead at 18:00 UTC (the datetime-local value in the page's zone). */
function twoDaysAhead() {
  const d = new Date(Date.now() + 2 * 24 * 3600 * 1000);
  return `${d.toISOString().slice(0, 10)}T18:00`;
}

test('a mentor creates a group session; a seeker joins it, pays, and is booked', async ({ page, browser, stack }) => {
  test.setTimeout(120_000);
  const { user: mentorUser, mentor, service } = await seedMentor(stack);

  // --- The mentor: Create Group Session --------------------------------------------------------
  await signInPage(page, stack, mentorUser);
  await page.goto('/mentor-dashboard');
  await page.getByRole('tab', { name: 'Group Sessions' }).click();
  await expect(page.getByRole('heading', { name: 'No group sessions scheduled' })).toBeVisible();
  await page.getByRole('button', { name: 'Create Group Session' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Group Session' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Max Participants')).toHaveValue('4');
  // The mentor's only group service is chosen for them (issue 30).
  await expect(dialog.getByLabel('Service')).toHaveValue(service.id);
  await dialog.getByRole('button', { name: 'Create Session' }).click();
  await expect(dialog.getByText('Please select a service')).toHaveCount(0);
  await expect(dialog.getByText('Title is required')).toBeVisible();
  await expect(dialog.getByText('Please select a date and time')).toBeVisible();
  await dialog.getByLabel('Service').selectOption({ label: 'Moon Circle (60 min)' });
  await dialog.getByLabel('Title').fill('Full Moon Gathering');
  await dialog.getByLabel('Description').fill('We meditate together under the full moon.');
  await dialog.getByLabel('Date and Time').fill(twoDaysAhead());
  await dialog.getByLabel('Max Participants').fill('21');
  await dialog.getByRole('button', { name: 'Create Session' }).click();
  await expect(dialog.getByText('Max participants must be between 2 and 20')).toBeVisible();
  await dialog.getByLabel('Max Participants').fill('3');
  const created = page.waitForResponse(
    (r) => r.url().endsWith('/api/group-sessions') && r.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Create Session' }).click();
  const session = await (await created).json();
  expect(session.maxParticipants).toBe(3);
  expect(session.service.id).toBe(service.id);
  await expect(dialog).toBeHidden();
  const mine = page.getByRole('list', { name: 'Your group sessions' });
  await expect(mine.getByRole('heading', { name: 'Full Moon Gathering' })).toBeVisible();
  await expect(mine.getByText('0/3 participants')).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Cancel Session' })).toBeVisible();
  await shot(page, 'group-sessions-01-mentor-tab');

  // --- The seeker, in a browser of their own: the mentor's page leads to the sessions --------
  const seekerContext = await browser.newContext({ baseURL: stack.baseUrl, timezoneId: ZONE, locale: 'en-US' });
  try {
    const seekerPage = await seekerContext.newPage();
    const seeker = await createVerifiedUser(stack, { firstName: 'Orion', lastName: 'Seeker' });
    await signInPage(seekerPage, stack, seeker);
    await seekerPage.goto(`/mentor/${mentor.id}`);
    await seekerPage.getByRole('link', { name: 'Book Moon Circle' }).click();
    await expect(seekerPage).toHaveURL(new RegExp(`/group-sessions\\?mentor=${mentor.id}$`));
    const list = seekerPage.getByRole('list', { name: 'Group sessions' });
    const card = list
      .getByRole('listitem')
      .filter({ has: seekerPage.getByRole('heading', { name: 'Full Moon Gathering' }) });
    await expect(card.getByText('3 spots left')).toBeVisible();
    await expect(card.getByText('$30.00')).toBeVisible();
    await expect(card.getByText('0/3 participants')).toBeVisible();
    await shot(seekerPage, 'group-sessions-02-list');

    await card.getByRole('button', { name: 'Join Session' }).click();
    await expect(seekerPage).toHaveURL(/\/group-booking\/[0-9a-f-]{36}$/);
    await expect(seekerPage.getByRole('heading', { level: 1, name: 'Full Moon Gathering' })).toBeVisible();
    await expect(seekerPage.getByText(/Your seat is held until \d{1,2}:\d{2} (AM|PM)\./)).toBeVisible();
    await expect(seekerPage.getByText('1/3')).toBeVisible();
    await seekerPage.getByLabel('Card Number').pressSequentially('4111111111111111');
    await seekerPage.getByLabel('Expiry Date').pressSequentially('1230');
    await seekerPage.getByLabel('Security Code').fill('123');
    await seekerPage.getByLabel('First Name').fill('Orion');
    await seekerPage.getByLabel('Last Name').fill('Seeker');
    await seekerPage.getByLabel('ZIP Code').fill('10001');
    await shot(seekerPage, 'group-sessions-03-payment');
    const paid = seekerPage.waitForResponse((r) => r.url().endsWith('/api/process-payment-v2'));
    await seekerPage.getByRole('button', { name: /^Pay \$30\.00$/ }).click();
    expect((await (await paid).json()).success).toBe(true);
    await expect(seekerPage.getByText('Payment Successful!')).toBeVisible();
    await expect(seekerPage).toHaveURL(/\/dashboard$/);

    await seekerPage.goto('/group-sessions');
    const bookedCard = seekerPage
      .getByRole('list', { name: 'Group sessions' })
      .getByRole('listitem')
      .filter({ has: seekerPage.getByRole('heading', { name: 'Full Moon Gathering' }) });
    await expect(bookedCard.getByText('Booked', { exact: true })).toBeVisible();
    await expect(bookedCard.getByRole('button', { name: /^Session Starts 6:00 PM$/ })).toBeDisabled();
    await expect(bookedCard.getByText('1/3 participants')).toBeVisible();
    await shot(seekerPage, 'group-sessions-04-booked');
  } finally {
    await seekerContext.close();
  }

  // The mentor's card counts the paid seat.
  await page.reload();
  await page.getByRole('tab', { name: 'Group Sessions' }).click();
  await expect(page.getByRole('list', { name: 'Your group sessions' }).getByText('1/3 participants')).toBeVisible();
});

test('/group-sessions pages and filters its cards, and a mentor is not offered to report their own', async ({
  page,
  browser,
  stack,
}) => {
  test.setTimeout(120_000);
  const { user: mentorUser, c, service, mentor } = await seedMentor(stack);
  // This mentor's sessions only: other tests of this worker share the stack.
  const listPath = `/group-sessions?mentor=${mentor.id}`;
  const tarot = await c.post('/api/services', {
    title: 'Tarot Circle',
    description: 'We draw for the circle and read the cards together, a small group at a time.',
    serviceType: 'tarot',
    price: '10.00',
    duration: 60,
    isGroupSession: true,
    maxParticipants: 8,
  });
  assert.equal(tarot.status, 201, show(tarot));
  // 14 sessions a few hours apart from tomorrow; every fourth is a tarot circle.
  const base = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 24 * 3_600_000;
  for (let i = 0; i < 14; i += 1) {
    const isTarot = i % 4 === 3;
    const r = await c.post('/api/group-sessions', {
      serviceId: isTarot ? tarot.body.id : service.id,
      title: i === 5 ? 'Owl moon vigil' : `${isTarot ? 'Tarot' : 'Moon'} gathering ${i}`,
      scheduledAt: new Date(base + i * 3 * 3_600_000).toISOString(),
      maxParticipants: 4,
    });
    assert.equal(r.status, 201, show(r));
  }

  const seekerContext = await browser.newContext({ baseURL: stack.baseUrl, timezoneId: ZONE, locale: 'en-US' });
  try {
    const seekerPage = await seekerContext.newPage();
    await signInPage(seekerPage, stack, await createVerifiedUser(stack));
    await seekerPage.goto(listPath);
    const cards = seekerPage.getByRole('list', { name: 'Group sessions' }).getByRole('listitem');
    await expect(seekerPage.getByTestId('group-sessions-total')).toHaveText('14 sessions');
    await expect(cards).toHaveCount(12);
    // Every card of someone else's session can be reported.
    await expect(cards.getByRole('button', { name: 'Report this group session' })).toHaveCount(12);
    const pages = seekerPage.getByRole('navigation', { name: 'Pages' });
    await expect(pages.getByText('Page 1 of 2')).toBeVisible();
    await pages.getByRole('button', { name: /Next/ }).click();
    await expect(seekerPage).toHaveURL(/[?&]page=2/);
    await expect(cards).toHaveCount(2);
    await expect(pages.getByText('Page 2 of 2')).toBeVisible();
    await shot(seekerPage, 'group-sessions-05-second-page');

    // Filters: one service type (and a price) applied together; the page goes back to the first.
    const filters = seekerPage.getByRole('search', { name: 'Filter group sessions' });
    await filters.getByLabel('Service type').selectOption({ label: 'Tarot' });
    await filters.getByLabel('Max price ($)').fill('10');
    await filters.getByRole('button', { name: /Apply Filters/ }).click();
    await expect(seekerPage).toHaveURL(/service=tarot/);
    await expect(seekerPage).not.toHaveURL(/page=2/);
    await expect(seekerPage.getByTestId('group-sessions-total')).toHaveText('3 sessions');
    await expect(cards).toHaveCount(3);
    for (const title of await cards.getByRole('heading', { level: 3 }).allTextContents()) {
      expect(title).toMatch(/^Tarot gathering \d+$/);
    }
    // A search, and a filter that matches nothing says so with a way back.
    await filters.getByLabel('Service type').selectOption({ label: 'All types' });
    await filters.getByLabel('Max price ($)').fill('');
    await filters.getByLabel('Search').fill('owl vigil');
    await filters.getByRole('button', { name: /Apply Filters/ }).click();
    await expect(cards).toHaveCount(1);
    await expect(cards.getByRole('heading', { name: 'Owl moon vigil' })).toBeVisible();
    await filters.getByLabel('Search').fill('unicorns');
    await filters.getByRole('button', { name: /Apply Filters/ }).click();
    await expect(seekerPage.getByRole('heading', { name: 'No sessions match your filters' })).toBeVisible();
    await seekerPage.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(seekerPage.getByTestId('group-sessions-total')).toHaveText('14 sessions');
  } finally {
    await seekerContext.close();
  }

  // The mentor sees their own sessions with no 'Report this group session'.
  await signInPage(page, stack, mentorUser);
  await page.goto(listPath);
  const own = page.getByRole('list', { name: 'Group sessions' }).getByRole('listitem');
  await expect(own).toHaveCount(12);
  await expect(own.getByRole('button', { name: 'Report this group session' })).toHaveCount(0);
  await expect(own.first().getByRole('link', { name: /manage it on your dashboard/ })).toBeVisible();
});

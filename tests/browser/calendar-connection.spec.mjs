// Issue 33 §6: a mentor connects their own calendar (a private Radicale) on the dashboard's
// Calendar tab, and a slot that an event in it covers disappears from the booking page.
import assert from 'node:assert/strict';
import { test as base, expect } from '@playwright/test';
import { createVerifiedUser, signIn } from '../harness/accounts.mjs';
import { show } from '../harness/client.mjs';
import { startRadicale } from '../harness/radicale.mjs';
import { startStack } from '../harness/stack.mjs';

// A stack of its own: CalDAV addresses on this machine are allowed only for tests.
const test = base.extend({
  stack: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const stack = await startStack({ env: { CALDAV_ALLOW_LOCAL_URLS: 'true' } });
      try {
        await use(stack);
      } finally {
        await stack.stop();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ stack }, use) => {
    await use(stack.baseUrl);
  },
});

test.use({ locale: 'en-US', timezoneId: 'UTC' });

const DAY_MS = 86_400_000;
const NOTICE_MINUTES = 2 * 24 * 60;

/** The first Wednesday (UTC date) whose 10:00 is beyond the mentor's two days of notice. */
function firstBookableWednesday() {
  for (let t = Date.now(); ; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    if (new Date(t).getUTCDay() === 3 && Date.parse(`${day}T10:00:00Z`) > Date.now() + NOTICE_MINUTES * 60_000)
      return day;
  }
}

test('a mentor connects their calendar and its event takes a slot off the booking page', async ({ page, stack }) => {
  test.setTimeout(90_000);
  const cal = await startRadicale();
  try {
    await cal.makeCalendar('work', 'Work');
    const user = await createVerifiedUser(stack);
    const c = await signIn(stack, user);
    const m = await c.post('/api/mentors', {
      displayName: 'Cora Calendar',
      bio: 'Keeps a real calendar beside this one, for the browser test of the calendar connection.',
      specialties: ['Astrology'],
      basePrice: '40.00',
      timeZone: 'UTC',
      minimumNoticeMinutes: NOTICE_MINUTES,
    });
    assert.equal(m.status, 201, show(m));
    const a = await c.post('/api/mentor/availability', { dayOfWeek: 3, startTime: '10:00', endTime: '12:00' });
    assert.equal(a.status, 201, show(a));
    const s = await c.post('/api/services', {
      title: 'Wednesday chart',
      description: 'A sixty-minute chart reading on a Wednesday morning.',
      serviceType: 'astrology',
      price: '40.00',
      duration: 60,
    });
    assert.equal(s.status, 201, show(s));

    const wednesday = firstBookableWednesday();
    const stamp = (hh) => `${wednesday.replaceAll('-', '')}T${hh}0000Z`;
    await cal.put(
      'work',
      'dentist.ics',
      `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//browser test//EN\r\nBEGIN:VEVENT\r\nUID:dentist\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:${stamp('10')}\r\nDTEND:${stamp('11')}\r\nSUMMARY:Dentist\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`,
    );

    // Signed in as `who` (a harness client) in the page's browser context.
    const as = async (who) => {
      await page.context().clearCookies();
      await page.context().addCookies([
        { name: 'sid', value: who.cookies.sid, url: stack.baseUrl },
        { name: 'signed_in', value: '1', url: stack.baseUrl },
      ]);
    };
    const seeker = await signIn(stack, await createVerifiedUser(stack));

    // Before: the booking page offers the three starts of the morning.
    await as(seeker);
    const times = page.getByRole('radiogroup', { name: 'Available times' });
    await page.goto(`/booking/${s.body.id}`);
    await expect(page.locator(`[data-day="${wednesday}"] button`)).toHaveAccessibleName(/selected$/);
    await expect(times.getByRole('radio')).toHaveText(['10:00 AM', '10:30 AM', '11:00 AM']);

    // The mentor connects the calendar on the Calendar tab.
    await as(c);
    await page.goto('/mentor-dashboard');
    await page.getByRole('tab', { name: 'Calendar' }).click();
    await page.getByLabel('CalDAV Address').fill(cal.url);
    await page.getByLabel('User Name').fill(cal.user);
    await page.getByLabel('App Password').fill(cal.password);
    await page.getByRole('button', { name: 'Connect Calendar' }).click();
    await expect(page.getByText('Work', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('calendar-state')).toHaveText('Connected', { timeout: 30_000 });
    await expect(page.getByRole('switch', { name: 'Blocks slots' })).toBeChecked();

    // After: the starts the dentist covers are gone.
    await as(seeker);
    await page.goto(`/booking/${s.body.id}`);
    await expect(page.locator(`[data-day="${wednesday}"] button`)).toHaveAccessibleName(/selected$/);
    await expect(times.getByRole('radio')).toHaveText(['11:00 AM']);
  } finally {
    await cal.stop();
  }
});

// Keyboard alone (issue 24): a seeker goes from a mentor's page to a paid booking without the mouse
// (Tab, Shift+Tab, arrows, Enter, Space and typing only), every control reached shows a visible focus
// indicator, and a dialog (the site menu) takes the focus and gives it back to its button on Escape.
import { test, expect, createVerifiedUser, signIn } from '../harness/fixtures.mjs';
import { APPROVED_CARD, bookableMentor } from '../harness/booking.mjs';
import { pageSettled, usePageAs } from '../harness/pages.mjs';

// Below the header's wide layout, so the site menu is a dialog behind a button.
test.use({ locale: 'en-US', timezoneId: 'UTC', viewport: { width: 1024, height: 768 } });

// No control is further than this many Tab presses from the one before it.
const MAX_TABS = 120;

const isFocused = (locator) =>
  locator.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));

/** Presses Tab until `locator` has the focus; fails after MAX_TABS presses. */
async function tabTo(page, locator, what) {
  for (let i = 0; i < MAX_TABS; i += 1) {
    if ((await locator.count()) > 0 && (await isFocused(locator.first()))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${what} not reached within ${MAX_TABS} Tab presses`);
}

/** The focused element draws a focus indicator: an outline or a ring (box shadow). */
async function expectVisibleFocus(page, what) {
  const style = await page.evaluate(() => {
    const s = getComputedStyle(document.activeElement);
    return { outline: s.outlineStyle, width: s.outlineWidth, shadow: s.boxShadow };
  });
  const outlined = style.outline !== 'none' && style.width !== '0px';
  expect(outlined || style.shadow !== 'none', `${what} shows no focus (${JSON.stringify(style)})`).toBe(true);
}

async function tabAndCheck(page, locator, what) {
  await tabTo(page, locator, what);
  await expectVisibleFocus(page, what);
}

test('a seeker books and pays with the keyboard alone; focus is visible and returns after a dialog', async ({
  page,
  stack,
}) => {
  test.setTimeout(180_000);
  const mentor = await bookableMentor(stack);
  const seekerUser = await createVerifiedUser(stack, { firstName: 'Kim', lastName: 'Keys' });
  const seeker = await signIn(stack, seekerUser);
  await usePageAs(page, stack, seeker);
  await page.goto(`/mentor/${mentor.mentor.id}`);
  await pageSettled(page);

  // The site menu: a dialog that takes the focus and gives it back on Escape.
  const menuButton = page.getByRole('button', { name: 'Open menu' });
  await tabAndCheck(page, menuButton, 'the menu button');
  await page.keyboard.press('Enter');
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu).toBeVisible();
  expect(await isFocused(menu)).toBe(true);
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  expect(await isFocused(menuButton)).toBe(true);

  // Mentor page -> booking page.
  await tabAndCheck(page, page.getByRole('link', { name: `Book ${mentor.service.title}` }), 'the Book Now link');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/booking/${mentor.service.id}`));
  await expect(page.getByRole('heading', { name: 'Choose a time' })).toBeVisible();

  // The calendar: Tab into it, the arrow moves to tomorrow, Enter picks it.
  const calendar = page.locator('[data-day] button');
  await expect(calendar.first()).toBeVisible();
  await tabTo(page, page.getByRole('grid').first(), 'the days of the calendar');
  await expectVisibleFocus(page, 'a calendar day');
  await page.keyboard.press('ArrowRight');
  await expectVisibleFocus(page, 'tomorrow in the calendar');
  await page.keyboard.press('Enter');
  const times = page.getByRole('radiogroup', { name: 'Available times' });
  await expect(times.getByRole('radio').first()).toBeVisible();
  const first = times.getByRole('radio').first();
  await tabAndCheck(page, first, 'the first free time');
  await page.keyboard.press('Space');
  await expect(first).toHaveAttribute('aria-checked', 'true');

  await tabAndCheck(page, page.getByRole('button', { name: 'Continue to Payment' }), 'Continue to Payment');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Payment' })).toBeVisible();

  // The card form, typed field by field.
  const fields = [
    ['Card Number', APPROVED_CARD],
    ['Expiry Date', '1230'],
    ['Security Code', '123'],
    ['First Name', 'Kim'],
    ['Last Name', 'Keys'],
    ['ZIP Code', '10001'],
  ];
  for (const [label, value] of fields) {
    await tabAndCheck(page, page.getByLabel(label, { exact: true }), label);
    await page.keyboard.type(value);
  }
  const pay = page.getByRole('button', { name: /^Pay \$/ });
  await expect(pay).toBeEnabled();
  await tabAndCheck(page, pay, 'the Pay button');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Payment Successful!')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(
    page.getByRole('list', { name: 'Upcoming sessions' }).getByRole('article', { name: /^Hour reading, / }),
  ).toBeVisible();
});

// A visitor who is not signed in browses a mentor's page, sees the honest 'From' price (the
// cheapest service, not the base price), is asked to sign in on 'Book Now' and lands back on that
// service's booking page after signing in. The mentor's page comes with the mentor in it.
import { test, expect, createVerifiedUser } from '../harness/fixtures.mjs';
import { bookableMentor } from '../harness/booking.mjs';
import { show } from '../harness/client.mjs';

test('a signed-out visitor browses, is asked to sign in to book, and comes back to the booking page', async ({
  page,
  stack,
}) => {
  test.setTimeout(90_000);
  const { c, mentor, service } = await bookableMentor(stack, { price: '30.00' });
  const cheaper = await c.post('/api/services', {
    title: 'Short question',
    description: 'Fifteen minutes for one clear question about your path.',
    serviceType: 'astrology',
    price: '12.00',
    duration: 15,
  });
  expect(cheaper.status, show(cheaper)).toBe(201);

  // The api writes the mentor into the page, and the app starts from it without asking again.
  const asked = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === `/api/mentors/${mentor.id}`) asked.push(r.url());
  });
  await page.goto(`/mentor/${mentor.id}`);
  await expect(page.getByRole('heading', { level: 1, name: mentor.displayName })).toBeVisible();
  await expect(page.getByText('From $12.00').first()).toBeVisible();
  expect(asked).toEqual([]);
  await expect(page.getByText('Usually responds within 2 hours')).toHaveCount(0);

  await page.getByRole('link', { name: `Book ${service.title}` }).click();
  await expect(page).toHaveURL(new RegExp(`/auth\\?next=${encodeURIComponent(`/booking/${service.id}`)}$`));

  const seeker = await createVerifiedUser(stack);
  await page.getByLabel('Email').fill(seeker.email);
  await page.getByLabel('Password').fill(seeker.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(new RegExp(`/booking/${service.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: service.title })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Cancellation policy' })).toBeVisible();
});

import { screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppRoutes, PUBLIC_ROUTES, SIGNED_IN_ROUTES, preloadPage } from '@/app/routes';
import { clientWithUser, mockFetch, renderWithProviders } from '@/testing/test-utils';

// Every page is a chunk of its own; loading them all once here keeps each test's wait for its page
// short on a busy machine (the loading path itself is the same).
beforeAll(async () => {
  await Promise.all([...PUBLIC_ROUTES, ...SIGNED_IN_ROUTES].map((r) => r.page.preload()));
  await preloadPage('/', false);
}, 120_000);

afterEach(() => vi.unstubAllGlobals());

describe('static pages and /contact are public', () => {
  it.each([
    ['/terms-of-service', 'Terms of Service'],
    ['/privacy-policy', 'Privacy Policy'],
    ['/help-center', 'Help Center'],
    ['/community-guidelines', 'Community Guidelines'],
    ['/contact', 'Contact Us'],
  ])('%s opens signed out', async (path, title) => {
    mockFetch();
    renderWithProviders(<AppRoutes />, { client: clientWithUser(null), path });
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign In' })).not.toBeInTheDocument();
  });
});

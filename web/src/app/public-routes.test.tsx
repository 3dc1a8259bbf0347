import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '@/app/routes';
import { clientWithUser, mockFetch, renderWithProviders } from '@/testing/test-utils';

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

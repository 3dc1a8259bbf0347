import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SERVICE_LABELS, SERVICE_TYPES } from '@/lib/services';
import { clientWithUser, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { Footer } from './footer';

afterEach(() => vi.unstubAllGlobals());

describe('Footer', () => {
  it.each([
    ['a visitor', null],
    ['a signed-in user', testUser],
  ])("sends %s from each service to the public catalogue's filter", (_who, user) => {
    mockFetch();
    renderWithProviders(<Footer />, { client: clientWithUser(user) });
    const services = within(screen.getByRole('heading', { name: 'Services' }).parentElement as HTMLElement);
    for (const type of SERVICE_TYPES) {
      expect(services.getByRole('link', { name: SERVICE_LABELS[type] })).toHaveAttribute(
        'href',
        `/mentors?service=${type}`,
      );
    }
  });
});

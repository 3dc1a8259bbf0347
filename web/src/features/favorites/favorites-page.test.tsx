import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mentor, MENTOR_ID, SERVICE_ID } from '@/testing/catalogue-fixtures';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { FavoritesPage } from './favorites-page';

afterEach(() => vi.unstubAllGlobals());

const render = () => renderWithProviders(<FavoritesPage />, { client: clientWithUser(testUser), path: '/favorites' });

describe('/favorites', { timeout: 20_000 }, () => {
  it('shows each favourite with stars, two specialties, bio, price, View Profile and Book', async () => {
    mockFetch({
      'GET /api/user/favorites': () => jsonResponse(200, [mentor({ rating: undefined as unknown as string })]),
    });
    render();
    const list = await screen.findByRole('list', { name: 'Favorite mentors' });
    const card = within(list).getAllByRole('listitem')[0];
    expect(within(card).getByRole('heading', { name: 'Luna Starweaver' })).toBeInTheDocument();
    // No rating at all: the default of 5.
    expect(within(card).getByRole('img', { name: 'Rated 5.0 out of 5' })).toBeInTheDocument();
    expect(within(card).getByText('Astrology')).toBeInTheDocument();
    expect(within(card).getByText('Tarot Reading')).toBeInTheDocument();
    expect(within(card).queryByText('Numerology')).not.toBeInTheDocument();
    expect(within(card).getByText(/read the stars for twenty years/)).toBeInTheDocument();
    expect(within(card).getByText(/Starting from/)).toHaveTextContent('Starting from $50.00');
    expect(within(card).getByRole('link', { name: /View Profile/ })).toHaveAttribute('href', `/mentor/${MENTOR_ID}`);
    expect(within(card).getByRole('link', { name: /Book/ })).toHaveAttribute('href', `/booking/${SERVICE_ID}`);
  });

  it("shows 'No Favorite Mentors Yet' with 'Browse Mentors'", async () => {
    mockFetch({ 'GET /api/user/favorites': () => jsonResponse(200, []) });
    render();
    expect(await screen.findByRole('heading', { name: 'No Favorite Mentors Yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse Mentors' })).toHaveAttribute('href', '/mentors');
  });

  it("shows 'Unable to Load Favorites' with a Retry that loads again", async () => {
    let fail = true;
    mockFetch({
      'GET /api/user/favorites': () => (fail ? jsonResponse(500, { message: 'boom' }) : jsonResponse(200, [mentor()])),
    });
    render();
    expect(await screen.findByRole('heading', { name: 'Unable to Load Favorites' })).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Luna Starweaver' })).toBeInTheDocument();
  });
});

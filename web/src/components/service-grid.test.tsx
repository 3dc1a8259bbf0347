import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STATS } from '@/testing/catalogue-fixtures';
import { jsonResponse, mockFetch, renderWithProviders } from '@/testing/test-utils';
import { mentorCountText, ServiceGrid } from './service-grid';

afterEach(() => vi.unstubAllGlobals());

function card(name: string) {
  return screen.getByRole('link', { name: new RegExp(`^${name}`) });
}

describe('service grid', () => {
  it('counts mentors', () => {
    expect(mentorCountText(0)).toBe('No mentors yet');
    expect(mentorCountText(undefined)).toBe('No mentors yet');
    expect(mentorCountText(1)).toBe('1 mentor');
    expect(mentorCountText(5)).toBe('5 mentors');
  });

  it("shows 'From $X' or 'Coming Soon' and the mentor count from GET /api/service-stats", async () => {
    mockFetch({ 'GET /api/service-stats': () => jsonResponse(200, STATS) });
    renderWithProviders(<ServiceGrid />);
    expect(await screen.findByText('From $25.00')).toBeInTheDocument();
    expect(within(card('Astrology')).getByText('3 mentors')).toBeInTheDocument();
    expect(within(card('Tarot')).getByText('From $40.00')).toBeInTheDocument();
    expect(within(card('Tarot')).getByText('1 mentor')).toBeInTheDocument();
    expect(within(card('Energy Healing')).getByText('Coming Soon')).toBeInTheDocument();
    expect(within(card('Energy Healing')).getByText('No mentors yet')).toBeInTheDocument();
    expect(within(card('Mystical Practices')).getByText('Coming Soon')).toBeInTheDocument();
    expect(within(card('Meditation')).getByText('From $19.99')).toBeInTheDocument();
  });

  it('links to /mentors?service={type}, signed in or out (visitors browse the catalogue)', async () => {
    mockFetch({ 'GET /api/service-stats': () => jsonResponse(200, STATS) });
    renderWithProviders(<ServiceGrid />);
    expect(card('Energy Healing')).toHaveAttribute('href', '/mentors?service=energy_healing');
  });

  it('says so when the statistics cannot be loaded, without inventing prices', async () => {
    mockFetch({ 'GET /api/service-stats': () => jsonResponse(500, { message: 'boom' }) });
    renderWithProviders(<ServiceGrid />);
    expect(await screen.findByText('Prices and mentor counts are unavailable right now.')).toBeInTheDocument();
    expect(screen.queryByText('Coming Soon')).not.toBeInTheDocument();
  });
});

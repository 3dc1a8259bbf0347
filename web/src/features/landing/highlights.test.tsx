import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/testing/test-utils';
import { PlatformFigures, Testimonials, highlightStats } from './highlights';

const base = {
  mentorCount: 26,
  averageHourlyRate: '64.50',
  averageRating: '4.63',
  reviewCount: 77,
  completedSessions: 77,
  testimonials: [],
};

describe('landing highlights', () => {
  it('shows only figures computed from the catalogue', () => {
    expect(highlightStats(base)).toEqual([
      { label: 'Mentors', value: '26' },
      { label: 'Average hourly rate', value: '$64.50' },
      { label: 'Average rating (77 reviews)', value: '4.6' },
    ]);
    expect(
      highlightStats({ ...base, mentorCount: 0, averageHourlyRate: null, averageRating: null, reviewCount: 0 }),
    ).toEqual([]);
    expect(highlightStats(undefined)).toEqual([]);
  });

  it('quotes real reviews, and shows nothing before the first', () => {
    const { unmount } = renderWithProviders(<Testimonials testimonials={[]} />);
    expect(screen.queryByText('Stories from our community')).not.toBeInTheDocument();
    unmount();
    renderWithProviders(
      <Testimonials
        testimonials={[
          {
            id: '1',
            rating: 5,
            comment: 'Clear and kind.',
            reviewerName: 'Sam K.',
            mentorId: 'm1',
            mentorName: 'Luna Starling',
            createdAt: '2026-11-01T10:00:00Z',
          },
        ]}
      />,
    );
    expect(screen.getByText('“Clear and kind.”')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Luna Starling' })).toHaveAttribute('href', '/mentor/m1');
  });

  it("keeps the figures' box while they load, hidden, so the hero does not grow when they arrive", () => {
    const { container, unmount } = renderWithProviders(<PlatformFigures stats={undefined} />);
    const box = container.querySelector('dl');
    expect(box).toHaveClass('invisible');
    expect(box).toHaveAttribute('aria-hidden', 'true');
    expect(box?.querySelectorAll('dt')).toHaveLength(3);
    unmount();
    renderWithProviders(<PlatformFigures stats={highlightStats(base)} />);
    expect(screen.getByText('Average hourly rate')).toBeVisible();
    expect(screen.getByText('$64.50')).toBeInTheDocument();
  });
});

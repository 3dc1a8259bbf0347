import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { filledStars, RatingStars, ratingValue } from './rating-stars';

describe('rating stars', () => {
  it('defaults to 5 only when there is no rating at all', () => {
    expect(ratingValue(undefined)).toBe(5);
    expect(ratingValue(null)).toBe(5);
    expect(ratingValue('')).toBe(5);
    expect(ratingValue('4.80')).toBe(4.8);
    expect(ratingValue('0.00')).toBe(0);
    expect(filledStars('4.80')).toBe(5);
    expect(filledStars('4.20')).toBe(4);
  });

  it('names the rating and the review count', () => {
    render(<RatingStars rating="4.80" reviewCount={12} />);
    expect(screen.getByRole('img', { name: 'Rated 4.8 out of 5' })).toBeInTheDocument();
    expect(screen.getByText(/12 reviews/)).toBeInTheDocument();
  });

  it("says 'No reviews yet' for a new mentor", () => {
    render(<RatingStars rating="0.00" reviewCount={0} />);
    expect(screen.getByText('No reviews yet')).toBeInTheDocument();
  });
});

import { describe, expect, it } from 'vitest';
import { formatUsd, fromPriceText, isFree, minPriceText, normalizePrice, servicePriceText } from './money';

describe('money', () => {
  it('formats USD with two decimals and thousands separators', () => {
    expect(formatUsd('50.00')).toBe('$50.00');
    expect(formatUsd('7.5')).toBe('$7.50');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd('not money')).toBe('$0.00');
    expect(formatUsd(null)).toBe('$0.00');
  });

  it("shows 'Free' for a price of 0", () => {
    expect(servicePriceText('0.00')).toBe('Free');
    expect(servicePriceText(0)).toBe('Free');
    expect(servicePriceText('25.00')).toBe('$25.00');
    expect(isFree('0')).toBe(true);
    expect(isFree('')).toBe(false);
  });

  it("a mentor's 'From' price: the cheapest service, 'Free' for a free one, nothing without services", () => {
    expect(fromPriceText('48.00')).toBe('From $48.00');
    expect(fromPriceText('0.00')).toBe('Free');
    expect(fromPriceText(null)).toBeNull();
  });

  it("service grid: 'From $X', or 'Coming Soon' when the lowest price is 0", () => {
    expect(minPriceText('25.00')).toBe('From $25.00');
    expect(minPriceText('19.99')).toBe('From $19.99');
    expect(minPriceText('0.00')).toBe('Coming Soon');
    expect(minPriceText(0)).toBe('Coming Soon');
    expect(minPriceText(undefined)).toBe('Coming Soon');
  });

  it('normalises typed prices to the api form, refusing the rest', () => {
    expect(normalizePrice('50')).toBe('50.00');
    expect(normalizePrice(' 49.9 ')).toBe('49.90');
    expect(normalizePrice('0')).toBe('0.00');
    expect(normalizePrice('.5')).toBe('0.50');
    expect(normalizePrice('-1')).toBeNull();
    expect(normalizePrice('1.234')).toBeNull();
    expect(normalizePrice('abc')).toBeNull();
    expect(normalizePrice('')).toBeNull();
  });
});

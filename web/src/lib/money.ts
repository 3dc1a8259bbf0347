/**
 * Money as the catalogue sends it: decimal strings with two places ('50.00'), in USD.
 * A price of '0.00' means free.
 */

/** The amount as a number, or NaN when it is not one. */
export function amount(value: string | number | null | undefined): number {
  if (value === null || value === undefined) return Number.NaN;
  if (typeof value === 'number') return value;
  const trimmed = value.trim();
  return trimmed === '' ? Number.NaN : Number(trimmed);
}

/** '$50.00'; an unreadable amount shows as '$0.00' rather than '$NaN'. */
export function formatUsd(value: string | number | null | undefined): string {
  const n = amount(value);
  const safe = Number.isFinite(n) ? n : 0;
  return `$${safe.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

export function isFree(price: string | number | null | undefined): boolean {
  return amount(price) === 0;
}

/** A service's price: 'Free' for 0, otherwise '$25.00'. */
export function servicePriceText(price: string | number | null | undefined): string {
  return isFree(price) ? 'Free' : formatUsd(price);
}

/**
 * A mentor's starting price, from their cheapest active service: 'From $48.00', 'Free' when a
 * service is free, null when they offer none (then nothing is shown).
 */
export function fromPriceText(fromPrice: string | number | null | undefined): string | null {
  const n = amount(fromPrice);
  if (!Number.isFinite(n)) return null;
  return n === 0 ? 'Free' : `From ${formatUsd(n)}`;
}

/** Service grid: 'From $25.00', or 'Coming Soon' when the lowest price is 0 (or unknown). */
export function minPriceText(minPrice: string | number | null | undefined): string {
  const n = amount(minPrice);
  if (!Number.isFinite(n) || n <= 0) return 'Coming Soon';
  return `From ${formatUsd(n)}`;
}

/**
 * A price typed into a form, as the api wants it ('50.00'), or null when it is not an amount
 * of at least 0 with at most two decimals.
 */
export function normalizePrice(input: string): string | null {
  const trimmed = input.trim();
  if (!/^\d+(\.\d{1,2})?$|^\.\d{1,2}$/.test(trimmed)) return null;
  return Number(trimmed).toFixed(2);
}

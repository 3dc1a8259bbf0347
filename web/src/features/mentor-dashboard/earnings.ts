/**
 * The earnings card's arithmetic (02 §1, §9): the platform keeps {@link PLATFORM_FEE_PERCENT}% of
 * a mentor's earnings; the mentor's net is what remains. Worked in whole cents so that the fee and
 * the net always add up to the total: the fee is rounded to the nearest cent (half a cent up) and
 * the net is the rest.
 */
import { PLATFORM_FEE_PERCENT } from '@/config/constants';
import { amount } from '@/lib/money';

export type EarningsBreakdown = { totalCents: number; feeCents: number; netCents: number };

/** '12.34' -> 1234; an unreadable or negative amount counts as 0. */
export function toCents(value: string | number | null | undefined): number {
  const n = amount(value);
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.round(n * 100);
}

/** The platform's fee on an amount of cents, to the nearest cent. */
export function platformFeeCents(totalCents: number, feePercent: number = PLATFORM_FEE_PERCENT): number {
  return Math.round((totalCents * feePercent) / 100);
}

/** Total, fee and net (total minus fee), in cents. */
export function earningsBreakdown(total: string | number | null | undefined, feePercent: number = PLATFORM_FEE_PERCENT): EarningsBreakdown {
  const totalCents = toCents(total);
  const feeCents = platformFeeCents(totalCents, feePercent);
  return { totalCents, feeCents, netCents: totalCents - feeCents };
}

/** Cents as the api writes amounts: 1234 -> '12.34'. */
export function centsToAmount(cents: number): string {
  return (cents / 100).toFixed(2);
}

import { format } from 'date-fns';

type Named = { firstName?: string | null; lastName?: string | null };

/** First and last name; 'Unnamed member' when both are missing. */
export function fullName(user: Named): string {
  const name = [user.firstName, user.lastName]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  return name || 'Unnamed member';
}

export function initials(user: Named & { email?: string | null }): string {
  const letters = [user.firstName, user.lastName].map((part) => part?.trim().charAt(0) ?? '').join('');
  return (letters || user.email?.charAt(0) || '?').toUpperCase();
}

/** Role labels Administrator, Mentor, Member. */
export function roleLabel(user: {
  role?: string | null;
  isAdmin?: boolean | null;
}): 'Administrator' | 'Mentor' | 'Member' {
  if (user.isAdmin === true || user.role === 'admin') return 'Administrator';
  if (user.role === 'mentor') return 'Mentor';
  return 'Member';
}

/** Member since: month and year, e.g. 'January 2025'. */
export function memberSince(createdAt: string): string {
  return format(new Date(createdAt), 'MMMM yyyy');
}

/** A mentor rating ('4.80') with one decimal; null when there are no reviews yet. */
export function ratingText(rating: string | number | null | undefined, reviewCount?: number): string | null {
  const value = Number(rating);
  if (reviewCount === 0 || !Number.isFinite(value) || value <= 0) return null;
  return value.toFixed(1);
}

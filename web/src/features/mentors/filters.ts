/**
 * The /mentors filters and the query string: ?service= (?type= from the client
 * dashboard's quick links is read too), ?search=, ?minPrice=, ?maxPrice=, ?minRating=, ?sort=
 * and ?page=. Unknown or malformed values are ignored, so a hand-edited address never turns
 * into a failed load.
 */
import type { MentorSearch, MentorSort } from '@/lib/catalogue';
import { isServiceType, type ServiceType } from '@/lib/services';

export const MENTORS_PAGE_SIZE = 12;
export const SEARCH_DEBOUNCE_MS = 300;
/** A price typed into a filter box applies this long after the last keystroke (Enter: at once). */
export const PRICE_DEBOUNCE_MS = 400;

export type MentorFilters = {
  service?: ServiceType;
  search: string;
  minPrice?: number;
  maxPrice?: number;
  minRating?: number;
  sort?: MentorSort;
  page: number;
  /** ?availableNow=true: only mentors online for a reading now. */
  availableNow?: boolean;
};

export const SORT_OPTIONS: { value: MentorSort; label: string }[] = [
  { value: 'relevance', label: 'Best match' },
  { value: 'rating', label: 'Top rated' },
  { value: 'price', label: 'Lowest price' },
  { value: 'sessions', label: 'Most sessions' },
];

export const RATING_OPTIONS: { value: number; label: string }[] = [
  { value: 3, label: '3+ stars' },
  { value: 4, label: '4+ stars' },
  { value: 4.5, label: '4.5+ stars' },
];

const SORTS: readonly string[] = SORT_OPTIONS.map((o) => o.value);

function nonNegative(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

export function readFilters(params: URLSearchParams): MentorFilters {
  const service = params.get('service') ?? params.get('type');
  const rating = nonNegative(params.get('minRating'));
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  return {
    service: isServiceType(service) ? service : undefined,
    search: (params.get('search') ?? '').trim(),
    minPrice: nonNegative(params.get('minPrice')),
    maxPrice: nonNegative(params.get('maxPrice')),
    minRating: rating !== undefined && rating <= 5 ? rating : undefined,
    sort: sort && SORTS.includes(sort) ? (sort as MentorSort) : undefined,
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    ...(params.get('availableNow') === 'true' ? { availableNow: true } : {}),
  };
}

/**
 * The query string after changing some filters. Any change other than the page goes back to
 * page 1; empty values leave the address; ?type= becomes ?service=.
 */
export function withFilters(current: URLSearchParams, patch: Partial<MentorFilters>): URLSearchParams {
  const next = new URLSearchParams(current);
  if ('service' in patch) next.delete('type');
  const set = (key: string, value: string | number | undefined) => {
    if (value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
  };
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'page') continue;
    if (typeof value === 'boolean') {
      set(key, value ? 'true' : undefined);
      continue;
    }
    set(key, typeof value === 'string' ? value.trim() : (value as number | undefined));
  }
  const page = 'page' in patch ? patch.page : 1;
  set('page', page && page > 1 ? page : undefined);
  return next;
}

/** The api's parameters for the filters (docs/catalogue.md). */
export function toMentorSearch(filters: MentorFilters): MentorSearch {
  let { minPrice, maxPrice } = filters;
  if (minPrice !== undefined && maxPrice !== undefined && minPrice > maxPrice)
    [minPrice, maxPrice] = [maxPrice, minPrice];
  // 'relevance' ranks by a search term; without one the api's default (rating) applies.
  const sort = filters.sort === 'relevance' && !filters.search ? undefined : filters.sort;
  const params: MentorSearch = { page: filters.page, pageSize: MENTORS_PAGE_SIZE };
  if (filters.service) params.service = filters.service;
  if (filters.search) params.search = filters.search;
  if (minPrice !== undefined) params.minPrice = minPrice;
  if (maxPrice !== undefined) params.maxPrice = maxPrice;
  if (filters.minRating !== undefined) params.minRating = filters.minRating;
  if (sort) params.sort = sort;
  if (filters.availableNow) params.availableNow = true;
  return params;
}

export function hasActiveFilters(filters: MentorFilters): boolean {
  return (
    !!filters.service ||
    !!filters.search ||
    filters.minPrice !== undefined ||
    filters.maxPrice !== undefined ||
    filters.minRating !== undefined ||
    !!filters.availableNow
  );
}

export function pageCount(total: number, pageSize: number): number {
  if (!Number.isFinite(total) || total <= 0 || pageSize <= 0) return 1;
  return Math.ceil(total / pageSize);
}

export function resultCountText(total: number): string {
  return total === 1 ? '1 mentor found' : `${total} mentors found`;
}

/**
 * The /group-sessions filters and the query string: ?mentor=, ?service=, ?minPrice=, ?maxPrice=,
 * ?search=, ?from=, ?to= (days in the viewer's zone) and ?page=, the address a person can share.
 */
import type { ListGroupSessionsParams } from '@/api/model';
import { GROUP_SESSIONS_PAGE_SIZE } from '@/lib/group-sessions-api';
import { isServiceType, type ServiceType } from '@/lib/services';
import { browserTimeZone } from '@/lib/time-zones';

/** The filter bar's texts. */
export const GROUP_SESSIONS_FILTER_TEXT = {
  heading: 'Filter group sessions',
  service: 'Service type',
  allServices: 'All types',
  minPrice: 'Min price ($)',
  maxPrice: 'Max price ($)',
  from: 'From',
  to: 'To',
  search: 'Search',
  searchPlaceholder: 'Title, mentor or topic',
  apply: 'Apply Filters',
  clear: 'Clear Filters',
  noMatchTitle: 'No sessions match your filters',
  noMatchText: 'Try other dates, prices or words, or clear the filters to see every upcoming session.',
} as const;

export type GroupSessionFilters = {
  mentor?: string;
  service?: ServiceType;
  minPrice: string;
  maxPrice: string;
  search: string;
  /** YYYY-MM-DD */
  from: string;
  /** YYYY-MM-DD */
  to: string;
  page: number;
};

const PRICE = /^\d{1,9}(\.\d{1,2})?$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function filtersFrom(params: URLSearchParams): GroupSessionFilters {
  const service = params.get('service');
  const price = (name: string) => {
    const v = (params.get(name) ?? '').trim();
    return PRICE.test(v) ? v : '';
  };
  const day = (name: string) => {
    const v = (params.get(name) ?? '').trim();
    return DAY.test(v) ? v : '';
  };
  const page = Number(params.get('page'));
  return {
    mentor: params.get('mentor') || undefined,
    service: isServiceType(service) ? service : undefined,
    minPrice: price('minPrice'),
    maxPrice: price('maxPrice'),
    search: (params.get('search') ?? '').trim(),
    from: day('from'),
    to: day('to'),
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

/** The address of `filters` changed by `patch`: any change but the page's goes back to page 1. */
export function withFilters(params: URLSearchParams, patch: Partial<GroupSessionFilters>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || value === '' || (key === 'page' && value === 1)) next.delete(key);
    else next.set(key, String(value));
  }
  if (!('page' in patch)) next.delete('page');
  return next;
}

/** Whether anything narrows the list (beyond one mentor's sessions). */
export function isFiltered(f: GroupSessionFilters): boolean {
  return !!(f.service || f.minPrice || f.maxPrice || f.search || f.from || f.to);
}

/** The list call's parameters: days are read in the browser's zone. */
export function listParams(f: GroupSessionFilters, timeZone: string = browserTimeZone()): ListGroupSessionsParams {
  const params: ListGroupSessionsParams = { page: f.page, pageSize: GROUP_SESSIONS_PAGE_SIZE };
  if (f.mentor) params.mentor = f.mentor;
  if (f.service) params.service = f.service;
  if (f.minPrice) params.minPrice = f.minPrice;
  if (f.maxPrice) params.maxPrice = f.maxPrice;
  if (f.search) params.search = f.search;
  if (f.from || f.to) params.timeZone = timeZone;
  if (f.from) params.from = f.from;
  if (f.to) params.to = f.to;
  return params;
}

/** Pages of `pageSize` that `total` sessions fill (at least one). */
export function pageCount(total: number, pageSize: number = GROUP_SESSIONS_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

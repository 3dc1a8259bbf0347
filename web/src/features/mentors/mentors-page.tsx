import { ChevronLeft, ChevronRight, CircleAlert, RefreshCw, Search, SearchX, SlidersHorizontal } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { FavoriteButton, useFavoriteIds } from '@/components/favorite-button';
import { useUser } from '@/lib/auth';
import { MentorCard, MentorCardSkeleton } from '@/components/mentor-card';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select } from '@/components/ui/select';
import { MENTOR_SKELETON_COUNT } from '@/config/constants';
import { reloadPage } from '@/lib/navigation';
import { SERVICE_LABELS, SERVICE_TYPES, type ServiceType } from '@/lib/services';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import { useMentors } from './api';
import {
  hasActiveFilters,
  pageCount,
  PRICE_DEBOUNCE_MS,
  RATING_OPTIONS,
  readFilters,
  resultCountText,
  SEARCH_DEBOUNCE_MS,
  SORT_OPTIONS,
  toMentorSearch,
  withFilters,
  type MentorFilters,
} from './filters';

export function MentorsPage() {
  useDocumentTitle('Find Mentors');
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const query = useMentors(toMentorSearch(filters));
  const { user } = useUser();
  const favorites = useFavoriteIds(!!user);

  const location = useLocation();
  const update = (patch: Partial<MentorFilters>, { replace = false } = {}) => {
    // A search or price typed just before a card was clicked fires after its pause. The browser is
    // then at the mentor's address while this page still shows (the router renders the next page
    // in a transition, once its code has loaded); applying it would bring the visitor back here.
    if (leftFor(location.key)) return;
    setParams((current) => withFilters(current, patch), { replace });
  };

  const data = query.data;
  const pages = data ? pageCount(data.total, data.pageSize) : 1;
  // On a phone the service chips and the other filters fold behind one button, so the first
  // mentor shows on the first screen; from the `sm` breakpoint up they are always shown.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const folded = cn(!filtersOpen && 'hidden', 'sm:block');

  return (
    <div className="bg-slate-50/60">
      <section className="border-b border-slate-200/70 bg-gradient-to-br from-indigo-50 via-white to-violet-50">
        <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 sm:py-12 lg:px-8">
          <h1 className="font-display text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
            Find Your Mentor
          </h1>
          <p className="mt-2 max-w-2xl text-slate-600">
            Browse spiritual mentors by tradition, read their reviews and book a session that suits you.
          </p>
          <SearchBox value={filters.search} onSearch={(search) => update({ search }, { replace: true })} />
          <Button
            type="button"
            variant="outline"
            className="mt-4 sm:hidden"
            aria-expanded={filtersOpen}
            aria-controls="mentor-service-filter mentor-more-filters"
            onClick={() => setFiltersOpen((open) => !open)}
          >
            <SlidersHorizontal aria-hidden="true" className="h-4 w-4" />
            Filters
          </Button>
          <div id="mentor-service-filter" className={folded}>
            <ServiceChips value={filters.service} onChange={(service) => update({ service })} />
          </div>
        </div>
      </section>

      <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
        <div id="mentor-more-filters" className={folded}>
          <MoreFilters filters={filters} onChange={(patch, options) => update(patch, options)} />
        </div>

        <div className="flex min-h-6 items-center justify-between gap-3 sm:mt-6">
          <p aria-live="polite" className="text-sm text-slate-600">
            {data && !query.isError ? resultCountText(data.total) : ''}
          </p>
          {hasActiveFilters(filters) && (
            <Button variant="link" size="sm" onClick={() => setParams(new URLSearchParams())}>
              Clear filters
            </Button>
          )}
        </div>

        <div className="mt-4">
          {query.isError ? (
            <StateCard
              tone="error"
              icon={CircleAlert}
              title="Unable to Load Mentors"
              actions={
                <Button onClick={reloadPage}>
                  <RefreshCw aria-hidden="true" className="h-4 w-4" />
                  Retry
                </Button>
              }
            >
              Something went wrong while loading mentors. Please try again.
            </StateCard>
          ) : !data ? (
            <ul aria-busy="true" aria-label="Loading mentors" className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
              {Array.from({ length: MENTOR_SKELETON_COUNT }, (_, i) => (
                <li key={i}>
                  <MentorCardSkeleton />
                </li>
              ))}
            </ul>
          ) : data.mentors.length === 0 ? (
            <StateCard
              icon={SearchX}
              title="No Mentors Found"
              actions={
                hasActiveFilters(filters) ? (
                  <Button variant="outline" onClick={() => setParams(new URLSearchParams())}>
                    Clear filters
                  </Button>
                ) : undefined
              }
            >
              {hasActiveFilters(filters)
                ? 'No mentor matches these filters. Try another search or service.'
                : 'Our first mentors are joining soon. Please check back later.'}
            </StateCard>
          ) : (
            <ul
              aria-label="Mentors"
              aria-busy={query.isFetching}
              className={cn(
                'grid gap-5 sm:grid-cols-2 lg:grid-cols-3 transition-opacity',
                query.isPlaceholderData && 'opacity-60',
              )}
            >
              {data.mentors.map((mentor) => (
                <li key={mentor.id}>
                  <MentorCard
                    mentor={mentor}
                    to={`/mentor/${mentor.id}`}
                    headingLevel="h2"
                    action={
                      <FavoriteButton
                        mentorId={mentor.id}
                        mentorName={mentor.displayName}
                        isFavorited={favorites.ids.has(mentor.id)}
                      />
                    }
                  />
                </li>
              ))}
            </ul>
          )}
        </div>

        {data && !query.isError && pages > 1 && (
          <Pagination
            page={Math.min(filters.page, pages)}
            pages={pages}
            onPage={(page) => {
              update({ page });
              window.scrollTo({ top: 0 });
            }}
          />
        )}
      </div>
    </div>
  );
}

/** Whether the browser has moved on from the history entry `key` (the router's, in history.state). */
function leftFor(key: string): boolean {
  const current = (window.history.state as { key?: unknown } | null)?.key;
  return typeof current === 'string' && current !== key;
}

/** The search box: typing updates ?search= after a short pause; Enter applies at once. */
function SearchBox({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const [text, setText] = useState(value);
  const latest = useRef(onSearch);
  latest.current = onSearch;

  // The address changed elsewhere (back button, 'Clear filters'): show its term.
  // eslint-disable-next-line react-hooks/set-state-in-effect -- the box follows its value when that changes
  useEffect(() => setText(value), [value]);

  useEffect(() => {
    if (text.trim() === value) return;
    const timer = window.setTimeout(() => latest.current(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, value]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() !== value) onSearch(text.trim());
  };

  return (
    <form role="search" onSubmit={submit} className="mt-8 max-w-2xl">
      <Label htmlFor="mentor-search" className="sr-only">
        Search mentors
      </Label>
      <div className="relative">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute left-3.5 top-1/2 h-5 w-5 -translate-y-1/2 text-slate-400"
        />
        <Input
          id="mentor-search"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="Search by name, specialty or keyword"
          className="h-12 pl-11 text-base shadow-md shadow-indigo-100/60"
          autoComplete="off"
        />
      </div>
    </form>
  );
}

function ServiceChips({
  value,
  onChange,
}: {
  value?: ServiceType;
  onChange: (service: ServiceType | undefined) => void;
}) {
  const chip = (active: boolean) =>
    cn(
      'rounded-full px-4 py-2 text-sm font-medium transition-colors ring-1',
      active
        ? 'bg-indigo-600 text-white ring-indigo-600 shadow-sm'
        : 'bg-white text-slate-700 ring-slate-200 hover:bg-indigo-50 hover:text-indigo-700 hover:ring-indigo-200',
    );
  return (
    <div role="group" aria-label="Filter by service" className="mt-5 flex flex-wrap gap-2">
      <button type="button" aria-pressed={!value} className={chip(!value)} onClick={() => onChange(undefined)}>
        All Services
      </button>
      {SERVICE_TYPES.map((type) => (
        <button
          key={type}
          type="button"
          aria-pressed={value === type}
          className={chip(value === type)}
          onClick={() => onChange(value === type ? undefined : type)}
        >
          {SERVICE_LABELS[type]}
        </button>
      ))}
    </div>
  );
}

/**
 * A price typed into a box applies as it changes, [PRICE_DEBOUNCE_MS] after the last keystroke
 * (so the list follows the typing without a request per key), and at once on Enter or blur.
 */
function PriceInput({
  id,
  label,
  value,
  onCommit,
}: {
  id: string;
  label: string;
  value?: number;
  onCommit: (v?: number) => void;
}) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const latest = useRef(onCommit);
  latest.current = onCommit;
  // eslint-disable-next-line react-hooks/set-state-in-effect -- the box follows its value when that changes
  useEffect(() => setText(value === undefined ? '' : String(value)), [value]);
  const parsed = parsePrice(text);
  useEffect(() => {
    if (parsed === value) return;
    const timer = window.setTimeout(() => latest.current(parsed), PRICE_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [parsed, value]);
  const commit = () => {
    if (parsed !== value) onCommit(parsed);
    else setText(value === undefined ? '' : String(value));
  };
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="relative">
        <span
          aria-hidden="true"
          className="pointer-events-none absolute left-3 top-1/2 -translate-y-1/2 text-sm text-slate-500"
        >
          $
        </span>
        <Input
          id={id}
          type="number"
          inputMode="decimal"
          min={0}
          step="1"
          placeholder="Any"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              commit();
            }
          }}
          className="pl-7"
        />
      </div>
    </div>
  );
}

/** A box's text as a price filter: empty, negative or not a number mean no limit. */
function parsePrice(text: string): number | undefined {
  const trimmed = text.trim();
  const n = Number(trimmed);
  return trimmed === '' || !Number.isFinite(n) || n < 0 ? undefined : n;
}

function MoreFilters({
  filters,
  onChange,
}: {
  filters: MentorFilters;
  onChange: (patch: Partial<MentorFilters>, options?: { replace?: boolean }) => void;
}) {
  // The api's default order: relevance while searching, rating otherwise (shown as the empty choice).
  const defaultSort = filters.search ? 'relevance' : 'rating';
  const sortValue = !filters.sort || filters.sort === defaultSort || filters.sort === 'relevance' ? '' : filters.sort;
  const defaultLabel = SORT_OPTIONS.find((o) => o.value === defaultSort)!.label;
  const otherSorts = SORT_OPTIONS.filter((o) => o.value !== 'relevance' && o.value !== defaultSort);
  return (
    <div className="grid grid-cols-2 gap-4 rounded-2xl border border-slate-200/80 bg-white p-4 shadow-sm sm:p-5 lg:grid-cols-4">
      <PriceInput
        id="min-price"
        label="Min price"
        value={filters.minPrice}
        onCommit={(minPrice) => onChange({ minPrice }, { replace: true })}
      />
      <PriceInput
        id="max-price"
        label="Max price"
        value={filters.maxPrice}
        onCommit={(maxPrice) => onChange({ maxPrice }, { replace: true })}
      />
      <label className="flex items-center gap-2 self-end pb-2 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={!!filters.availableNow}
          onChange={(e) => onChange({ availableNow: e.target.checked })}
        />
        Available now
      </label>
      <div className="space-y-1.5">
        <Label htmlFor="min-rating">Minimum rating</Label>
        <Select
          id="min-rating"
          value={filters.minRating === undefined ? '' : String(filters.minRating)}
          onChange={(e) => onChange({ minRating: e.target.value === '' ? undefined : Number(e.target.value) })}
        >
          <option value="">Any rating</option>
          {RATING_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="sort">Sort by</Label>
        <Select
          id="sort"
          value={sortValue}
          onChange={(e) => onChange({ sort: (e.target.value || undefined) as MentorFilters['sort'] })}
        >
          <option value="">{defaultLabel}</option>
          {otherSorts.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
      </div>
    </div>
  );
}

function Pagination({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  return (
    <nav aria-label="Pagination" className="mt-10 flex items-center justify-center gap-3">
      <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronLeft aria-hidden="true" className="h-4 w-4" />
        Previous
      </Button>
      <span className="text-sm text-slate-600" aria-current="page">
        Page {page} of {pages}
      </span>
      <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
        <ChevronRight aria-hidden="true" className="h-4 w-4" />
      </Button>
    </nav>
  );
}

export default MentorsPage;

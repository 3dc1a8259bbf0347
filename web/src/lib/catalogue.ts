/**
 * The catalogue's shapes and calls (docs/catalogue.md): mentors, services, service statistics,
 * reviews and favourites, through the client that orval generates from openapi.yaml (src/api).
 * Several features use them (landing, home, mentors, favourites, the onboarding wizard and the
 * mentor dashboard), so they are gathered here rather than in one feature.
 *
 * The keys are {@link catalogueKeys} (lib/query-keys' apiKey over the generated paths) and each
 * read is one `queryOptions` in {@link catalogueQueries}.
 */
import { queryOptions } from '@tanstack/react-query';
import {
  addFavorite,
  checkFavorite,
  getCheckFavoriteUrl,
  getListFavoritesUrl,
  listFavorites,
  removeFavorite,
} from '@/api/endpoints/favorites/favorites';
import {
  createMentor,
  getGetMentorReviewsUrl,
  getGetMentorUrl,
  getListMentorsUrl,
  getMentor,
  getMentorProfile,
  getMentorReviews,
  listMentors,
  updateMentorProfile,
} from '@/api/endpoints/mentors/mentors';
import {
  createService,
  getGetHighlightsUrl,
  getGetServiceStatsUrl,
  getHighlights,
  getServiceStats,
  updateService,
} from '@/api/endpoints/services/services';
import type {
  FavoriteChange,
  FavoriteStatus,
  ListMentorsParams,
  MentorProfileRequest,
  MentorsPage,
  MentorView,
  NewServiceRequest,
  ReviewView,
  ServiceChangesRequest,
  ServiceStatView,
  ServiceView,
} from '@/api/model';
import { accountKeys, apiKey } from './query-keys';
import type { ServiceType } from './services';

export type { ServiceType };

/** Money as the api sends it: a decimal string with two places ('50.00'), USD. */
export type Money = string;

/** A mentor with its services (public calls list only active ones; the owner's profile all). */
export type Mentor = MentorView;
/** A service; price '0.00' means free, duration in minutes. */
export type Service = ServiceView;
export type ServiceStat = ServiceStatView;
export type Review = ReviewView;
export type MentorList = MentorsPage;
export type { FavoriteChange, FavoriteStatus };

export type MentorSort = 'relevance' | 'rating' | 'price' | 'sessions';

/** GET /api/mentors filters as the screens hold them (numbers), before they become query text. */
export type MentorSearch = {
  service?: ServiceType;
  search?: string;
  minPrice?: number;
  maxPrice?: number;
  minRating?: number;
  sort?: MentorSort;
  page?: number;
  pageSize?: number;
  /** Only mentors available for an instant reading now (issue 36). */
  availableNow?: boolean;
};

export type CreateMentorInput = MentorProfileRequest;
export type UpdateMentorInput = MentorProfileRequest;
export type CreateServiceInput = NewServiceRequest;
export type UpdateServiceInput = ServiceChangesRequest;

/** The api's query parameters for a search; unset filters are left out. */
export function listMentorsParams(search: MentorSearch = {}): ListMentorsParams {
  const params: ListMentorsParams = {};
  if (search.service) params.service = search.service;
  if (search.search) params.search = search.search;
  if (search.minPrice !== undefined) params.minPrice = String(search.minPrice);
  if (search.maxPrice !== undefined) params.maxPrice = String(search.maxPrice);
  if (search.minRating !== undefined) params.minRating = String(search.minRating);
  if (search.sort) params.sort = search.sort;
  if (search.page !== undefined) params.page = search.page;
  if (search.pageSize !== undefined) params.pageSize = search.pageSize;
  if (search.availableNow) params.availableNow = true;
  return params;
}

export const catalogueKeys = {
  serviceStats: () => apiKey(getGetServiceStatsUrl()),
  highlights: () => apiKey(getGetHighlightsUrl()),
  /** Without parameters: the prefix of every mentor search (for invalidation) and the featured list. */
  mentors: (search?: MentorSearch) => apiKey(getListMentorsUrl(), search ? listMentorsParams(search) : undefined),
  mentor: (id: string) => apiKey(getGetMentorUrl(id)),
  reviews: (id: string) => apiKey(getGetMentorReviewsUrl(id)),
  favorites: () => apiKey(getListFavoritesUrl()),
  favoriteCheck: (mentorId: string) => apiKey(getCheckFavoriteUrl(mentorId)),
  /** The same key as lib/auth's MENTOR_PROFILE_KEY: one cache entry for "am I a mentor" and the profile. */
  mentorProfile: accountKeys.mentorProfile,
};

type Opts = { signal?: AbortSignal };

export const catalogueApi = {
  serviceStats: ({ signal }: Opts = {}) => getServiceStats({ signal }),
  highlights: ({ signal }: Opts = {}) => getHighlights({ signal }),
  mentors: (search: MentorSearch = {}, { signal }: Opts = {}) => listMentors(listMentorsParams(search), { signal }),
  mentor: (id: string, { signal }: Opts = {}) => getMentor(id, { signal }),
  reviews: (id: string, { signal }: Opts = {}) => getMentorReviews(id, { signal }),
  favorites: ({ signal }: Opts = {}) => listFavorites({ signal }),
  favoriteCheck: (mentorId: string, { signal }: Opts = {}) => checkFavorite(mentorId, { signal }),
  addFavorite: (mentorId: string) => addFavorite(mentorId),
  removeFavorite: (mentorId: string) => removeFavorite(mentorId),
  mentorProfile: ({ signal }: Opts = {}) => getMentorProfile({ signal }),
  createMentor: (input: CreateMentorInput) => createMentor(input),
  updateMentorProfile: (input: UpdateMentorInput) => updateMentorProfile(input),
  createService: (input: CreateServiceInput) => createService(input),
  updateService: (id: string, input: UpdateServiceInput) => updateService(id, input),
};

/** One `queryOptions` per catalogue read; screens add their own `enabled`, `staleTime` or `select`. */
export const catalogueQueries = {
  serviceStats: () =>
    queryOptions({
      queryKey: catalogueKeys.serviceStats(),
      queryFn: ({ signal }) => catalogueApi.serviceStats({ signal }),
    }),
  highlights: () =>
    queryOptions({
      queryKey: catalogueKeys.highlights(),
      queryFn: ({ signal }) => catalogueApi.highlights({ signal }),
    }),
  mentors: (search?: MentorSearch) =>
    queryOptions({
      queryKey: catalogueKeys.mentors(search),
      queryFn: ({ signal }) => catalogueApi.mentors(search, { signal }),
    }),
  mentor: (id: string) =>
    queryOptions({ queryKey: catalogueKeys.mentor(id), queryFn: ({ signal }) => catalogueApi.mentor(id, { signal }) }),
  reviews: (id: string) =>
    queryOptions({
      queryKey: catalogueKeys.reviews(id),
      queryFn: ({ signal }) => catalogueApi.reviews(id, { signal }),
    }),
  favorites: () =>
    queryOptions({ queryKey: catalogueKeys.favorites(), queryFn: ({ signal }) => catalogueApi.favorites({ signal }) }),
  favoriteCheck: (mentorId: string) =>
    queryOptions({
      queryKey: catalogueKeys.favoriteCheck(mentorId),
      queryFn: ({ signal }) => catalogueApi.favoriteCheck(mentorId, { signal }),
    }),
};

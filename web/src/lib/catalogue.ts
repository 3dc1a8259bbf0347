/**
 * The catalogue's shapes and calls (docs/catalogue.md): mentors, services, service statistics,
 * reviews and favourites. Several features use them (landing, home, mentors, favourites, the
 * onboarding wizard and the mentor dashboard), so they live here rather than in one feature.
 *
 * Every call goes through the shared fetch mutator, and the query keys are the request paths
 * (plus the query parameters as one object), exactly as orval's generated keys are, so these
 * and the generated hooks share one cache.
 */
import { apiFetch, apiRequest } from './api-fetch';
import type { ServiceType } from './services';

export type { ServiceType };

/** Money as the api sends it: a decimal string with two places ('50.00'), USD. */
export type Money = string;

export type Service = {
  id: string;
  mentorId: string;
  title: string;
  description: string;
  serviceType: ServiceType | string;
  /** '0.00' means free. */
  price: Money;
  /** Minutes. */
  duration: number;
  isActive: boolean;
  isGroupSession: boolean;
  maxParticipants: number | null;
  createdAt: string;
};

export type MentorUser = {
  id: string;
  firstName: string | null;
  lastName: string | null;
  profileImageUrl: string | null;
};

export type Mentor = {
  id: string;
  userId: string;
  displayName: string;
  bio: string;
  specialties: string[];
  basePrice: Money;
  /** '0.00' while the mentor has no reviews. */
  rating: Money | null;
  reviewCount: number;
  totalSessions: number;
  profileImageUrl: string | null;
  timeZone: string;
  isActive: boolean;
  createdAt: string;
  user: MentorUser | null;
  /** Public calls list only active services; the owner's profile lists all. */
  services: Service[];
};

export type ServiceStat = { serviceType: ServiceType | string; mentorCount: number; minPrice: Money | number };

export type Review = {
  id: string;
  rating: number;
  comment: string | null;
  createdAt: string;
  user: { firstName: string | null; lastName: string | null } | null;
};

export type MentorSort = 'relevance' | 'rating' | 'price' | 'sessions';

export type MentorSearch = {
  service?: ServiceType;
  search?: string;
  minPrice?: number;
  maxPrice?: number;
  minRating?: number;
  sort?: MentorSort;
  page?: number;
  pageSize?: number;
};

export type MentorList = { mentors: Mentor[]; total: number; page: number; pageSize: number };

export type FavoriteStatus = { isFavorited: boolean; message?: string };

export type CreateMentorInput = {
  displayName: string;
  bio: string;
  specialties: string[];
  basePrice: Money;
  profileImageUrl?: string;
  timeZone?: string;
};

export type UpdateMentorInput = Partial<CreateMentorInput>;

export type CreateServiceInput = {
  title: string;
  description: string;
  serviceType: ServiceType;
  price: Money;
  duration?: number;
  isGroupSession?: boolean;
  maxParticipants?: number | null;
  mentorId?: string;
};

export type UpdateServiceInput = Partial<Omit<CreateServiceInput, 'mentorId'>> & { isActive?: boolean };

// --- Paths and query keys -----------------------------------------------------------------

/** A query string from the parameters that are set (orval's way: undefined ones are left out). */
function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.append(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const SERVICE_STATS_PATH = '/api/service-stats';
export const MENTORS_PATH = '/api/mentors';
export const FAVORITES_PATH = '/api/user/favorites';
export const MENTOR_PROFILE_PATH = '/api/mentor/profile';

export const catalogueKeys = {
  serviceStats: () => [SERVICE_STATS_PATH] as const,
  mentors: (params?: MentorSearch) => (params ? ([MENTORS_PATH, params] as const) : ([MENTORS_PATH] as const)),
  mentor: (id: string) => [`${MENTORS_PATH}/${id}`] as const,
  reviews: (id: string) => [`${MENTORS_PATH}/${id}/reviews`] as const,
  favorites: () => [FAVORITES_PATH] as const,
  favoriteCheck: (mentorId: string) => [`${FAVORITES_PATH}/check/${mentorId}`] as const,
  /** The same key as lib/auth's MENTOR_PROFILE_KEY: one cache entry for "am I a mentor" and the profile. */
  mentorProfile: () => [MENTOR_PROFILE_PATH] as const,
};

type Opts = { signal?: AbortSignal };

// --- Calls ----------------------------------------------------------------------------------

export const catalogueApi = {
  serviceStats: ({ signal }: Opts = {}) => apiFetch<ServiceStat[]>(SERVICE_STATS_PATH, { signal }),
  mentors: (params: MentorSearch = {}, { signal }: Opts = {}) =>
    apiFetch<MentorList>(`${MENTORS_PATH}${query(params)}`, { signal }),
  mentor: (id: string, { signal }: Opts = {}) =>
    apiFetch<Mentor>(`${MENTORS_PATH}/${encodeURIComponent(id)}`, { signal }),
  reviews: (id: string, { signal }: Opts = {}) =>
    apiFetch<Review[]>(`${MENTORS_PATH}/${encodeURIComponent(id)}/reviews`, { signal }),
  favorites: ({ signal }: Opts = {}) => apiFetch<Mentor[]>(FAVORITES_PATH, { signal }),
  favoriteCheck: (mentorId: string, { signal }: Opts = {}) =>
    apiFetch<FavoriteStatus>(`${FAVORITES_PATH}/check/${encodeURIComponent(mentorId)}`, { signal }),
  addFavorite: (mentorId: string) =>
    apiRequest<FavoriteStatus>('POST', `${FAVORITES_PATH}/${encodeURIComponent(mentorId)}`),
  removeFavorite: (mentorId: string) =>
    apiRequest<FavoriteStatus>('DELETE', `${FAVORITES_PATH}/${encodeURIComponent(mentorId)}`),
  mentorProfile: ({ signal }: Opts = {}) => apiFetch<Mentor>(MENTOR_PROFILE_PATH, { signal }),
  createMentor: (input: CreateMentorInput) => apiRequest<Mentor>('POST', MENTORS_PATH, input),
  updateMentorProfile: (input: UpdateMentorInput) => apiRequest<Mentor>('PUT', MENTOR_PROFILE_PATH, input),
  createService: (input: CreateServiceInput) => apiRequest<Service>('POST', '/api/services', input),
  updateService: (id: string, input: UpdateServiceInput) =>
    apiRequest<Service>('PUT', `/api/mentor/services/${encodeURIComponent(id)}`, input),
};

export { query as toQueryString };

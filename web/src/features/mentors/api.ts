import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-fetch';
import { catalogueApi, catalogueKeys, catalogueQueries, type MentorSearch } from '@/lib/catalogue';

// The mentor directory and profile calls (docs/catalogue.md); the keys are lib/catalogue's.

/** GET /api/mentors with filters; the previous page stays on screen while the next loads. */
export function useMentors(params: MentorSearch) {
  return useQuery({
    ...catalogueQueries.mentors(params),
    placeholderData: keepPreviousData,
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are UUIDs; anything else in the address is no mentor (and never becomes part of an api path). */
export function isMentorId(id: string): boolean {
  return UUID.test(id);
}

/** GET /api/mentors/{id}: 404 'Mentor not found' (also for an id that is not a UUID, without a call). */
export const mentorQuery = (id: string) =>
  queryOptions({
    queryKey: catalogueKeys.mentor(id),
    queryFn: ({ signal }) =>
      isMentorId(id) ? catalogueApi.mentor(id, { signal }) : Promise.reject(new ApiError(404, 'Not Found', '')),
  });

export function useMentor(id: string) {
  return useQuery(mentorQuery(id));
}

/** GET /api/mentors/{id}/reviews, newest first. */
export function useMentorReviews(id: string, enabled = true) {
  return useQuery({
    ...catalogueQueries.reviews(id),
    enabled: enabled && !!id,
  });
}

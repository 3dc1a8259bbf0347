import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { catalogueApi, catalogueKeys, type MentorSearch } from '@/lib/catalogue';

// The mentor directory and profile calls (01 §7 browsing; docs/catalogue.md).

/** GET /api/mentors with filters; the previous page stays on screen while the next loads. */
export function useMentors(params: MentorSearch) {
  return useQuery({
    queryKey: catalogueKeys.mentors(params),
    queryFn: ({ signal }) => catalogueApi.mentors(params, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/mentors/{id}: 404 'Mentor not found'. */
export function useMentor(id: string) {
  return useQuery({
    queryKey: catalogueKeys.mentor(id),
    queryFn: ({ signal }) => catalogueApi.mentor(id, { signal }),
    enabled: !!id,
  });
}

/** GET /api/mentors/{id}/reviews, newest first. */
export function useMentorReviews(id: string, enabled = true) {
  return useQuery({
    queryKey: catalogueKeys.reviews(id),
    queryFn: ({ signal }) => catalogueApi.reviews(id, { signal }),
    enabled: enabled && !!id,
  });
}

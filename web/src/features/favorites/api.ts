import { useQuery } from '@tanstack/react-query';
import { catalogueApi, catalogueKeys } from '@/lib/catalogue';

/** GET /api/user/favorites: the favourite mentors, most recently added first. */
export function useFavoriteMentors() {
  return useQuery({
    queryKey: catalogueKeys.favorites(),
    queryFn: ({ signal }) => catalogueApi.favorites({ signal }),
  });
}

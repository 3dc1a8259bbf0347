import { useQuery } from '@tanstack/react-query';
import { catalogueQueries } from '@/lib/catalogue';

/** GET /api/user/favorites: the favourite mentors, most recently added first. */
export function useFavoriteMentors() {
  return useQuery(catalogueQueries.favorites());
}

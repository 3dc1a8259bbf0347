import { useQuery } from '@tanstack/react-query';
import { getGetSiteInfoQueryOptions } from '@/api/endpoints/health/health';

/**
 * GET /api/site-info: the support and privacy addresses and the platform fee, from the server's
 * settings (SUPPORT_EMAIL, PRIVACY_EMAIL) and domain's fee, so no page states them on its own.
 */
export function useSiteInfo() {
  return useQuery(getGetSiteInfoQueryOptions());
}

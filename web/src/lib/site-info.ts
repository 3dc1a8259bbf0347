import { queryOptions, useQuery } from '@tanstack/react-query';
import { getGetSiteInfoUrl, getSiteInfo } from '@/api/endpoints/health/health';
import { apiKey } from './query-keys';

export const siteInfoQuery = () =>
  queryOptions({ queryKey: apiKey(getGetSiteInfoUrl()), queryFn: ({ signal }) => getSiteInfo({ signal }) });

/**
 * GET /api/site-info: the support and privacy addresses and the platform fee, from the server's
 * settings (SUPPORT_EMAIL, PRIVACY_EMAIL) and domain's fee, so no page states them on its own.
 */
export function useSiteInfo() {
  return useQuery(siteInfoQuery());
}

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getGetMentorEarningsUrl,
  getGetPayoutPreferencesUrl,
  getMentorEarnings,
  getPayoutPreferences,
  savePayoutPreferences,
} from '@/api/endpoints/payouts/payouts';
import type { EarningsView, PayoutPreferencesRequest, PayoutPreferencesView, PayoutTotalsView } from '@/api/model';
import { apiKey } from '@/lib/query-keys';

// The mentor's payout calls (docs/payouts.md): preferences and earnings.

export type { EarningsView as Earnings, PayoutPreferencesView as PayoutPreferences, PayoutTotalsView as PayoutTotals };

export const payoutKeys = {
  preferences: () => apiKey(getGetPayoutPreferencesUrl()),
  earnings: () => apiKey(getGetMentorEarningsUrl()),
};

export const payoutQueries = {
  /** GET /api/mentor/payout-preferences: no method and minimumPayout '50.00' until saved. */
  preferences: () =>
    queryOptions({ queryKey: payoutKeys.preferences(), queryFn: ({ signal }) => getPayoutPreferences({ signal }) }),
  /** GET /api/mentor/earnings: pending, nextPayout, minimumPayout, history (newest first); fresh on each visit. */
  earnings: () =>
    queryOptions({
      queryKey: payoutKeys.earnings(),
      queryFn: ({ signal }) => getMentorEarnings({ signal }),
      staleTime: 0,
    }),
};

export function usePayoutPreferences() {
  return useQuery(payoutQueries.preferences());
}

export function useMentorEarnings() {
  return useQuery(payoutQueries.earnings());
}

/** POST /api/mentor/payout-preferences: the saved object; the earnings (minimum) are read again. */
export function useSavePayoutPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PayoutPreferencesRequest) => savePayoutPreferences(input),
    onSuccess: (saved) => {
      queryClient.setQueryData(payoutKeys.preferences(), saved);
      void queryClient.invalidateQueries({ queryKey: payoutKeys.earnings() });
    },
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getGetMentorEarningsQueryKey,
  getGetPayoutPreferencesQueryKey,
  getMentorEarnings,
  getPayoutPreferences,
  savePayoutPreferences,
} from '@/api/endpoints/payouts/payouts';
import type { EarningsView, PayoutPreferencesRequest, PayoutPreferencesView, PayoutTotalsView } from '@/api/model';

// The mentor's payout calls (docs/payouts.md): preferences and earnings.

export type { EarningsView as Earnings, PayoutPreferencesView as PayoutPreferences, PayoutTotalsView as PayoutTotals };

export const payoutKeys = {
  preferences: () => getGetPayoutPreferencesQueryKey(),
  earnings: () => getGetMentorEarningsQueryKey(),
};

/** GET /api/mentor/payout-preferences: no method and minimumPayout '50.00' until saved. */
export function usePayoutPreferences() {
  return useQuery({ queryKey: payoutKeys.preferences(), queryFn: ({ signal }) => getPayoutPreferences({ signal }) });
}

/** GET /api/mentor/earnings: pending, nextPayout, minimumPayout, history (newest first). */
export function useMentorEarnings() {
  return useQuery({
    queryKey: payoutKeys.earnings(),
    queryFn: ({ signal }) => getMentorEarnings({ signal }),
    staleTime: 0,
  });
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

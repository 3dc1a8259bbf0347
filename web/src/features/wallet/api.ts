import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  complainAboutInstantSession,
  getComplainAboutInstantSessionUrl,
  getGetInstantSessionUrl,
  getGetWalletUrl,
  getInstantSession,
  getWallet,
  topUpWallet,
} from '@/api/endpoints/wallet/wallet';
import type { ComplaintReason, ReadingComplaintView, TopUpRequest, WalletView } from '@/api/model';
import { apiKey } from '@/lib/query-keys';

// The signed-in user's prepaid balance (docs/instant-readings.md): its ledger and top-ups by card.

export type Wallet = WalletView;

export const walletKeys = {
  all: () => apiKey(getGetWalletUrl()),
  reading: (id: string) => apiKey(getGetInstantSessionUrl(id)),
  /** The complaint the seeker filed about a reading in this visit (the API has no read route for the seeker). */
  readingComplaint: (id: string) => apiKey(getComplainAboutInstantSessionUrl(id)),
};

export const walletQueries = {
  /** GET /api/wallet: the balance and the newest entries; fresh on each visit (a reading charges it). */
  current: () =>
    queryOptions({ queryKey: walletKeys.all(), queryFn: ({ signal }) => getWallet({}, { signal }), staleTime: 0 }),
  /** The seeker's complaint about a reading, put there when filed: the API has no read route for the seeker. */
  filedReadingComplaint: (id: string) =>
    queryOptions<ReadingComplaintView | null>({
      queryKey: walletKeys.readingComplaint(id),
      queryFn: () => null,
      enabled: false,
      initialData: null,
      staleTime: Infinity,
    }),
};

/** GET /api/instant-sessions/{id}: a reading, refreshed when its socket events arrive. */
export function useReading(id: string) {
  return useQuery(
    queryOptions({ queryKey: walletKeys.reading(id), queryFn: ({ signal }) => getInstantSession(id, { signal }) }),
  );
}

export function useWallet() {
  return useQuery(walletQueries.current());
}

/** POST /api/wallet/top-up: the same clientRequestId twice charges once. */
export function useTopUp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TopUpRequest) => topUpWallet(input),
    onSettled: () => client.invalidateQueries({ queryKey: walletKeys.all() }),
  });
}

export type ReadingComplaintInput = { reason: ComplaintReason; details?: string };

/** POST /api/instant-sessions/{id}/complaint {reason, details}: the reading's complaint (booking complaints' rules). */
export function useFileReadingComplaint(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ reason, details }: ReadingComplaintInput) =>
      complainAboutInstantSession(id, { reason, ...(details ? { details } : {}) }),
    onSuccess: (complaint) => {
      client.setQueryData<ReadingComplaintView>(walletKeys.readingComplaint(id), complaint);
      void client.invalidateQueries({ queryKey: walletKeys.reading(id) });
    },
  });
}

/** The complaint filed by `useFileReadingComplaint` in this visit, if any (kept in the query cache, never fetched). */
export function useFiledReadingComplaint(id: string) {
  return useQuery(walletQueries.filedReadingComplaint(id));
}

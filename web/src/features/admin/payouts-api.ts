import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  getListHeldPayoutsUrl,
  getListPayoutHistoryUrl,
  getListPendingPayoutsUrl,
  listHeldPayouts,
  listPayoutHistory,
  listPendingPayouts,
  markPayoutPaid,
  runPayoutBatch,
} from '@/api/endpoints/payouts/payouts';
import type { HeldPayoutView, MarkPaidRequest, PayoutHistoryItem, PendingPayoutView } from '@/api/model';
import { apiKey } from '@/lib/query-keys';

// The admin payouts page's calls (docs/payouts.md).

export type { HeldPayoutView as HeldPayout, PayoutHistoryItem, PendingPayoutView as PendingPayout };

export const adminPayoutKeys = {
  pending: () => apiKey(getListPendingPayoutsUrl()),
  history: () => apiKey(getListPayoutHistoryUrl()),
  held: () => apiKey(getListHeldPayoutsUrl()),
};

/** Each list is read afresh on each visit (staleTime 0). */
export const adminPayoutQueries = {
  /** GET /api/admin/payouts/pending (newest first). */
  pending: () =>
    queryOptions({
      queryKey: adminPayoutKeys.pending(),
      queryFn: ({ signal }) => listPendingPayouts({ signal }),
      staleTime: 0,
    }),
  /** GET /api/admin/payouts/held: mentors the next batch holds back (destination changed within 72 hours). */
  held: () =>
    queryOptions({
      queryKey: adminPayoutKeys.held(),
      queryFn: ({ signal }) => listHeldPayouts({ signal }),
      staleTime: 0,
    }),
  /** GET /api/admin/payouts/history (newest first). */
  history: () =>
    queryOptions({
      queryKey: adminPayoutKeys.history(),
      queryFn: ({ signal }) => listPayoutHistory({ signal }),
      staleTime: 0,
    }),
};

/** The CSV of pending payouts for a bulk-payment tool (a plain link: the browser downloads it). */
export const EXPORT_CSV_URL = '/api/admin/payouts/export?status=pending';

/** After "Run payout batch now" the worker builds the payouts: the list is read again this often, for this long. */
export const BATCH_POLL_MS = 2_000;
export const BATCH_POLL_FOR_MS = 30_000;

/** The pending payouts, polled for a while after a batch was queued. */
export function usePendingPayouts(enabled: boolean, pollUntil: number) {
  return useQuery({
    ...adminPayoutQueries.pending(),
    enabled,
    refetchInterval: () => (Date.now() < pollUntil ? BATCH_POLL_MS : false),
  });
}

export function useHeldPayouts() {
  return useQuery(adminPayoutQueries.held());
}

export function usePayoutHistory(enabled: boolean) {
  return useQuery({ ...adminPayoutQueries.history(), enabled });
}

/** POST /api/admin/payouts/mark-paid; on success (and on a refusal: the payout may have moved) both lists refresh. */
export function useMarkPaid() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: MarkPaidRequest) => markPayoutPaid(input),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminPayoutKeys.pending() }),
        queryClient.invalidateQueries({ queryKey: adminPayoutKeys.history() }),
      ]),
  });
}

/** POST /api/admin/payouts/run (202); the pending list is then polled while the worker runs it. */
export function useRunBatch() {
  const queryClient = useQueryClient();
  const [pollUntil, setPollUntil] = useState(0);
  const mutation = useMutation({
    mutationFn: () => runPayoutBatch(),
    onSuccess: () => {
      setPollUntil(Date.now() + BATCH_POLL_FOR_MS);
      void queryClient.invalidateQueries({ queryKey: adminPayoutKeys.pending() });
    },
  });
  return { ...mutation, pollUntil };
}

/** '12.34' -> 1234: sums are made in cents, never in floating point. */
export function toCents(value: string): number {
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!m) return 0;
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -cents : cents;
}

export function fromCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** The three summary cards' figures. */
export function payoutSummary(pending: PendingPayoutView[]) {
  const mentors = new Set(pending.map((p) => p.mentorId)).size;
  return {
    totalPending: fromCents(pending.reduce((sum, p) => sum + toCents(p.mentorNet), 0)),
    mentors,
    bookings: pending.reduce((sum, p) => sum + p.bookingCount, 0),
  };
}

/** The chosen method's recipient, or undefined without preferences. */
export function recipientOf(p: PendingPayoutView): string | undefined {
  const prefs = p.payoutPreferences;
  if (!prefs) return undefined;
  if (prefs.method === 'paypal') return prefs.paypalEmail ?? undefined;
  if (prefs.method === 'venmo') return prefs.venmoUsername ?? undefined;
  if (prefs.method === 'zelle') return prefs.zelleEmail ?? undefined;
  return undefined;
}

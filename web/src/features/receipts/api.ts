import { queryOptions, useQuery } from '@tanstack/react-query';
import { getListReceiptsUrl, listReceipts } from '@/api/endpoints/dashboard/dashboard';
import type { ReceiptView } from '@/api/model';
import { apiKey } from '@/lib/query-keys';

// The signed-in user's receipts (docs/payments.md): one per payment and per refund paid back.

export type Receipt = ReceiptView;

export const receiptKeys = {
  all: () => apiKey(getListReceiptsUrl()),
};

export const receiptQueries = {
  /** GET /api/receipts: newest first; fresh on each visit (a refund can add one at any time). */
  all: () =>
    queryOptions({ queryKey: receiptKeys.all(), queryFn: ({ signal }) => listReceipts({ signal }), staleTime: 0 }),
};

export function useReceipts() {
  return useQuery(receiptQueries.all());
}

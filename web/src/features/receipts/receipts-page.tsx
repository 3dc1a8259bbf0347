import { CircleAlert, Download, Receipt as ReceiptIcon } from 'lucide-react';
import { StateCard } from '@/components/state-card';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-fetch';
import { formatDate } from '@/lib/format';
import { formatUsd } from '@/lib/money';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useReceipts, type Receipt } from './api';

export const RECEIPTS_EMPTY = 'No receipts yet';

/** /receipts: a receipt for every payment and every refund, each downloadable as a PDF. */
export function ReceiptsPage() {
  useDocumentTitle('Receipts');
  const receipts = useReceipts();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <h1 className="font-display text-3xl font-semibold tracking-tight text-slate-900">Receipts</h1>
      <p className="mt-2 text-sm text-slate-600">A receipt for every payment and every refund, numbered per year.</p>
      <div className="mt-6 space-y-3">
        {receipts.isLoading ? (
          <>
            <Skeleton className="h-20" />
            <Skeleton className="h-20" />
          </>
        ) : receipts.isError ? (
          <StateCard as="h2" tone="error" icon={CircleAlert} title="Unable to load your receipts">
            {errorMessage(receipts.error, 'Please try again in a moment.')}
          </StateCard>
        ) : !receipts.data?.length ? (
          <StateCard as="h2" icon={ReceiptIcon} title={RECEIPTS_EMPTY}>
            Receipts appear here after a payment or a refund.
          </StateCard>
        ) : (
          <ul className="space-y-3" aria-label="Your receipts">
            {receipts.data.map((r) => (
              <li key={r.number}>
                <ReceiptRow receipt={r} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function ReceiptRow({ receipt: r }: { receipt: Receipt }) {
  const refund = r.kind === 'refund';
  return (
    <Card
      className="flex flex-wrap items-center justify-between gap-3 p-4"
      role="article"
      aria-label={`Receipt ${r.number}`}
    >
      <div className="min-w-0">
        <p className="font-medium text-slate-900">
          {refund ? 'Refund' : 'Payment'} {r.number}
        </p>
        <p className="text-sm text-slate-600">
          {r.description} · {formatDate(r.issuedAt)}
        </p>
      </div>
      <div className="flex items-center gap-3">
        <span className={refund ? 'font-semibold text-emerald-700' : 'font-semibold text-slate-900'}>
          {refund ? '+' : ''}
          {formatUsd(r.amount)}
        </span>
        <a
          href={r.pdfUrl}
          download={`receipt-${r.number}.pdf`}
          className="inline-flex items-center gap-1 rounded-md border border-slate-300 px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-50"
        >
          <Download aria-hidden="true" className="h-4 w-4" />
          Download PDF<span className="sr-only"> of receipt {r.number}</span>
        </a>
      </div>
    </Card>
  );
}

export default ReceiptsPage;

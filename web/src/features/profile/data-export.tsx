import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { getDownloadDataExportUrl, requestDataExport } from '@/api/endpoints/accounts/accounts';
import type { DataExportStatus, DataExportView } from '@/api/model';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-fetch';
import { dataExportKeys, dataExportQueries } from './api';

// Download my data: POST /api/user/data-export, GET /api/user/data-exports, GET .../{id}/download.

/** How often the list is read again while an export is being built. */
export const PENDING_REFRESH_MS = 3000;

export const STATUS_LABELS: Record<DataExportStatus, string> = {
  pending: 'Being prepared',
  ready: 'Ready',
  expired: 'Expired',
  failed: 'Failed',
};

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

/** Asking for a copy of one's data, and the copies asked for with their download links. */
export function DataExportSection() {
  const queryClient = useQueryClient();
  const exports = useQuery({
    ...dataExportQueries.list(),
    refetchInterval: (q) =>
      (q.state.data as DataExportView[] | undefined)?.some((e) => e.status === 'pending') ? PENDING_REFRESH_MS : false,
  });
  const request = useMutation({
    mutationFn: () => requestDataExport(),
    onSuccess: () => toast.success('We are preparing your data. We will e-mail you when it is ready.'),
    onError: (e) => toast.error(errorMessage(e, 'Could not ask for your data')),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: dataExportKeys.all() }),
  });
  const list = exports.data ?? [];
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        Get a copy of everything we keep about you: your profile, bookings, payments, messages, reviews and uploads, as
        a zip file. You can ask once a day; each download stays available for 7 days.
      </p>
      <Button size="sm" disabled={request.isPending} onClick={() => request.mutate()}>
        Download my data
      </Button>
      {list.length > 0 && (
        <ul className="divide-y divide-slate-200 rounded-md border border-slate-200" aria-label="Your data exports">
          {list.map((e) => (
            <li key={e.id} className="flex flex-wrap items-center justify-between gap-3 p-3 text-sm">
              <div>
                <p className="font-medium text-slate-900">Asked for on {day(e.createdAt)}</p>
                <p className="text-slate-600">
                  {STATUS_LABELS[e.status]}
                  {e.status === 'ready' && e.expiresAt && ` · available until ${day(e.expiresAt)}`}
                </p>
              </div>
              {e.status === 'ready' && (
                <a
                  className="text-sm font-medium text-indigo-700 underline"
                  href={getDownloadDataExportUrl(e.id)}
                  download
                >
                  Download
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

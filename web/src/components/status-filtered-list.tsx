import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { StateCard } from '@/components/state-card';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-fetch';

type Props<S extends string, T extends { id: string }> = {
  /** The status shown, its choices and how to change it ('Show' select). */
  status: S;
  statuses: readonly { value: S; label: string }[];
  onStatusChange: (status: S) => void;
  /** The list's query as react-query gives it. */
  query: { isLoading: boolean; isError: boolean; error: unknown; data?: T[] };
  icon: LucideIcon;
  errorTitle: string;
  emptyTitle: string;
  renderItem: (item: T) => ReactNode;
};

/** An admin list of one status at a time: the 'Show' select, then loading, error, empty or the items. */
export function StatusFilteredList<S extends string, T extends { id: string }>({
  status,
  statuses,
  onStatusChange,
  query,
  icon,
  errorTitle,
  emptyTitle,
  renderItem,
}: Props<S, T>) {
  const items = query.data ?? [];
  return (
    <div className="space-y-4">
      <label className="flex items-center gap-2 text-sm text-slate-700">
        Show
        <select
          className="rounded-md border border-slate-300 bg-white px-2 py-1"
          value={status}
          onChange={(e) => onStatusChange(e.target.value as S)}
        >
          {statuses.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
      </label>
      {query.isLoading ? (
        <Spinner />
      ) : query.isError ? (
        <StateCard as="h2" tone="error" icon={icon} title={errorTitle}>
          {errorMessage(query.error, 'Please try again in a moment.')}
        </StateCard>
      ) : items.length === 0 ? (
        <StateCard as="h2" icon={icon} title={emptyTitle} />
      ) : (
        <ul className="space-y-3">
          {items.map((item) => (
            <li key={item.id}>{renderItem(item)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

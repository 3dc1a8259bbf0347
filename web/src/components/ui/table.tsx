import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';

// A data table in a card: a labelled table, a header row of column names, and rows of cells. The
// admin lists, the payout history and the job console use it.

export type Column = string | { label: string; className?: string };

export function Table({
  label,
  columns,
  children,
  className,
}: {
  /** The table's accessible name. */
  label: string;
  columns: Column[];
  children: ReactNode;
  className?: string;
}) {
  return (
    <Card className={cn('overflow-x-auto p-0', className)}>
      <table aria-label={label} className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <thead className="bg-slate-50">
          <tr>
            {columns.map((column) => {
              const { label: text, className: extra } = typeof column === 'string' ? { label: column } : column;
              return (
                <Th key={text} scope="col" className={extra}>
                  {text}
                </Th>
              );
            })}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">{children}</tbody>
      </table>
    </Card>
  );
}

export function Th({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      className={cn('px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-500', className)}
      {...props}
    />
  );
}

export function Td({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn('px-4 py-3 align-top text-sm text-slate-700', className)} {...props} />;
}

import { ArrowLeft, CircleAlert, Trash2 } from 'lucide-react';
import { type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';

export function BackButton({ onClick, disabled }: { onClick: () => void; disabled?: boolean }) {
  return (
    <Button variant="outline" size="lg" onClick={onClick} disabled={disabled}>
      <ArrowLeft aria-hidden="true" className="h-4 w-4" />
      Back
    </Button>
  );
}

/** The wizard's failures, in a 'Something went wrong' card. */
export function ErrorCard({ message, detail }: { message: string; detail?: string }) {
  return (
    <div
      role="alert"
      className="flex gap-3 rounded-2xl border border-rose-200 bg-rose-50 p-4 text-rose-800 animate-fade-in"
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />
      <div className="space-y-1 text-sm">
        <p className="font-semibold">Something went wrong</p>
        <p>{message}</p>
        {detail && detail !== message && <p className="text-rose-700">{detail}</p>}
      </div>
    </div>
  );
}

export function StepCard({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card className="p-6 sm:p-8">
      <h2 className="font-display text-2xl font-semibold text-slate-900">{title}</h2>
      <p className="mt-1 text-sm text-slate-600">{description}</p>
      <div className="mt-6">{children}</div>
    </Card>
  );
}

// --- Step 1: profile -----------------------------------------------------------------------

type DraftStateProps = { done: string | null; onRemove?: () => void; removeLabel: string; disabled: boolean };

/** Beside a draft's title: a badge once it is stored, otherwise its Remove button (when it may go). */
export function DraftState({ done, onRemove, removeLabel, disabled }: DraftStateProps) {
  if (done)
    return (
      <span className="rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-medium text-emerald-700">{done}</span>
    );
  if (!onRemove) return null;
  return (
    <Button variant="ghost" size="sm" onClick={onRemove} disabled={disabled} aria-label={removeLabel}>
      <Trash2 aria-hidden="true" className="h-4 w-4" />
      Remove
    </Button>
  );
}

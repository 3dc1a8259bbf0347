import { Clock } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { useHeldPayouts, type HeldPayout } from './payouts-api';
import { formatDateTime } from '@/lib/format';

export const HELD_TITLE = 'Waiting for a later batch';

const when = (iso: string) => formatDateTime(iso);

/** Why a mentor with earnings gets no payout now: they changed where their money goes within 72 hours. */
export function heldReason(h: HeldPayout): string {
  return `Payout method changed ${when(h.destinationChangedAt)}: a batch pays the new method from ${when(h.heldUntil)} on (72 hours after a change).`;
}

/** The mentors the next batch holds back, each with the reason; nothing when there are none. */
export function HeldPayouts() {
  const held = useHeldPayouts();
  const list = held.data ?? [];
  if (list.length === 0) return null;
  return (
    <Card className="mt-8 border-amber-200 bg-amber-50/60 p-5">
      <h2 className="flex items-center gap-2 font-semibold text-amber-900">
        <Clock aria-hidden="true" className="h-4 w-4" />
        {HELD_TITLE} ({list.length})
      </h2>
      <ul className="mt-3 space-y-2 text-sm text-amber-900">
        {list.map((h) => (
          <li key={h.mentorId}>
            <span className="font-medium">{h.mentor.displayName}</span> — {heldReason(h)}
          </li>
        ))}
      </ul>
    </Card>
  );
}

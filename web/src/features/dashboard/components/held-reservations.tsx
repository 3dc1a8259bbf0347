import { CalendarClock, Hourglass } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { formatTime } from '@/lib/format';
import { completePaymentPath, heldTimeText, useMyHolds, useReleaseHold, type Hold } from '@/lib/holds';
import { formatUsd } from '@/lib/money';

/** The seeker's unfinished checkouts: each held time with 'Complete payment' and 'Release'. */
export function HeldReservations() {
  const holds = useMyHolds();
  if (!holds.data?.length) return null;
  return (
    <section aria-labelledby="held-reservations-title" className="space-y-3">
      <h2
        id="held-reservations-title"
        className="flex items-center gap-2 font-display text-xl font-semibold text-slate-900"
      >
        <Hourglass aria-hidden="true" className="h-5 w-5 text-amber-600" />
        Waiting for payment
      </h2>
      <ul className="grid gap-3 md:grid-cols-2">
        {holds.data.map((hold) => (
          <li key={hold.id}>
            <HeldReservation hold={hold} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function HeldReservation({ hold }: { hold: Hold }) {
  const release = useReleaseHold();
  return (
    <Card
      className="flex h-full flex-col gap-3 border-amber-200 bg-amber-50/60 p-5"
      aria-label={`Held: ${hold.service.title}`}
    >
      <div>
        <p className="font-semibold text-slate-900">{hold.service.title}</p>
        <p className="text-sm text-slate-600">with {hold.mentor.displayName}</p>
      </div>
      <p className="flex items-center gap-2 text-sm text-slate-700">
        <CalendarClock aria-hidden="true" className="h-4 w-4 text-indigo-600" />
        {heldTimeText(hold.scheduledAt)} · {formatUsd(hold.totalAmount)}
      </p>
      <p className="text-sm text-amber-800">
        Held for you until {formatTime(hold.expiresAt)}; after that the time is released.
      </p>
      <div className="mt-auto flex flex-wrap gap-2">
        <Button asChild variant="gradient" size="sm">
          <Link to={completePaymentPath(hold)}>Complete payment</Link>
        </Button>
        <Button variant="outline" size="sm" disabled={release.isPending} onClick={() => release.mutate(hold)}>
          {release.isPending ? 'Releasing...' : 'Release'}
        </Button>
      </div>
    </Card>
  );
}

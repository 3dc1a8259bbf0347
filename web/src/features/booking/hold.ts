import type { Hold as LiveHold } from '@/lib/holds';

/** The slot the payment step is for: a reservation held until `expiresAt`. */
export type Hold = { reservationId: string; expiresAt: string; scheduledAt: string };

export function holdOf(live: LiveHold): Hold {
  return { reservationId: live.id, expiresAt: live.expiresAt, scheduledAt: live.scheduledAt };
}

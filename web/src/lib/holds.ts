/**
 * Unpaid holds (docs/booking.md 'Abandoned checkout'): the seeker's live reservations, resuming
 * one, and releasing one. The dashboard lists them and the booking page picks up where the
 * seeker left; both share these calls, so they live here rather than in one feature.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { getMyReservations, getReservation, releaseReservation } from '@/api/endpoints/booking/booking';
import type { ReservationView } from '@/api/model';
import { errorMessage } from './api-fetch';
import { formatDate, formatTime } from './format';
import { availableTimesKeys, holdKeys } from './query-keys';

export type Hold = ReservationView;

/** What releasing a hold needs to know about it. */
type HoldRef = { id: string; mentor: { id: string; displayName: string } };

export const HOLD_TEXT = {
  released: 'Reservation released',
  releasedText: 'The time is free again.',
  releaseFailed: 'Could not release the reservation',
  stillHeldTitle: 'Your time is still held',
  expired: 'This reservation has expired or was already paid. Please choose a time again.',
} as const;

export { holdKeys };

export const holdQueries = {
  /** GET /api/user/reservations: the seeker's live holds, soonest expiry first. */
  mine: () => queryOptions({ queryKey: holdKeys.mine(), queryFn: ({ signal }) => getMyReservations({ signal }) }),
  /** GET /api/reservations/{id}: one live hold of the seeker (404 once paid, released or expired). */
  one: (id: string) =>
    queryOptions({ queryKey: holdKeys.one(id), queryFn: ({ signal }) => getReservation(id, { signal }) }),
};

/**
 * Whether a new pick takes the place of the seeker's hold with the same mentor: always for a paid
 * service (one unpaid hold per mentor: picking again replaces it), and for a free one only when it
 * falls on the held time (the slot list offers a seeker their own held time).
 */
export function pickReplacesHold(
  hold: Pick<Hold, 'scheduledAt'> & { service: { duration: number } },
  pick: { scheduledAt: string; duration: number; free: boolean },
): boolean {
  if (!pick.free) return true;
  const start = Date.parse(pick.scheduledAt);
  const heldStart = Date.parse(hold.scheduledAt);
  return start < heldStart + hold.service.duration * 60_000 && heldStart < start + pick.duration * 60_000;
}

/**
 * Where the payment step of a hold is: its service's booking page, told which hold to resume; a
 * group seat's is /group-booking/{id}.
 */
export function completePaymentPath(hold: Pick<Hold, 'id' | 'service'> & { groupSession?: unknown }): string {
  if (hold.groupSession) return `/group-booking/${encodeURIComponent(hold.id)}`;
  return `/booking/${hold.service.id}?reservation=${encodeURIComponent(hold.id)}`;
}

/** 'Mar 5, 2027 at 9:30 AM' in the viewer's clock. */
export function heldTimeText(scheduledAt: string): string {
  return `${formatDate(scheduledAt)} at ${formatTime(scheduledAt)}`;
}

export function useMyHolds(enabled = true) {
  return useQuery({
    ...holdQueries.mine(),
    enabled,
    // A hold runs out by itself: read afresh on each visit.
    staleTime: 0,
  });
}

export function useHold(id: string | null) {
  return useQuery({
    ...holdQueries.one(id ?? ''),
    enabled: Boolean(id),
    staleTime: 0,
    retry: false,
  });
}

function refreshAfterRelease(queryClient: QueryClient, hold: HoldRef) {
  void queryClient.invalidateQueries({ queryKey: holdKeys.mine() });
  for (const queryKey of availableTimesKeys(hold.mentor.id)) void queryClient.invalidateQueries({ queryKey });
  queryClient.removeQueries({ queryKey: holdKeys.one(hold.id) });
}

/** Releases a hold at once and says so; the hold is gone from every list. */
export async function releaseHold(queryClient: QueryClient, hold: HoldRef): Promise<boolean> {
  try {
    await releaseReservation(hold.id);
    toast.success(HOLD_TEXT.released, { description: HOLD_TEXT.releasedText });
    return true;
  } catch (error) {
    toast.error(HOLD_TEXT.releaseFailed, { description: errorMessage(error, HOLD_TEXT.releaseFailed) });
    return false;
  } finally {
    refreshAfterRelease(queryClient, hold);
  }
}

/** DELETE /api/reservations/{id} as a mutation (the dashboard's 'Release'). */
export function useReleaseHold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (hold: HoldRef) => {
      if (!(await releaseHold(queryClient, hold))) throw new Error(HOLD_TEXT.releaseFailed);
    },
  });
}

/**
 * After the seeker left a payment step without paying: a toast that stays until answered,
 * offering to release the time (or keep it: it waits on the dashboard until it expires).
 */
export function offerToRelease(queryClient: QueryClient, hold: HoldRef & { expiresAt: string; serviceTitle: string }) {
  toast(HOLD_TEXT.stillHeldTitle, {
    id: `hold-${hold.id}`,
    description: `${hold.serviceTitle} with ${hold.mentor.displayName} is held for you until ${formatTime(hold.expiresAt)}. Complete the payment from your dashboard, or release the time for others.`,
    duration: Infinity,
    action: { label: 'Release', onClick: () => void releaseHold(queryClient, hold) },
    cancel: { label: 'Keep it', onClick: () => undefined },
  });
}

/**
 * GET /api/mentors/{mentorId}/available-slots (docs/booking.md 'Slots') for the slot picker,
 * through the generated client, so the query key is the generated one (the path, then the
 * query parameters as one object). Booking and rescheduling both pick times with it.
 */
import { useQuery } from '@tanstack/react-query';
import { getAvailableSlots, getGetAvailableSlotsQueryKey } from '@/api/endpoints/booking/booking';

export type AvailableSlotsParams = {
  /** The viewer-local date, YYYY-MM-DD. */
  date: string;
  /** Minutes. */
  duration: number;
  /** The viewer's IANA zone: the start times are wall times there. */
  timeZone: string;
  /** A booking being rescheduled: its own time counts as free. */
  excludeBooking?: string;
};

/** Without params: every slot query of that mentor (for invalidation after a booking or a move). */
export function availableSlotsKey(mentorId: string, params?: AvailableSlotsParams) {
  return getGetAvailableSlotsQueryKey(mentorId, params);
}

/**
 * One day's free start times; off until a date is chosen.
 * Read afresh whenever the picker opens: times come and go as others book.
 */
export function useAvailableSlots(mentorId: string, params: AvailableSlotsParams | undefined) {
  return useQuery({
    queryKey: availableSlotsKey(mentorId, params),
    queryFn: ({ signal }) => getAvailableSlots(mentorId, params!, { signal }),
    enabled: !!params && !!mentorId,
    staleTime: 0,
  });
}

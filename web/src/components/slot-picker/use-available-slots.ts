/**
 * GET /api/mentors/{mentorId}/available-slots (docs/booking.md 'Slots') for the slot picker,
 * through the generated client; the key is lib/query-keys' availableSlotsKey (the path, then the
 * query parameters as one object). Booking and rescheduling both pick times with it.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getAvailableSlots } from '@/api/endpoints/booking/booking';
import { availableSlotsKey } from '@/lib/query-keys';

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

export { availableSlotsKey };

export const availableSlotsQuery = (mentorId: string, params: AvailableSlotsParams) =>
  queryOptions({
    queryKey: availableSlotsKey(mentorId, params),
    queryFn: ({ signal }) => getAvailableSlots(mentorId, params, { signal }),
  });

/**
 * One day's free start times; off until a date is chosen.
 * Read afresh whenever the picker opens: times come and go as others book.
 */
export function useAvailableSlots(mentorId: string, params: AvailableSlotsParams | undefined) {
  return useQuery({
    ...availableSlotsQuery(mentorId, params!),
    enabled: !!params && !!mentorId,
    staleTime: 0,
  });
}

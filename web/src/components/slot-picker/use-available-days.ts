/**
 * GET /api/mentors/{mentorId}/available-days?month (docs/booking.md 'Days') for the slot picker's
 * calendar: one request per visible month, the days with at least one free start.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getAvailableDays } from '@/api/endpoints/booking/booking';
import { availableDaysKey } from '@/lib/query-keys';

export type AvailableDaysParams = {
  /** The viewer-local month, YYYY-MM. */
  month: string;
  /** Minutes. */
  duration: number;
  /** The viewer's IANA zone: the days are dates there. */
  timeZone: string;
  /** A booking being rescheduled: its own time counts as free. */
  excludeBooking?: string;
};

/**
 * A month's free days are read afresh when the picker opens, but the calendar moving to a month it
 * has just read (the first free day's) does not read it again.
 */
export const DAYS_FRESH_MS = 10_000;

export const availableDaysQuery = (mentorId: string, params: AvailableDaysParams) =>
  queryOptions({
    queryKey: availableDaysKey(mentorId, params),
    queryFn: ({ signal }) => getAvailableDays(mentorId, params, { signal }),
    staleTime: DAYS_FRESH_MS,
  });

/** The free days of the visible month. */
export function useAvailableDays(mentorId: string, params: AvailableDaysParams) {
  return useQuery({ ...availableDaysQuery(mentorId, params), enabled: !!mentorId });
}

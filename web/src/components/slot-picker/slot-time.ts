import { addDays, format, startOfDay } from 'date-fns';
import { BOOKING_WINDOW_DAYS } from '@/config/constants';
import { TIME_FORMAT } from '@/lib/format';

/** A slot's 'HH:MM' (24-hour) start shown in the 12-hour format 'h:mm a': '14:30' -> '2:30 PM'. */
export function slotLabel(time: string): string {
  const [h, m] = time.split(':').map(Number);
  return format(new Date(2000, 0, 1, h, m), TIME_FORMAT);
}

/** The calendar day as the slots call wants it (the viewer's local date): 'YYYY-MM-DD'. */
export function isoDate(date: Date): string {
  return format(date, 'yyyy-MM-dd');
}

/** Bookable days run from today to 90 days ahead (local days). */
export function bookingWindow(now: Date = new Date()): { first: Date; last: Date } {
  const first = startOfDay(now);
  return { first, last: addDays(first, BOOKING_WINDOW_DAYS) };
}

import { format } from 'date-fns';

/** Dates read 'MMM dd, yyyy'; with a time, 'h:mm a'. */
export const DATE_FORMAT = 'MMM dd, yyyy';
export const TIME_FORMAT = 'h:mm a';

export function formatDate(value: Date | string): string {
  return format(typeof value === 'string' ? new Date(value) : value, DATE_FORMAT);
}

export function formatTime(value: Date | string): string {
  return format(typeof value === 'string' ? new Date(value) : value, TIME_FORMAT);
}

export function formatDateTime(value: Date | string): string {
  return `${formatDate(value)} ${formatTime(value)}`;
}

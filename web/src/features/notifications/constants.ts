/** The /notifications page lists up to the api's maximum (GET /api/notifications allows 1..100). */
export const NOTIFICATIONS_PAGE_LIMIT = 100;

/** 'Mark all as read (n)'. */
export function markAllReadLabel(unread: number): string {
  return `Mark all as read (${unread})`;
}

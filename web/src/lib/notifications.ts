/**
 * The notification calls (docs/booking.md 'Notifications'): the list, the unread count,
 * mark one or all read, delete. The header's bell and the /notifications page both use them, so
 * they live here rather than in one feature. They go through the client orval generates from
 * openapi.yaml (src/api); the keys are lib/query-keys' notificationKeys.
 *
 * The list and the count are polled every 30 s. Every change refreshes both.
 */
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  deleteNotification,
  getUnreadNotificationCount,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
} from '@/api/endpoints/notifications/notifications';
import type { ListNotificationsParams, NotificationView } from '@/api/model';
import { hardNavigate } from './navigation';
import { notificationKeys } from './query-keys';
import { useRealtimeEvent } from './realtime/provider';

/** The bell polls the unread count every 30 s and lists the 10 newest notifications. */
export const NOTIFICATIONS_POLL_MS = 30_000;
export const NOTIFICATIONS_LIST_LIMIT = 10;

/** The fixed texts of the notification bell and the /notifications page. */
export const NOTIFICATION_TEXT = {
  loadFailedTitle: 'Unable to Load Notifications',
  fetchFailed: 'Failed to fetch notifications',
  countFailed: 'Failed to fetch unread count',
  markReadFailed: 'Failed to mark notification as read',
  markAllReadFailed: 'Failed to mark all notifications as read',
  deleteFailed: 'Failed to delete notification',
  allMarkedRead: 'All notifications marked as read',
  deleted: 'Notification deleted',
  emptyAll: 'No notifications yet',
  emptyUnread: 'No unread notifications',
  emptyRead: 'No read notifications',
} as const;

export const NOTIFICATION_TYPES = [
  'booking_confirmed',
  'booking_cancelled',
  'booking_rescheduled',
  'booking_reminder',
  'new_message',
  'new_review',
  'mentor_approved',
  'payment_received',
  'payment_failed',
  'system_announcement',
  'payout_destination_changed',
  'removed_from_session',
  'mentor_rejected',
  'calendar_failing',
] as const;

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** `type` is one of {@link NOTIFICATION_TYPES} (a newer server may send others); actionUrl may be null. */
export type Notification = Omit<NotificationView, 'actionUrl'> & { actionUrl?: string | null };

export type { ListNotificationsParams };

export { notificationKeys };

type Opts = { signal?: AbortSignal };

export const notificationsApi = {
  list: (params: ListNotificationsParams, { signal }: Opts = {}): Promise<Notification[]> =>
    listNotifications(params, { signal }),
  unreadCount: ({ signal }: Opts = {}) => getUnreadNotificationCount({ signal }),
  markRead: (id: string) => markNotificationRead(id),
  markAllRead: () => markAllNotificationsRead(),
  remove: (id: string) => deleteNotification(id),
};

export const notificationQueries = {
  list: (params: ListNotificationsParams) =>
    queryOptions({
      queryKey: notificationKeys.list(params),
      queryFn: ({ signal }) => notificationsApi.list(params, { signal }),
    }),
  unreadCount: () =>
    queryOptions({
      queryKey: notificationKeys.unreadCount(),
      queryFn: ({ signal }) => notificationsApi.unreadCount({ signal }),
    }),
};

/** GET /api/notifications?limit=n, newest first, polled every 30 s. */
export function useNotifications(
  limit: number = NOTIFICATIONS_LIST_LIMIT,
  { enabled = true }: { enabled?: boolean } = {},
) {
  const params = { limit };
  return useQuery({
    ...notificationQueries.list(params),
    refetchInterval: NOTIFICATIONS_POLL_MS,
    enabled,
  });
}

/** GET /api/notifications/unread-count, polled every 30 s; the number itself. */
export function useUnreadNotificationCount({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    ...notificationQueries.unreadCount(),
    select: (data) => data.count,
    refetchInterval: NOTIFICATIONS_POLL_MS,
    enabled,
  });
}

function useRefreshNotifications() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: notificationKeys.all() }),
      queryClient.invalidateQueries({ queryKey: notificationKeys.unreadCount() }),
    ]);
}

/** PUT /api/notifications/{id}/read. */
export function useMarkNotificationRead() {
  const refresh = useRefreshNotifications();
  return useMutation({
    mutationFn: (id: string) => notificationsApi.markRead(id),
    onSettled: () => refresh(),
  });
}

/** PUT /api/notifications/read-all. */
export function useMarkAllNotificationsRead() {
  const refresh = useRefreshNotifications();
  return useMutation({
    mutationFn: () => notificationsApi.markAllRead(),
    onSettled: () => refresh(),
  });
}

/** DELETE /api/notifications/{id}. */
export function useDeleteNotification() {
  const refresh = useRefreshNotifications();
  return useMutation({
    mutationFn: (id: string) => notificationsApi.remove(id),
    onSettled: () => refresh(),
  });
}

/**
 * Follows a notification's actionUrl: an in-app path through the router, an http(s) address as a
 * full navigation; anything else (a `javascript:` address, say) is ignored.
 */
export function followActionUrl(actionUrl: string, navigate: (to: string) => void): void {
  if (actionUrl.startsWith('/') && !actionUrl.startsWith('//')) {
    navigate(actionUrl);
    return;
  }
  try {
    const url = new URL(actionUrl);
    if (url.protocol === 'http:' || url.protocol === 'https:') hardNavigate(url.href);
  } catch {
    // not an address: nothing to follow
  }
}

/**
 * A notification pushed over the real-time channel: shown at once in every cached list (the bell's
 * and the /notifications page's) and counted as unread, then both are reloaded from the server.
 * Polling every 30 s stays as the fallback.
 */
export function addLiveNotification(queryClient: QueryClient, notification: Notification): Promise<unknown> {
  for (const [key, list] of queryClient.getQueriesData<Notification[]>({ queryKey: notificationKeys.all() })) {
    if (!Array.isArray(list) || list.some((n) => n.id === notification.id)) continue;
    const params = key[1] as ListNotificationsParams | undefined;
    const next = [notification, ...list];
    queryClient.setQueryData(key, params?.limit ? next.slice(0, params.limit) : next);
  }
  if (!notification.isRead) {
    queryClient.setQueryData<{ count: number }>(notificationKeys.unreadCount(), (old) =>
      old ? { ...old, count: old.count + 1 } : old,
    );
  }
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: notificationKeys.all() }),
    queryClient.invalidateQueries({ queryKey: notificationKeys.unreadCount() }),
  ]);
}

/** Keeps the bell and /notifications current with the live `notification` event. */
export function useLiveNotifications(): void {
  const queryClient = useQueryClient();
  useRealtimeEvent('notification', (notification) => void addLiveNotification(queryClient, notification));
}

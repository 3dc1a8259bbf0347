import { Bell, CheckCheck, CircleAlert, Inbox, MailOpen, RefreshCw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { NotificationIcon } from '@/components/notification-icon';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { markAllReadLabel, NOTIFICATIONS_PAGE_LIMIT } from './constants';
import { PushSettings } from './push-settings';
import { NOTIFICATION_TEXT } from '@/lib/notifications';
import { errorMessage } from '@/lib/api-fetch';
import { formatDateTime } from '@/lib/format';
import {
  followActionUrl,
  useDeleteNotification,
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
  useNotifications,
  useUnreadNotificationCount,
  type Notification,
} from '@/lib/notifications';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';

type Filter = 'all' | 'unread' | 'read';

const TABS: { value: Filter; label: string; empty: string }[] = [
  { value: 'all', label: 'All', empty: NOTIFICATION_TEXT.emptyAll },
  { value: 'unread', label: 'Unread', empty: NOTIFICATION_TEXT.emptyUnread },
  { value: 'read', label: 'Read', empty: NOTIFICATION_TEXT.emptyRead },
];

/** The notifications a tab shows. */
export function filterNotifications(list: Notification[], filter: Filter): Notification[] {
  if (filter === 'unread') return list.filter((n) => !n.isRead);
  if (filter === 'read') return list.filter((n) => n.isRead);
  return list;
}

/**
 * /notifications: tabs All, Unread and Read with counts, 'Mark all as read (n)', delete per
 * item; a click marks one read and follows its actionUrl. List and count are polled every 30 s.
 */
export function NotificationsPage() {
  useDocumentTitle('Notifications');
  const [tab, setTab] = useState<Filter>('all');
  const list = useNotifications(NOTIFICATIONS_PAGE_LIMIT);
  const count = useUnreadNotificationCount();
  const markAll = useMarkAllNotificationsRead();

  const notifications = list.data ?? [];
  const unreadListed = notifications.filter((n) => !n.isRead).length;
  // The server's count also covers notifications beyond the listed ones.
  const unread = Math.max(count.data ?? 0, unreadListed);
  const counts: Record<Filter, number> = {
    all: notifications.length,
    unread: unreadListed,
    read: notifications.length - unreadListed,
  };

  const markAllRead = () =>
    markAll.mutate(undefined, {
      onSuccess: () => toast.success(NOTIFICATION_TEXT.allMarkedRead),
      onError: (error) =>
        toast.error('Error', { description: errorMessage(error, NOTIFICATION_TEXT.markAllReadFailed) }),
    });

  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 lg:px-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div className="flex items-center gap-3">
          <span className="inline-flex h-11 w-11 items-center justify-center rounded-xl bg-indigo-50 text-indigo-600">
            <Bell aria-hidden="true" className="h-6 w-6" />
          </span>
          <div>
            <h1 className="font-display text-3xl font-semibold tracking-tight text-slate-900">Notifications</h1>
            <p className="text-sm text-slate-600">Booking updates, new messages and announcements.</p>
          </div>
        </div>
        {list.isSuccess && (
          <Button variant="outline" onClick={markAllRead} disabled={unread === 0 || markAll.isPending}>
            <CheckCheck aria-hidden="true" className="h-4 w-4" />
            {markAllReadLabel(unread)}
          </Button>
        )}
      </div>

      <div className="mt-8">
        {list.isLoading ? (
          <ul aria-busy="true" aria-label="Loading notifications" className="space-y-3">
            {Array.from({ length: 4 }, (_, i) => (
              <li key={i}>
                <Card className="flex gap-4 p-4">
                  <Skeleton className="h-9 w-9 rounded-full" />
                  <div className="flex-1 space-y-2">
                    <Skeleton className="h-4 w-1/2" />
                    <Skeleton className="h-3 w-5/6" />
                  </div>
                </Card>
              </li>
            ))}
          </ul>
        ) : list.isError ? (
          <StateCard
            tone="error"
            icon={CircleAlert}
            title={NOTIFICATION_TEXT.loadFailedTitle}
            actions={
              <Button onClick={() => void list.refetch()} disabled={list.isFetching}>
                <RefreshCw aria-hidden="true" className="h-4 w-4" />
                Retry
              </Button>
            }
          >
            {errorMessage(list.error, NOTIFICATION_TEXT.fetchFailed)}
          </StateCard>
        ) : (
          <Tabs value={tab} onValueChange={(v) => setTab(v as Filter)}>
            <TabsList aria-label="Filter notifications" className="overflow-visible">
              {TABS.map((t) => (
                <TabsTrigger key={t.value} value={t.value} variant="segment">
                  {t.label} ({counts[t.value]})
                </TabsTrigger>
              ))}
            </TabsList>
            {TABS.map((t) => {
              const shown = filterNotifications(notifications, t.value);
              return (
                <TabsContent key={t.value} value={t.value}>
                  {shown.length === 0 ? (
                    <StateCard icon={t.value === 'unread' ? MailOpen : Inbox} title={t.empty} as="h2">
                      {t.value === 'all'
                        ? 'Booking updates, new messages and announcements will appear here.'
                        : undefined}
                    </StateCard>
                  ) : (
                    <ul aria-label={`${t.label} notifications`} className="space-y-3">
                      {shown.map((notification) => (
                        <li key={notification.id}>
                          <NotificationRow notification={notification} />
                        </li>
                      ))}
                    </ul>
                  )}
                </TabsContent>
              );
            })}
          </Tabs>
        )}
      </div>

      <section className="mt-10" aria-label="Notification settings">
        <PushSettings />
      </section>
    </div>
  );
}

function NotificationRow({ notification }: { notification: Notification }) {
  const navigate = useNavigate();
  const markRead = useMarkNotificationRead();
  const remove = useDeleteNotification();

  const open = () => {
    if (!notification.isRead) {
      markRead.mutate(notification.id, {
        onError: (error) =>
          toast.error('Error', { description: errorMessage(error, NOTIFICATION_TEXT.markReadFailed) }),
      });
    }
    if (notification.actionUrl) followActionUrl(notification.actionUrl, navigate);
  };

  const deleteIt = () =>
    remove.mutate(notification.id, {
      onSuccess: () => toast.success(NOTIFICATION_TEXT.deleted),
      onError: (error) => toast.error('Error', { description: errorMessage(error, NOTIFICATION_TEXT.deleteFailed) }),
    });

  return (
    <Card
      data-unread={notification.isRead ? undefined : 'true'}
      className={cn(
        'flex items-start gap-2 p-2 transition-colors',
        !notification.isRead && 'border-indigo-200 bg-indigo-50/60',
      )}
    >
      <button
        type="button"
        onClick={open}
        className="flex min-w-0 flex-1 items-start gap-3 rounded-xl p-2 text-left hover:bg-slate-50/80"
      >
        <NotificationIcon type={notification.type} />
        <span className="min-w-0 flex-1">
          <span className="flex items-center gap-2">
            <span
              className={cn(
                'truncate text-sm',
                notification.isRead ? 'font-medium text-slate-700' : 'font-semibold text-slate-900',
              )}
            >
              {notification.title}
            </span>
            {!notification.isRead && (
              <span className="shrink-0 rounded-full bg-indigo-600 px-2 py-0.5 text-[11px] font-semibold text-white">
                Unread
              </span>
            )}
          </span>
          <span className="mt-0.5 block text-sm text-slate-600">{notification.message}</span>
          <span className="mt-1 block text-xs text-slate-600">{formatDateTime(notification.createdAt)}</span>
        </span>
      </button>
      <Button
        variant="ghost"
        size="icon"
        onClick={deleteIt}
        disabled={remove.isPending}
        aria-label={`Delete notification: ${notification.title}`}
        className="shrink-0 text-slate-400 hover:text-rose-600"
      >
        <Trash2 aria-hidden="true" className="h-4 w-4" />
      </Button>
    </Card>
  );
}

export default NotificationsPage;

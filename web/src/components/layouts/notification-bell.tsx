import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Bell, CircleAlert } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { NotificationIcon } from '@/components/notification-icon';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { badgeCount } from '@/config/constants';
import { NOTIFICATION_TEXT, NOTIFICATIONS_LIST_LIMIT } from '@/lib/notifications';
import { errorMessage } from '@/lib/api-fetch';
import { formatDateTime } from '@/lib/format';
import {
  followActionUrl,
  useLiveNotifications,
  useMarkNotificationRead,
  useNotifications,
  useUnreadNotificationCount,
  type Notification,
} from '@/lib/notifications';
import { cn } from '@/lib/utils';

/**
 * Header: the bell with the unread count ('99+' above 99) that opens the latest
 * notifications (GET /api/notifications?limit=10; list and count polled every 30 s). Clicking one
 * marks it read when unread and follows its actionUrl; the last entry leads to /notifications.
 */
export function NotificationBell() {
  const navigate = useNavigate();
  useLiveNotifications();
  const count = useUnreadNotificationCount();
  const list = useNotifications(NOTIFICATIONS_LIST_LIMIT);
  const markRead = useMarkNotificationRead();
  const unread = count.data ?? 0;

  const open = (notification: Notification) => {
    if (!notification.isRead) {
      markRead.mutate(notification.id, {
        onError: (error) =>
          toast.error('Error', { description: errorMessage(error, NOTIFICATION_TEXT.markReadFailed) }),
      });
    }
    if (notification.actionUrl) followActionUrl(notification.actionUrl, navigate);
  };

  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <Button
          variant="ghost"
          size="icon"
          // The badge's number is on screen, so it is part of the name (WCAG 2.5.3, label in name).
          aria-label={unread > 0 ? `Notifications, ${badgeCount(unread)} unread` : 'Notifications'}
          className="relative"
        >
          <Bell aria-hidden="true" className="h-5 w-5" />
          {unread > 0 && (
            <span
              aria-hidden="true"
              data-testid="notification-badge"
              className="absolute -right-0.5 -top-0.5 inline-flex min-w-5 items-center justify-center rounded-full bg-rose-600 px-1 text-[11px] font-semibold leading-5 text-white ring-2 ring-white"
            >
              {badgeCount(unread)}
            </span>
          )}
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          aria-label="Latest notifications"
          className="z-50 w-[22rem] max-w-[calc(100vw-1.5rem)] rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg shadow-slate-300/40 animate-fade-in"
        >
          <div className="flex items-baseline justify-between gap-2 px-3 py-2">
            <p className="text-sm font-semibold text-slate-900">Notifications</p>
            {count.isError ? (
              <p className="text-xs text-rose-600">{NOTIFICATION_TEXT.countFailed}</p>
            ) : (
              unread > 0 && <p className="text-xs text-slate-500">{badgeCount(unread)} unread</p>
            )}
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-100" />
          <div className="max-h-96 overflow-y-auto">
            {list.isLoading ? (
              <div className="flex justify-center py-6">
                <Spinner label="Loading notifications" className="h-6 w-6 text-indigo-600" />
              </div>
            ) : list.isError ? (
              <p role="alert" className="flex items-center gap-2 px-3 py-4 text-sm text-rose-700">
                <CircleAlert aria-hidden="true" className="h-4 w-4 shrink-0" />
                {errorMessage(list.error, NOTIFICATION_TEXT.fetchFailed)}
              </p>
            ) : !list.data || list.data.length === 0 ? (
              <p className="px-3 py-6 text-center text-sm text-slate-500">{NOTIFICATION_TEXT.emptyAll}</p>
            ) : (
              list.data.map((notification) => (
                <DropdownMenu.Item
                  key={notification.id}
                  onSelect={() => open(notification)}
                  className={cn(
                    'flex cursor-pointer gap-3 rounded-lg px-3 py-2.5 outline-none data-[highlighted]:bg-slate-100',
                    !notification.isRead && 'bg-indigo-50/70',
                  )}
                >
                  <NotificationIcon type={notification.type} />
                  <div className="min-w-0 flex-1">
                    <p
                      className={cn(
                        'truncate text-sm',
                        notification.isRead ? 'font-medium text-slate-700' : 'font-semibold text-slate-900',
                      )}
                    >
                      {!notification.isRead && <span className="sr-only">Unread: </span>}
                      {notification.title}
                    </p>
                    <p className="line-clamp-2 text-xs text-slate-600">{notification.message}</p>
                    <p className="mt-0.5 text-[11px] text-slate-500">{formatDateTime(notification.createdAt)}</p>
                  </div>
                  {!notification.isRead && (
                    <span aria-hidden="true" className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-indigo-600" />
                  )}
                </DropdownMenu.Item>
              ))
            )}
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-100" />
          <DropdownMenu.Item asChild>
            <Link
              to="/notifications"
              className="block rounded-lg px-3 py-2 text-center text-sm font-medium text-indigo-700 outline-none data-[highlighted]:bg-indigo-50"
            >
              View all notifications
            </Link>
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

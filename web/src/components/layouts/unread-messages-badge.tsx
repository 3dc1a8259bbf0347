import { badgeCount } from '@/config/constants';
import { useUnreadMessageCount } from '@/lib/unread-messages';
import { cn } from '@/lib/utils';

/** The number of unread messages ('99+' above 99) beside the Messages link; nothing when zero. */
export function UnreadMessagesBadge({ floating = false }: { floating?: boolean }) {
  const count = useUnreadMessageCount();
  const unread = count.data ?? 0;
  if (unread <= 0) return null;
  return (
    <span
      data-testid="messages-badge"
      className={cn(
        'inline-flex min-w-5 items-center justify-center rounded-full bg-rose-600 px-1 text-[11px] font-semibold leading-5 text-white',
        floating ? 'absolute -right-0.5 -top-0.5 ring-2 ring-white' : 'ml-1.5 align-middle',
      )}
    >
      {badgeCount(unread)}
      <span className="sr-only"> unread</span>
    </span>
  );
}

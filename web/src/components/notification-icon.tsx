import {
  AlarmClock,
  BadgeCheck,
  Bell,
  CalendarCheck,
  CalendarClock,
  CalendarX,
  CreditCard,
  Megaphone,
  MessageCircle,
  Star,
  UserX,
  Wallet,
  type LucideIcon,
  ShieldAlert,
} from 'lucide-react';
import type { NotificationType } from '@/lib/notifications';
import { cn } from '@/lib/utils';

type IconStyle = { icon: LucideIcon; tone: string };

/** Each type has an icon. */
export const NOTIFICATION_ICONS: Record<NotificationType, IconStyle> = {
  booking_confirmed: { icon: CalendarCheck, tone: 'bg-emerald-50 text-emerald-600' },
  booking_cancelled: { icon: CalendarX, tone: 'bg-rose-50 text-rose-600' },
  booking_rescheduled: { icon: CalendarClock, tone: 'bg-amber-50 text-amber-600' },
  booking_reminder: { icon: AlarmClock, tone: 'bg-indigo-50 text-indigo-600' },
  new_message: { icon: MessageCircle, tone: 'bg-sky-50 text-sky-600' },
  new_review: { icon: Star, tone: 'bg-amber-50 text-amber-500' },
  mentor_approved: { icon: BadgeCheck, tone: 'bg-violet-50 text-violet-600' },
  payment_received: { icon: Wallet, tone: 'bg-emerald-50 text-emerald-600' },
  payment_failed: { icon: CreditCard, tone: 'bg-rose-50 text-rose-600' },
  system_announcement: { icon: Megaphone, tone: 'bg-slate-100 text-slate-600' },
  payout_destination_changed: { icon: ShieldAlert, tone: 'bg-amber-50 text-amber-600' },
  removed_from_session: { icon: UserX, tone: 'bg-rose-50 text-rose-600' },
  mentor_rejected: { icon: ShieldAlert, tone: 'bg-rose-50 text-rose-600' },
  calendar_failing: { icon: CalendarX, tone: 'bg-amber-50 text-amber-600' },
};

/** Unknown types get a default icon (the bell). */
export const DEFAULT_NOTIFICATION_ICON: IconStyle = { icon: Bell, tone: 'bg-slate-100 text-slate-600' };

export function notificationIcon(type: string): IconStyle {
  return Object.hasOwn(NOTIFICATION_ICONS, type)
    ? NOTIFICATION_ICONS[type as NotificationType]
    : DEFAULT_NOTIFICATION_ICON;
}

/** The round, decorative icon of a notification (its title says what it is). */
export function NotificationIcon({ type, className }: { type: string; className?: string }) {
  const { icon: Icon, tone } = notificationIcon(type);
  return (
    <span
      aria-hidden="true"
      className={cn('inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-full', tone, className)}
    >
      <Icon className="h-4 w-4" />
    </span>
  );
}

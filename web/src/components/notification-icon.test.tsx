import { render } from '@testing-library/react';
import { Bell, CalendarCheck, CreditCard, Megaphone } from 'lucide-react';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TYPES } from '@/lib/notifications';
import { DEFAULT_NOTIFICATION_ICON, NOTIFICATION_ICONS, NotificationIcon, notificationIcon } from './notification-icon';

describe('notification icons', () => {
  it('give every known type its own icon, none of them the default', () => {
    for (const type of NOTIFICATION_TYPES) {
      expect(NOTIFICATION_ICONS[type]).toBeDefined();
      expect(notificationIcon(type).icon).not.toBe(DEFAULT_NOTIFICATION_ICON.icon);
    }
    expect(notificationIcon('booking_confirmed').icon).toBe(CalendarCheck);
    expect(notificationIcon('payment_failed').icon).toBe(CreditCard);
    expect(notificationIcon('system_announcement').icon).toBe(Megaphone);
  });

  it('fall back to the default bell for unknown types, including names of object properties', () => {
    expect(DEFAULT_NOTIFICATION_ICON.icon).toBe(Bell);
    expect(notificationIcon('something_new')).toBe(DEFAULT_NOTIFICATION_ICON);
    expect(notificationIcon('')).toBe(DEFAULT_NOTIFICATION_ICON);
    expect(notificationIcon('toString')).toBe(DEFAULT_NOTIFICATION_ICON);
    expect(notificationIcon('__proto__')).toBe(DEFAULT_NOTIFICATION_ICON);
  });

  it('render the default bell for an unknown type and hide it from screen readers', () => {
    const { container } = render(<NotificationIcon type="galactic_alignment" />);
    expect(container.querySelector('svg.lucide-bell')).not.toBeNull();
    expect(container.firstElementChild).toHaveAttribute('aria-hidden', 'true');
    const known = render(<NotificationIcon type="new_review" />);
    expect(known.container.querySelector('svg.lucide-star')).not.toBeNull();
  });
});

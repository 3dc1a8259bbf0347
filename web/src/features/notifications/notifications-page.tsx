import { Bell } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function NotificationsPage() {
  return (
    <ComingSoon
      title="Notifications"
      description="Booking updates, new messages and announcements will be listed here."
      icon={Bell}
    />
  );
}

export default NotificationsPage;

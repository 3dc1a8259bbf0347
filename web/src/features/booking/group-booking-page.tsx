import { Users } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function GroupBookingPage() {
  return (
    <ComingSoon
      title="Group Session Booking"
      description="Complete your seat reservation for a group session here."
      icon={Users}
      back={{ to: '/group-sessions', label: 'Back to Group Sessions' }}
    />
  );
}

export default GroupBookingPage;

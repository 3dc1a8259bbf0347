import { LayoutDashboard } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function MentorDashboardPage() {
  return (
    <ComingSoon
      title="Mentor Dashboard"
      description="Manage your bookings, services, group sessions, availability, payouts and profile in one place."
      icon={LayoutDashboard}
    />
  );
}

export default MentorDashboardPage;

import { LayoutDashboard } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function DashboardPage() {
  return (
    <ComingSoon
      title="My Dashboard"
      description="Your upcoming sessions, session history, profile and email preferences will live here."
      icon={LayoutDashboard}
    />
  );
}

export default DashboardPage;

import { Users } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function GroupSessionsPage() {
  return (
    <ComingSoon
      title="Group Sessions"
      description="Join upcoming group sessions led by our mentors: shared experience, better value, expert guidance."
      icon={Users}
    />
  );
}

export default GroupSessionsPage;

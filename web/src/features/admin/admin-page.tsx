import { ShieldCheck } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function AdminPage() {
  return (
    <ComingSoon
      title="Admin Dashboard"
      description="Platform statistics, users, mentors and bookings for administrators."
      icon={ShieldCheck}
    />
  );
}

export default AdminPage;

import { Wallet } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function AdminPayoutsPage() {
  return (
    <ComingSoon
      title="Admin Payouts"
      description="Pending mentor payouts and payout history for administrators."
      icon={Wallet}
      back={{ to: '/admin', label: 'Back to Admin' }}
    />
  );
}

export default AdminPayoutsPage;

import { LifeBuoy } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function HelpCenterPage() {
  return (
    <ComingSoon
      title="Help Center"
      description="Answers to common questions and ways to reach our support team will be collected here."
      icon={LifeBuoy}
    />
  );
}

export default HelpCenterPage;

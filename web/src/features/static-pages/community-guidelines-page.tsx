import { HeartHandshake } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function CommunityGuidelinesPage() {
  return (
    <ComingSoon
      title="Community Guidelines"
      description="The values and rules that keep our community safe and respectful will be published here."
      icon={HeartHandshake}
    />
  );
}

export default CommunityGuidelinesPage;

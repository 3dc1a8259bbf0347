import { Sparkles } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function BecomeMentorPage() {
  return (
    <ComingSoon
      title="Become a Mentor"
      description="Apply in three steps: tell seekers about yourself, describe your services, and start receiving bookings."
      icon={Sparkles}
    />
  );
}

export default BecomeMentorPage;

import { User } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function MentorProfilePage() {
  return (
    <ComingSoon
      title="Mentor Profile"
      description="A mentor's story, services, reviews and booking options will appear here."
      icon={User}
      back={{ to: '/mentors', label: 'Browse Mentors' }}
    />
  );
}

export default MentorProfilePage;

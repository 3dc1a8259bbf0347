import { Compass } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function MentorsPage() {
  return (
    <ComingSoon
      title="Find a Mentor"
      description="Search mentors by name or tradition, filter by service and save your favourites. The mentor directory opens soon."
      icon={Compass}
    />
  );
}

export default MentorsPage;

import { User } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function PublicProfilePage() {
  return (
    <ComingSoon
      title="Profile"
      description="A member's public profile will appear here."
      icon={User}
    />
  );
}

export default PublicProfilePage;

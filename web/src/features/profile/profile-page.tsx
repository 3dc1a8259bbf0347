import { User } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function ProfilePage() {
  return (
    <ComingSoon
      title="My Profile"
      description="View and edit your profile, upload a photo and change your password."
      icon={User}
    />
  );
}

export default ProfilePage;

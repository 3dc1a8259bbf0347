import { Video } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function GroupVideoCallPage() {
  return (
    <ComingSoon
      title="Group Video Call"
      description="Live group sessions with video, audio and screen sharing will take place here."
      icon={Video}
      back={{ to: '/group-sessions', label: 'Back to Sessions' }}
    />
  );
}

export default GroupVideoCallPage;

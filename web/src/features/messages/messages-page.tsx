import { MessageCircle } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function MessagesPage() {
  return (
    <ComingSoon
      title="Messages"
      description="Private conversations and video calls with your mentors will appear here."
      icon={MessageCircle}
    />
  );
}

export default MessagesPage;

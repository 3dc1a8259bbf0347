import { CalendarCheck } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function BookingPage() {
  return (
    <ComingSoon
      title="Book a Session"
      description="Choose a time that suits you and confirm your session with secure card payment."
      icon={CalendarCheck}
      back={{ to: '/mentors', label: 'Browse Mentors' }}
    />
  );
}

export default BookingPage;

import { Mail } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function ContactPage() {
  return (
    <ComingSoon
      title="Contact Us"
      description="A contact form for our support team is on its way. Support replies within 24 hours."
      icon={Mail}
    />
  );
}

export default ContactPage;

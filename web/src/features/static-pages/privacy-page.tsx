import { Lock } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function PrivacyPolicyPage() {
  return (
    <ComingSoon
      title="Privacy Policy"
      description="How we collect, use and protect your information will be published here."
      icon={Lock}
    />
  );
}

export default PrivacyPolicyPage;

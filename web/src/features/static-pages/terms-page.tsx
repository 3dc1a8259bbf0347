import { FileText } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function TermsOfServicePage() {
  return (
    <ComingSoon
      title="Terms of Service"
      description="The terms that govern the use of our platform are being finalised and will be published here."
      icon={FileText}
    />
  );
}

export default TermsOfServicePage;

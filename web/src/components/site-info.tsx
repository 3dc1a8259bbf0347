import { useSiteInfo } from '@/lib/site-info';

// The platform's own facts in running text, from GET /api/site-info (nothing shows until it answers).

function MailTo({ address, className }: { address: string | undefined; className?: string }) {
  if (!address) return null;
  return (
    <a href={`mailto:${address}`} className={className}>
      {address}
    </a>
  );
}

export function SupportEmailLink({ className }: { className?: string }) {
  return <MailTo address={useSiteInfo().data?.supportEmail} className={className} />;
}

export function PrivacyEmailLink({ className }: { className?: string }) {
  return <MailTo address={useSiteInfo().data?.privacyEmail} className={className} />;
}

/** The platform fee as '15%'. */
export function PlatformFeePercent() {
  const fee = useSiteInfo().data?.platformFeePercent;
  return fee === undefined ? null : <>{fee}%</>;
}

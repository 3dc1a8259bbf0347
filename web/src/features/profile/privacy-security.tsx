import { LockKeyhole } from 'lucide-react';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { DataExportSection } from './data-export';
import { DeleteAccountSection, DeletionBanner } from './delete-account';
import { SessionList } from './session-list';
import { TwoFactorSettings } from './two-factor-settings';

/** The id of the section, linked from the 'New sign-in to your account' e-mail. */
export const PRIVACY_AND_SECURITY = 'privacy-and-security';

/**
 * The account page's 'Privacy and security': a copy of one's data, two-factor sign-in, where the
 * account is signed in, and deleting it (or, while a deletion is scheduled, keeping it).
 */
export function PrivacyAndSecurity({
  twoFactorEnabled,
  deletionScheduledAt = null,
}: {
  twoFactorEnabled: boolean;
  deletionScheduledAt?: string | null;
}) {
  const { hash } = useLocation();
  // The section appears after the profile loads, too late for the browser's own jump to the anchor.
  useEffect(() => {
    if (hash === `#${PRIVACY_AND_SECURITY}`) document.getElementById(PRIVACY_AND_SECURITY)?.scrollIntoView?.();
  }, [hash]);
  return (
    <Card id={PRIVACY_AND_SECURITY}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <LockKeyhole aria-hidden="true" className="h-5 w-5 text-indigo-600" />
          Privacy and security
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-6">
        {deletionScheduledAt && <DeletionBanner deletionScheduledAt={deletionScheduledAt} />}
        <section aria-labelledby="download-my-data">
          <h3 id="download-my-data" className="mb-2 text-sm font-semibold text-slate-900">
            Download my data
          </h3>
          <DataExportSection />
        </section>
        <section aria-labelledby="two-factor-sign-in">
          <h3 id="two-factor-sign-in" className="mb-2 text-sm font-semibold text-slate-900">
            Two-factor sign-in
          </h3>
          <TwoFactorSettings enabled={twoFactorEnabled} />
        </section>
        <section aria-labelledby="signed-in-devices">
          <h3 id="signed-in-devices" className="mb-2 text-sm font-semibold text-slate-900">
            Where you are signed in
          </h3>
          <SessionList />
        </section>
        {!deletionScheduledAt && (
          <section aria-labelledby="delete-my-account">
            <h3 id="delete-my-account" className="mb-2 text-sm font-semibold text-rose-700">
              Delete my account
            </h3>
            <DeleteAccountSection />
          </section>
        )}
      </CardContent>
    </Card>
  );
}

import { Lock } from 'lucide-react';
import { Link } from 'react-router';
import { APP_NAME } from '@/config/constants';
import {
  COMMUNICATION_LOGS_RETENTION_YEARS,
  MINIMUM_AGE,
  POLICIES_LAST_UPDATED,
  TRANSACTION_RECORDS_RETENTION_YEARS,
} from './policy-facts';
import { PrivacyEmailLink } from '@/components/site-info';
import { BackToHome, LegalSection, StaticPage } from './static-page';

/** /privacy-policy, static, last updated November 2026. */
export function PrivacyPolicyPage() {
  return (
    <StaticPage
      title="Privacy Policy"
      icon={Lock}
      intro={
        <p>
          Sessions with a mentor are personal. This policy explains what information {APP_NAME} collects, why, how long
          we keep it and the choices you have.
        </p>
      }
      meta={`Last updated ${POLICIES_LAST_UPDATED}`}
    >
      <LegalSection id="privacy-collect" title="1. Information we collect">
        <ul>
          <li>
            <strong>Account details:</strong> your name, e-mail address and password (stored only as a secure hash,
            never in readable form).
          </li>
          <li>
            <strong>Profile:</strong> what you choose to add, such as a photo and a short bio; for mentors also the
            display name, specialties, services, prices, availability and payout details.
          </li>
          <li>
            <strong>Bookings and payments:</strong> the sessions you book or offer, their times and amounts, refunds and
            payouts.
          </li>
          <li>
            <strong>Communications:</strong> messages you exchange on the platform, records of calls (who took part and
            when), reviews and the requests you send to our support team.
          </li>
          <li>
            <strong>Technical data:</strong> the information your browser sends with each request, such as IP address
            and browser type, used to keep the service running and secure.
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="privacy-cards" title="2. Card payments">
        <p>
          We never store your card number. Card details go straight to our payment gateway, which processes the payment;
          we keep only the result and a reference to the transaction.
        </p>
      </LegalSection>

      <LegalSection id="privacy-use" title="3. How we use your information">
        <ul>
          <li>To run your account, show your profile and connect seekers with mentors.</li>
          <li>To take bookings, process payments and refunds, and pay mentors their earnings.</li>
          <li>
            To send the e-mails you need (verification, booking confirmations and reminders) and, if you allow it in
            your e-mail preferences, news from {APP_NAME}.
          </li>
          <li>To answer support requests, handle reports and keep the community safe.</li>
          <li>To meet our legal, tax and accounting obligations.</li>
        </ul>
        <p>We do not sell your personal information.</p>
      </LegalSection>

      <LegalSection id="privacy-sharing" title="4. Who can see it">
        <ul>
          <li>
            <strong>Other members:</strong> your name, photo and bio on your profile; your e-mail address stays private.
            A mentor you book sees your name, the booking and any notes you add.
          </li>
          <li>
            <strong>Service providers:</strong> the payment gateway, e-mail delivery and hosting partners, who process
            data only on our instructions.
          </li>
          <li>
            <strong>Authorities:</strong> when the law requires it, or to protect someone from serious harm.
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="privacy-video" title="5. Video sessions">
        <p>
          Video and audio in sessions travel directly between participants' browsers where possible. {APP_NAME} does not
          record sessions. Your browser asks for permission before using your camera or microphone.
        </p>
      </LegalSection>

      <LegalSection id="privacy-retention" title="6. How long we keep it">
        <ul>
          <li>
            Transaction records (bookings, payments, refunds and payouts): {TRANSACTION_RECORDS_RETENTION_YEARS} years,
            as accounting and tax rules require.
          </li>
          <li>
            Communication logs (messages, call records and support requests): {COMMUNICATION_LOGS_RETENTION_YEARS}{' '}
            years, so that we can look into reports and disputes.
          </li>
          <li>Account and profile details: for as long as your account is open.</li>
        </ul>
      </LegalSection>

      <LegalSection id="privacy-security" title="7. Security">
        <p>
          Passwords are hashed, connections to the platform are encrypted (HTTPS), and your session is kept in a secure
          cookie that scripts on the page cannot read. Only staff who need access to help you or to run the service have
          it.
        </p>
      </LegalSection>

      <LegalSection id="privacy-cookies" title="8. Cookies">
        <p>
          We use one essential cookie to keep you signed in. We do not use advertising or cross-site tracking cookies.
        </p>
      </LegalSection>

      <LegalSection id="privacy-choices" title="9. Your choices and rights">
        <ul>
          <li>
            See and correct your details at any time on your <Link to="/profile">profile</Link>.
          </li>
          <li>Choose which e-mails you receive in the e-mail preferences of your dashboard.</li>
          <li>
            Ask for a copy of your data, or for your account to be deleted, by writing to <PrivacyEmailLink />. Records
            we must keep by law are kept for the periods above.
          </li>
        </ul>
      </LegalSection>

      <LegalSection id="privacy-children" title="10. Children">
        <p>
          {APP_NAME} is for adults aged {MINIMUM_AGE} and over. We do not knowingly collect information from anyone
          younger; if you believe a child has an account, please tell us.
        </p>
      </LegalSection>

      <LegalSection id="privacy-changes" title="11. Changes to this policy">
        <p>
          If we change this policy in a meaningful way we will tell you by e-mail or on the platform before the change
          takes effect. The date at the top shows when it was last updated.
        </p>
      </LegalSection>

      <LegalSection id="privacy-contact" title="12. Contact">
        <p>
          Questions or requests about your privacy: <PrivacyEmailLink />.
        </p>
      </LegalSection>

      <BackToHome />
    </StaticPage>
  );
}

export default PrivacyPolicyPage;

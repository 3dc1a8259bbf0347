import { FileText } from 'lucide-react';
import { Link } from 'react-router';
import { APP_NAME, REFUND_POLICY, RESCHEDULE_CUTOFF_HOURS, RESERVATION_HOLD_MINUTES } from '@/config/constants';
import {
  COMPLAINT_RESPONSE_HOURS,
  COMPLAINT_WINDOW_HOURS,
  MINIMUM_AGE,
  NO_SHOW_WAIT_MINUTES,
  POLICIES_LAST_UPDATED,
  TERMS_CHANGE_NOTICE_DAYS,
} from './policy-facts';
import { PlatformFeePercent, SupportEmailLink } from '@/components/site-info';
import { BackToHome, LegalSection, StaticPage } from './static-page';

const { fullRefundHours, partialRefundHours, partialRefundPercent } = REFUND_POLICY;

/** /terms-of-service, static, last updated November 2026. */
export function TermsOfServicePage() {
  return (
    <StaticPage
      title="Terms of Service"
      icon={FileText}
      intro={
        <p>
          These terms govern your use of {APP_NAME}, a marketplace where seekers find, book and meet independent
          spiritual mentors. Please read them carefully.
        </p>
      }
      meta={`Last updated ${POLICIES_LAST_UPDATED}`}
    >
      <LegalSection id="terms-acceptance" title="1. Accepting these terms">
        <p>
          By creating an account, booking a session or offering services on {APP_NAME} you agree to these Terms of
          Service, our <Link to="/privacy-policy">Privacy Policy</Link> and our{' '}
          <Link to="/community-guidelines">Community Guidelines</Link>. If you do not agree, please do not use the
          platform.
        </p>
      </LegalSection>

      <LegalSection id="terms-eligibility" title="2. Who may use the platform">
        <p>
          You must be at least {MINIMUM_AGE} years old to create an account, book a session or become a mentor. By
          registering you confirm that you are {MINIMUM_AGE} or older and able to enter into a binding agreement.
        </p>
      </LegalSection>

      <LegalSection id="terms-accounts" title="3. Your account">
        <ul>
          <li>Give accurate information when you register and keep it up to date on your profile.</li>
          <li>
            Keep your password to yourself. You are responsible for everything done through your account; tell us at
            once at <SupportEmailLink /> if you believe someone else has used it.
          </li>
          <li>One person, one account. Accounts may not be sold, shared or transferred.</li>
        </ul>
      </LegalSection>

      <LegalSection id="terms-marketplace" title="4. Our role and the mentors' role">
        <p>
          {APP_NAME} provides the marketplace: profiles, booking, payments, messaging and video. Mentors are independent
          practitioners, not our employees, and are responsible for the sessions they offer and the guidance they give.
        </p>
        <p>
          Sessions offer spiritual guidance for personal reflection. They are not medical, psychological, legal or
          financial advice and never replace a licensed professional. If you are in crisis, contact your local emergency
          services.
        </p>
      </LegalSection>

      <LegalSection id="terms-payments" title="5. Bookings, prices and payment">
        <ul>
          <li>All prices are set by mentors and shown and charged in US dollars (USD).</li>
          <li>
            Paid sessions are paid by card when you book. Card details are handled by our payment gateway; we never see
            or store your full card number.
          </li>
          <li>
            When you book a paid session, the time is reserved for you for {RESERVATION_HOLD_MINUTES} minutes while you
            complete payment. A reservation that is not paid in that time expires and the time becomes available again.
          </li>
          <li>A booking is confirmed once payment succeeds, or at once for a free session.</li>
        </ul>
      </LegalSection>

      <LegalSection id="terms-cancellations" title="6. Cancellations, rescheduling and refunds">
        <p>You can cancel a booking from your dashboard. The refund depends on how early you cancel:</p>
        <ul>
          <li>{fullRefundHours} hours or more before the session: a full (100%) refund.</li>
          <li>
            Between {partialRefundHours} and {fullRefundHours} hours before: a {partialRefundPercent}% refund.
          </li>
          <li>Less than {partialRefundHours} hours before: no refund (0%).</li>
        </ul>
        <p>
          You can reschedule a booking to another available time up to {RESCHEDULE_CUTOFF_HOURS} hours before it starts.
        </p>
        <p>
          If a session did not go as booked, report a problem from your <Link to="/dashboard">dashboard</Link> from the
          moment it starts until {COMPLAINT_WINDOW_HOURS} hours after it ends. The mentor may answer within{' '}
          {COMPLAINT_RESPONSE_HOURS} hours, and an administrator then decides: a full refund, a partial refund or none.
          If your mentor did not turn up, wait {NO_SHOW_WAIT_MINUTES} minutes after the start and call them from the
          session: when our call records show that you called and your mentor neither called nor answered, you are
          refunded in full at once. A group session whose mentor never joins its call is refunded in full to every
          participant. Refunds go back to the card you paid with, and you receive a receipt for every payment and
          refund.
        </p>
      </LegalSection>

      <LegalSection id="terms-mentors" title="7. Terms for mentors">
        <ul>
          <li>Describe your background, practices and services honestly, and deliver the sessions you accept.</li>
          <li>
            {APP_NAME} keeps a platform fee of <PlatformFeePercent /> of each session's price; the rest is your
            earnings. Earnings are paid out weekly to the payout method you choose in your dashboard.
          </li>
          <li>
            Keep bookings and payments for clients you meet here on the platform. Asking clients to pay you outside
            {` ${APP_NAME}`} is not allowed.
          </li>
          <li>You are responsible for any taxes on your earnings.</li>
        </ul>
      </LegalSection>

      <LegalSection id="terms-conduct" title="8. Conduct and content">
        <p>
          Everyone on the platform follows our <Link to="/community-guidelines">Community Guidelines</Link>. You keep
          the rights to what you post (such as your profile, reviews and messages) and give us permission to show it on
          the platform so that the service works. Do not post anything you do not have the right to share.
        </p>
      </LegalSection>

      <LegalSection id="terms-suspension" title="9. Suspension and closing accounts">
        <p>
          We may warn, suspend or close an account that breaks these terms or the Community Guidelines, or that puts
          other members at risk. You may stop using the platform at any time; bookings you have already made remain
          subject to the cancellation rules above.
        </p>
      </LegalSection>

      <LegalSection id="terms-liability" title="10. Disclaimers and liability">
        <p>
          The platform is provided as it is. We work to keep it available and secure but cannot promise it will always
          be free of interruptions. To the extent the law allows, {APP_NAME} is not liable for decisions you make based
          on a session, or for indirect or consequential losses. Nothing in these terms limits rights you have under
          consumer law that cannot be waived.
        </p>
      </LegalSection>

      <LegalSection id="terms-changes" title="11. Changes to these terms">
        <p>
          We may update these terms as the product grows. For material changes we will give you at least{' '}
          {TERMS_CHANGE_NOTICE_DAYS} days' notice by e-mail or on the platform before they take effect. If you keep
          using the platform after that, the new terms apply.
        </p>
      </LegalSection>

      <LegalSection id="terms-contact" title="12. Contact">
        <p>
          Questions about these terms? Write to <SupportEmailLink /> or use our <Link to="/contact">contact form</Link>.
        </p>
      </LegalSection>

      <BackToHome />
    </StaticPage>
  );
}

export default TermsOfServicePage;

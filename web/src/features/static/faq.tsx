import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PlatformFeePercent } from '@/components/site-info';
import {
  REFUND_POLICY,
  RESCHEDULE_CUTOFF_HOURS,
  RESERVATION_HOLD_MINUTES,
  SUPPORT_RESPONSE_HOURS,
  VIDEO_JOIN_EARLY_MINUTES,
} from '@/config/constants';
import {
  COMPLAINT_RESPONSE_HOURS,
  COMPLAINT_WINDOW_HOURS,
  GROUP_SIZE,
  NO_SHOW_WAIT_MINUTES,
  SUPPORT_HOURS,
} from './policy-facts';

export type Faq = { id: string; question: string; answer: ReactNode };

const { fullRefundHours, partialRefundHours, partialRefundPercent } = REFUND_POLICY;

/** The Help Center's ten questions, written from the product's own rules. */
export const FAQS: Faq[] = [
  {
    id: 'booking',
    question: 'How do I book a session with a mentor?',
    answer: (
      <p>
        Open <Link to="/mentors">Find Mentors</Link>, filter by practice or search by name, and open a mentor's profile.
        Choose one of their services, pick a date and an available time (shown in your own time zone), add any notes for
        your mentor and confirm. Your booking appears on your dashboard under Upcoming Sessions.
      </p>
    ),
  },
  {
    id: 'payments',
    question: 'How do payments work?',
    answer: (
      <p>
        Prices are set by each mentor and charged in US dollars (USD). You pay by card when you book; card details go
        directly to our payment gateway and we never store your card number. Free sessions are confirmed straight away
        without payment.
      </p>
    ),
  },
  {
    id: 'reservation-hold',
    question: 'Why is there a time limit while I pay?',
    answer: (
      <p>
        When you choose a time for a paid session we hold it for you for {RESERVATION_HOLD_MINUTES} minutes, so nobody
        else can take it while you enter your card details. If payment is not completed within{' '}
        {RESERVATION_HOLD_MINUTES} minutes the reservation expires and the time is released; simply book again.
      </p>
    ),
  },
  {
    id: 'cancellation',
    question: 'Can I cancel a booking, and will I get a refund?',
    answer: (
      <>
        <p>Yes, from your dashboard. The refund depends on how long before the session you cancel:</p>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          <li>{fullRefundHours} hours or more before: 100% refund</li>
          <li>
            {partialRefundHours} to {fullRefundHours} hours before: {partialRefundPercent}% refund
          </li>
          <li>Less than {partialRefundHours} hours before: no refund (0%)</li>
        </ul>
      </>
    ),
  },
  {
    id: 'reschedule',
    question: 'Can I reschedule a session?',
    answer: (
      <p>
        Yes. Choose Reschedule on the booking in your dashboard and pick a new available time. Rescheduling is possible
        up to {RESCHEDULE_CUTOFF_HOURS} hours before the session starts; after that, please message your mentor.
      </p>
    ),
  },
  {
    id: 'video',
    question: 'How do I join my video session?',
    answer: (
      <p>
        The Start Video Session button on your booking opens {VIDEO_JOIN_EARLY_MINUTES} minutes before the start time
        and stays available for the length of the session. Use an up-to-date browser and allow access to your camera and
        microphone when it asks.
      </p>
    ),
  },
  {
    id: 'group-sessions',
    question: 'What are group sessions?',
    answer: (
      <>
        <p>
          Group sessions are live video sessions led by one mentor for {GROUP_SIZE.min} to {GROUP_SIZE.max}{' '}
          participants, often at a lower price per person. Browse upcoming ones on the{' '}
          <Link to="/group-sessions">Group Sessions</Link> page; a card shows how many spots are left. The call opens{' '}
          {VIDEO_JOIN_EARLY_MINUTES} minutes before the start: you wait in the room until the mentor begins.
        </p>
        <p className="mt-2">
          A mentor may remove a participant from the call, and the reason decides the money: someone removed for their
          conduct is not refunded (the seat stays paid, and they can complain to us within {COMPLAINT_WINDOW_HOURS}{' '}
          hours like after any session); someone removed for any other reason has their seat cancelled and refunded in
          full. The removed participant is told which, on screen, in a notification and by e-mail.
        </p>
      </>
    ),
  },
  {
    id: 'become-mentor',
    question: 'How do I become a mentor, and what does it cost?',
    answer: (
      <p>
        Choose <Link to="/become-mentor">Become a Mentor</Link>, create your profile and add the services you offer.
        Joining is free: the platform keeps a <PlatformFeePercent /> fee from each session's earnings, and your earnings
        are paid out weekly to the PayPal, Venmo or Zelle account you set in your mentor dashboard.
      </p>
    ),
  },
  {
    id: 'complaints',
    question: 'What if a session did not go as expected?',
    answer: (
      <p>
        Press 'Report a problem' on the session in your <Link to="/dashboard">dashboard</Link>, from its start until{' '}
        {COMPLAINT_WINDOW_HOURS} hours after it ends, and tell us what happened. Your mentor can answer within{' '}
        {COMPLAINT_RESPONSE_HOURS} hours; an administrator then decides on a full, a partial or no refund, and you see
        the outcome on the session. If your mentor did not show up, call them from the session and report it{' '}
        {NO_SHOW_WAIT_MINUTES} minutes or more after the start: when our call records show that you called and they
        neither called nor answered, you are refunded in full at once. Receipts for every payment and refund are under{' '}
        <Link to="/receipts">Receipts</Link>. Behavior that breaks our{' '}
        <Link to="/community-guidelines">Community Guidelines</Link> can be reported through the{' '}
        <Link to="/contact">contact form</Link>.
      </p>
    ),
  },
  {
    id: 'support',
    question: 'How quickly does support reply?',
    answer: (
      <p>
        We reply to every message within {SUPPORT_RESPONSE_HOURS} hours. Our team is available {SUPPORT_HOURS.weekdays}{' '}
        and {SUPPORT_HOURS.weekends}. The quickest way to reach us is the <Link to="/contact">contact form</Link>.
      </p>
    ),
  },
];

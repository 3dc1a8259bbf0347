import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderWithProviders } from '@/testing/test-utils';
import { CommunityGuidelinesPage } from './community-guidelines-page';
import { FAQS } from './faq';
import { HelpCenterPage } from './help-center-page';
import { PrivacyPolicyPage } from './privacy-page';
import { TermsOfServicePage } from './terms-page';

afterEach(() => vi.unstubAllGlobals());

// Distinct from any default: the pages show what the server's settings say.
const SITE_INFO = { supportEmail: 'help@desk.example', privacyEmail: 'dpo@legal.example', platformFeePercent: 17 };
const withSiteInfo = () => mockFetch({ 'GET /api/site-info': () => jsonResponse(200, SITE_INFO) });

describe('/terms-of-service and /privacy-policy', () => {
  it("terms: last updated November 2026, age 18, 30 days notice, the server's fee and address, USD", async () => {
    withSiteInfo();
    renderWithProviders(<TermsOfServicePage />, { path: '/terms-of-service' });
    expect((await screen.findAllByRole('link', { name: 'help@desk.example' }))[0]).toHaveAttribute(
      'href',
      'mailto:help@desk.example',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeInTheDocument();
    expect(screen.getByText('Last updated November 2026')).toBeInTheDocument();
    const text = document.body.textContent ?? '';
    expect(text).toContain('at least 18 years old');
    expect(text).toContain("30 days' notice");
    expect(text).toContain('platform fee of 17%');
    expect(text).toContain('US dollars (USD)');
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });

  it("privacy: retention 7 and 3 years, card numbers never stored, the server's privacy address", async () => {
    withSiteInfo();
    renderWithProviders(<PrivacyPolicyPage />, { path: '/privacy-policy' });
    expect((await screen.findAllByRole('link', { name: 'dpo@legal.example' })).length).toBeGreaterThan(0);
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeInTheDocument();
    expect(screen.getByText('Last updated November 2026')).toBeInTheDocument();
    const text = document.body.textContent ?? '';
    expect(text).toContain('payouts): 7 years');
    expect(text).toContain('requests): 3 years');
    expect(text).toContain('We never store your card number');
    expect(text).toContain('payment gateway');
    expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  });
});

describe('/help-center', () => {
  it('has the three cards, ten FAQ items in an accordion and the onward links', async () => {
    mockFetch();
    renderWithProviders(<HelpCenterPage />, { path: '/help-center' });
    expect(screen.getByRole('heading', { level: 1, name: 'Help Center' })).toBeInTheDocument();
    for (const title of ['Quick Answers', 'Email Support', 'Support Hours']) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: /Browse the FAQ/ })).toHaveAttribute('href', '/help-center#faq');
    expect(screen.getByRole('link', { name: /Contact Support/ })).toHaveAttribute('href', '/contact');
    expect(screen.getByText('Mon to Fri 9 AM to 8 PM EST')).toBeInTheDocument();
    expect(screen.getByText('Sat to Sun 10 AM to 6 PM EST')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Community Guidelines' })).toHaveAttribute('href', '/community-guidelines');

    expect(FAQS).toHaveLength(10);
    const triggers = FAQS.map((faq) => screen.getByRole('button', { name: faq.question }));
    expect(triggers).toHaveLength(10);
    expect(triggers[3]).toHaveAttribute('aria-expanded', 'false');

    const user = userEvent.setup();
    await user.click(triggers[3]);
    expect(triggers[3]).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('24 hours or more before: 100% refund')).toBeVisible();
    expect(screen.getByText('2 to 24 hours before: 50% refund')).toBeVisible();
    expect(screen.getByText('Less than 2 hours before: no refund (0%)')).toBeVisible();
    await user.click(triggers[3]);
    expect(triggers[3]).toHaveAttribute('aria-expanded', 'false');
  });

  it('the FAQ covers the product rules', async () => {
    withSiteInfo();
    renderWithProviders(
      <>
        {FAQS.map((f) => (
          <div key={f.id}>{f.answer}</div>
        ))}
      </>,
    );
    await screen.findByText(/17% fee/);
    const text = document.body.textContent ?? '';
    for (const fact of [
      'US dollars (USD)',
      'for 60 minutes',
      'up to 2 hours before',
      'opens 15 minutes before',
      '2 to 20',
      '17% fee',
      'paid out weekly',
      'until 24 hours after it ends',
      'reply to every message within 24 hours',
    ]) {
      expect(text).toContain(fact);
    }
  });
});

describe('/community-guidelines', () => {
  it('has the values, groups, eight prohibited behaviours, four report steps and enforcement', () => {
    renderWithProviders(<CommunityGuidelinesPage />, { path: '/community-guidelines' });
    expect(screen.getByRole('heading', { level: 1, name: 'Community Guidelines' })).toBeInTheDocument();
    for (const title of [
      'Compassion',
      'Safety',
      'Community',
      'Authenticity',
      'Respect and Kindness',
      'Professional Boundaries',
      'Authentic Engagement',
      'Quality Content',
      'Harassment',
      'Sharing contact info publicly',
      'Soliciting services outside the platform',
      'Medical or psychological claims without credentials',
      'Promoting illegal activities',
      'Spam',
      'Impersonation or fake profiles',
      'Explicit content',
      'Warning and guidance',
      'Temporary suspension',
      'Permanent removal',
      'Report to authorities',
    ]) {
      expect(screen.getByRole('heading', { name: title })).toBeInTheDocument();
    }
    const prohibited = screen.getByRole('region', { name: 'Prohibited Behavior' });
    expect(prohibited.querySelectorAll('li')).toHaveLength(8);
    const report = screen.getByRole('region', { name: 'How to Report' });
    expect(report.querySelectorAll('ol > li')).toHaveLength(4);
    expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
    expect(screen.getByRole('link', { name: 'Help Center' })).toHaveAttribute('href', '/help-center');
  });
});

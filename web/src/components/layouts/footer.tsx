import { Link } from 'react-router';
import { BrandLink } from '@/components/brand';
import { APP_NAME, SUPPORT_RESPONSE_HOURS } from '@/config/constants';
import { SERVICE_LABELS, SERVICE_TYPES } from '@/lib/services';

const SUPPORT_LINKS = [
  { to: '/help-center', label: 'Help Center' },
  { to: '/community-guidelines', label: 'Community Guidelines' },
  { to: '/contact', label: 'Contact Us' },
];

const LEGAL_LINKS = [
  { to: '/privacy-policy', label: 'Privacy Policy' },
  { to: '/terms-of-service', label: 'Terms of Service' },
];

const linkClass = 'rounded text-sm text-slate-400 transition-colors hover:text-white';

function FooterColumn({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <h2 className="text-sm font-semibold uppercase tracking-wider text-slate-200">{title}</h2>
      <ul className="mt-4 space-y-2.5">{children}</ul>
    </div>
  );
}

export function Footer() {
  // The catalogue is public: a service leads everyone to its mentors.
  return (
    <footer className="mt-auto bg-slate-950 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-4 lg:px-8">
        <div className="space-y-4">
          <BrandLink className="text-white [&>span:last-child]:text-white" />
          <p className="max-w-xs text-sm leading-relaxed text-slate-400">
            Trusted spiritual mentors for astrology, tarot, energy healing and meditation, one to one or in small
            groups.
          </p>
          <p className="text-xs text-slate-400">Support replies within {SUPPORT_RESPONSE_HOURS} hours.</p>
        </div>
        <FooterColumn title="Services">
          {SERVICE_TYPES.map((type) => (
            <li key={type}>
              <Link to={`/mentors?service=${type}`} className={linkClass}>
                {SERVICE_LABELS[type]}
              </Link>
            </li>
          ))}
        </FooterColumn>
        <FooterColumn title="Support">
          {SUPPORT_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className={linkClass}>
                {link.label}
              </Link>
            </li>
          ))}
        </FooterColumn>
        <FooterColumn title="Legal">
          {LEGAL_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className={linkClass}>
                {link.label}
              </Link>
            </li>
          ))}
        </FooterColumn>
      </div>
      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-7xl px-4 py-6 text-xs text-slate-400 sm:px-6 lg:px-8">
          © {new Date().getFullYear()} {APP_NAME}. Mentors offer spiritual guidance, not medical or mental health
          treatment.
        </p>
      </div>
    </footer>
  );
}

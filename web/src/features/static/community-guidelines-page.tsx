import { Ban, Flag, Gavel, HeartHandshake, Scale, ShieldCheck, Sparkles, Users, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { APP_NAME, SUPPORT_RESPONSE_HOURS } from '@/config/constants';
import { StaticPage } from './static-page';

export const CORE_VALUES: { title: string; text: string; icon: LucideIcon }[] = [
  {
    title: 'Compassion',
    text: 'Meet every seeker and mentor with kindness and patience, wherever they are on their path.',
    icon: HeartHandshake,
  },
  {
    title: 'Safety',
    text: 'Everyone deserves a space where they can be open without fear of harm, pressure or judgment.',
    icon: ShieldCheck,
  },
  {
    title: 'Community',
    text: 'We grow together by sharing experience generously and supporting one another.',
    icon: Users,
  },
  {
    title: 'Authenticity',
    text: 'Be honest about who you are, what you practice and what a session can and cannot offer.',
    icon: Sparkles,
  },
];

export const GUIDELINE_GROUPS: { title: string; rules: string[] }[] = [
  {
    title: 'Respect and Kindness',
    rules: [
      'Treat everyone with courtesy, in messages, reviews and sessions.',
      'Respect beliefs, traditions and backgrounds that differ from your own.',
      'Disagree with ideas, never attack people.',
      'Keep reviews fair, specific and about the session itself.',
    ],
  },
  {
    title: 'Professional Boundaries',
    rules: [
      'Keep bookings, payments and conversations on the platform.',
      'Mentors do not pressure clients into buying more sessions or products.',
      'Respect confidentiality: what is shared in a session stays there.',
      'End a session or conversation that becomes inappropriate, and report it.',
    ],
  },
  {
    title: 'Authentic Engagement',
    rules: [
      'Use your real identity; mentors describe their training and experience truthfully.',
      'Make no promises of guaranteed outcomes, such as certain healing or predictions.',
      'Only leave reviews for sessions you actually attended.',
      'Show up on time for the sessions you book or accept.',
    ],
  },
  {
    title: 'Quality Content',
    rules: [
      'Keep profiles, service descriptions and prices clear and accurate.',
      'Share only photos and materials you have the right to use.',
      'Keep content suitable for a respectful, adult audience.',
      'Update your availability and services when they change.',
    ],
  },
];

/** The eight prohibited behaviours, as the specification lists them. */
export const PROHIBITED_BEHAVIOURS: { title: string; text: string }[] = [
  { title: 'Harassment', text: 'Threats, bullying, hate speech or unwanted contact of any kind.' },
  {
    title: 'Sharing contact info publicly',
    text: "Posting your own or anyone else's phone number, address or private e-mail in public places.",
  },
  {
    title: 'Soliciting services outside the platform',
    text: `Asking members to book or pay outside ${APP_NAME}.`,
  },
  {
    title: 'Medical or psychological claims without credentials',
    text: 'Diagnosing or promising to treat physical or mental health conditions without the qualifications to do so.',
  },
  {
    title: 'Promoting illegal activities',
    text: 'Encouraging, offering or arranging anything against the law.',
  },
  { title: 'Spam', text: 'Repeated unsolicited messages, advertising or misleading links.' },
  {
    title: 'Impersonation or fake profiles',
    text: 'Pretending to be another person or organization, or creating accounts with false details.',
  },
  { title: 'Explicit content', text: 'Sexual, graphic or violent content in profiles, messages or sessions.' },
];

export const REPORT_STEPS: { title: string; text: string }[] = [
  {
    title: 'Note what happened',
    text: 'Write down the date and time, the member involved and what was said or done; keep screenshots if you can.',
  },
  {
    title: 'Contact us',
    text: "Send the details through our contact form and choose the category 'Report an Issue'.",
  },
  {
    title: 'We review it',
    text: `Our team looks into every report and replies within ${SUPPORT_RESPONSE_HOURS} hours. Reports are confidential: the other member is not told who reported them.`,
  },
  {
    title: 'We take action',
    text: 'We let you know the outcome and take the steps needed to keep the community safe.',
  },
];

export const CONSEQUENCES: { title: string; text: string }[] = [
  {
    title: 'Warning and guidance',
    text: 'For a first or minor issue we explain which guideline was broken and how to avoid it.',
  },
  {
    title: 'Temporary suspension',
    text: 'Repeated or more serious breaches pause the account while we review it.',
  },
  {
    title: 'Permanent removal',
    text: 'Serious or continued breaches close the account for good.',
  },
  {
    title: 'Report to authorities',
    text: 'Illegal activity is reported to the relevant authorities.',
  },
];

function SectionHeading({ id, icon: Icon, children }: { id: string; icon: LucideIcon; children: string }) {
  return (
    <h2 id={id} className="flex items-center gap-3 font-display text-2xl font-semibold text-slate-900">
      <Icon aria-hidden="true" className="h-6 w-6 text-indigo-600" />
      {children}
    </h2>
  );
}

/** /community-guidelines. */
export function CommunityGuidelinesPage() {
  return (
    <StaticPage
      title="Community Guidelines"
      icon={HeartHandshake}
      width="wide"
      intro={
        <p>
          {APP_NAME} is a place for honest, respectful spiritual guidance. These guidelines apply to every seeker and
          mentor, in profiles, messages, reviews and sessions.
        </p>
      }
    >
      <section aria-labelledby="core-values">
        <SectionHeading id="core-values" icon={Sparkles}>
          Our Core Values
        </SectionHeading>
        <ul className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {CORE_VALUES.map((value) => (
            <li key={value.title}>
              <Card className="h-full">
                <CardContent className="space-y-3">
                  <span className="inline-flex h-11 w-11 items-center justify-center rounded-xl bg-gradient-to-br from-indigo-500 to-violet-600 text-white">
                    <value.icon aria-hidden="true" className="h-5 w-5" />
                  </span>
                  <h3 className="text-lg font-semibold text-slate-900">{value.title}</h3>
                  <p className="text-sm leading-relaxed text-slate-600">{value.text}</p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="guidelines" className="mt-16">
        <SectionHeading id="guidelines" icon={Scale}>
          Guidelines
        </SectionHeading>
        <div className="mt-6 grid gap-5 md:grid-cols-2">
          {GUIDELINE_GROUPS.map((group) => (
            <Card key={group.title}>
              <CardContent>
                <h3 className="text-lg font-semibold text-slate-900">{group.title}</h3>
                <ul className="mt-3 list-disc space-y-2 pl-5 text-sm leading-relaxed text-slate-700 marker:text-indigo-400">
                  {group.rules.map((rule) => (
                    <li key={rule}>{rule}</li>
                  ))}
                </ul>
              </CardContent>
            </Card>
          ))}
        </div>
      </section>

      <section aria-labelledby="prohibited" className="mt-16">
        <SectionHeading id="prohibited" icon={Ban}>
          Prohibited Behavior
        </SectionHeading>
        <p className="mt-2 text-sm text-slate-600">The following are never allowed on {APP_NAME}:</p>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {PROHIBITED_BEHAVIOURS.map((item) => (
            <li key={item.title} className="flex gap-3 rounded-xl border border-rose-100 bg-rose-50/60 p-4">
              <Ban aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-rose-500" />
              <div>
                <h3 className="font-semibold text-slate-900">{item.title}</h3>
                <p className="mt-1 text-sm text-slate-600">{item.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <div className="mt-16 grid gap-10 lg:grid-cols-2">
        <section aria-labelledby="how-to-report">
          <SectionHeading id="how-to-report" icon={Flag}>
            How to Report
          </SectionHeading>
          <ol className="mt-6 space-y-4">
            {REPORT_STEPS.map((step, index) => (
              <li key={step.title} className="flex gap-4">
                <span
                  aria-hidden="true"
                  className="inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-sm font-semibold text-white"
                >
                  {index + 1}
                </span>
                <div>
                  <h3 className="font-semibold text-slate-900">{step.title}</h3>
                  <p className="mt-1 text-sm text-slate-600">{step.text}</p>
                </div>
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby="enforcement">
          <SectionHeading id="enforcement" icon={Gavel}>
            Enforcement
          </SectionHeading>
          <p className="mt-2 text-sm text-slate-600">
            Depending on how serious a breach is, and whether it is repeated, consequences include:
          </p>
          <ul className="mt-6 space-y-3">
            {CONSEQUENCES.map((item) => (
              <li key={item.title} className="rounded-xl border border-slate-200 bg-white p-4">
                <h3 className="font-semibold text-slate-900">{item.title}</h3>
                <p className="mt-1 text-sm text-slate-600">{item.text}</p>
              </li>
            ))}
          </ul>
        </section>
      </div>

      <section
        aria-labelledby="questions"
        className="mt-16 rounded-2xl bg-gradient-to-br from-indigo-600 to-violet-600 p-8 text-center text-white"
      >
        <h2 id="questions" className="font-display text-2xl font-semibold">
          Questions or something to report?
        </h2>
        <p className="mt-2 text-indigo-100">Our team is here to help.</p>
        <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
          <Button asChild variant="light">
            <Link to="/contact">Contact Us</Link>
          </Button>
          <Button asChild variant="outline" className="border-white/40 bg-transparent text-white hover:bg-white/10">
            <Link to="/help-center">Help Center</Link>
          </Button>
        </div>
      </section>
    </StaticPage>
  );
}

export default CommunityGuidelinesPage;

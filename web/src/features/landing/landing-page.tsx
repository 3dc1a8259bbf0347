import { ArrowRight, CalendarCheck, Compass, Sparkles, Video } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { FeaturedMentors } from '@/components/featured-mentors';
import { ServiceGrid } from '@/components/service-grid';
import { Button } from '@/components/ui/button';
import { APP_NAME } from '@/config/constants';
import { catalogueQueries } from '@/lib/catalogue';
import { BECOME_MENTOR_LINK } from '@/components/layouts/nav-links';
import { REGISTER_URL, registerPath } from '@/lib/navigation';
import { AvailableNow } from './available-now';
import { PlatformFigures, Testimonials, highlightStats } from './highlights';
import { useDocumentTitle } from '@/lib/use-document-title';

const STEPS = [
  {
    icon: Compass,
    title: 'Find your mentor',
    text: 'Browse astrologers, tarot readers, healers and meditation guides, and read what others say about them.',
  },
  {
    icon: CalendarCheck,
    title: 'Book a session',
    text: 'Pick a time that suits you, one to one or in a small group, and pay securely in USD.',
  },
  {
    icon: Video,
    title: 'Connect and grow',
    text: 'Meet by live video, keep talking in private chat, and come back whenever you need guidance.',
  },
];

function SectionHeading({ eyebrow, title, text }: { eyebrow: string; title: string; text?: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold uppercase tracking-wider text-indigo-600">{eyebrow}</p>
      <h2 className="mt-2 font-display text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">{title}</h2>
      {text && <p className="mt-4 text-base leading-relaxed text-slate-600">{text}</p>}
    </div>
  );
}

export function LandingPage() {
  useDocumentTitle(undefined);
  const highlights = useQuery(catalogueQueries.highlights());
  return (
    <>
      {/* Hero */}
      <section className="relative overflow-hidden bg-gradient-to-br from-indigo-950 via-indigo-900 to-violet-900 text-white">
        <div aria-hidden="true" className="absolute -top-32 right-0 h-96 w-96 rounded-full bg-violet-500/30 blur-3xl" />
        <div
          aria-hidden="true"
          className="absolute -bottom-40 -left-20 h-96 w-96 rounded-full bg-indigo-500/30 blur-3xl"
        />
        <div className="relative mx-auto max-w-7xl px-4 py-20 sm:px-6 sm:py-28 lg:px-8">
          <div className="max-w-3xl animate-fade-in">
            <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-4 py-1.5 text-sm font-medium text-indigo-100 ring-1 ring-white/20">
              <Sparkles aria-hidden="true" className="h-4 w-4" />
              Guidance for every step of your path
            </p>
            <h1 className="mt-6 font-display text-4xl font-semibold leading-tight tracking-tight sm:text-6xl">
              Connect with trusted spiritual mentors
            </h1>
            <p className="mt-6 max-w-2xl text-lg leading-relaxed text-indigo-100">
              Astrology, tarot, energy healing, meditation and more, in private video sessions or small groups, with
              mentors who take your questions to heart.
            </p>
            <div className="mt-10 flex flex-col gap-3 sm:flex-row">
              <Button asChild variant="light" size="lg">
                <Link to="/mentors">
                  Find Your Mentor
                  <ArrowRight aria-hidden="true" className="h-5 w-5" />
                </Link>
              </Button>
              <Button
                asChild
                size="lg"
                variant="ghost"
                className="text-white ring-1 ring-white/30 hover:bg-white/10 hover:text-white"
              >
                <a href="#how-it-works">How it works</a>
              </Button>
            </div>
          </div>
          <PlatformFigures stats={highlights.isPending ? undefined : highlightStats(highlights.data)} />
        </div>
      </section>

      {/* Services */}
      <section id="services" className="scroll-mt-20 bg-white py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading
            eyebrow="Services"
            title="Explore the paths our mentors walk"
            text="Every mentor offers sessions in one or more of these traditions."
          />
          <div className="mt-12">
            <ServiceGrid />
          </div>
          <div className="mt-20">
            <AvailableNow />
          </div>
          <div className="mt-20">
            <FeaturedMentors />
          </div>
        </div>
      </section>

      {/* How it works */}
      <section id="how-it-works" className="scroll-mt-20 bg-slate-50 py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading
            eyebrow="About"
            title="How It Works"
            text={`Three simple steps to your first session on ${APP_NAME}.`}
          />
          <ol className="mt-12 grid gap-6 md:grid-cols-3">
            {STEPS.map((step, index) => (
              <li key={step.title} className="relative rounded-2xl border border-slate-200/80 bg-white p-6 shadow-sm">
                <span
                  className="absolute right-6 top-6 font-display text-4xl font-semibold text-indigo-100"
                  aria-hidden="true"
                >
                  {index + 1}
                </span>
                <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-indigo-600 text-white">
                  <step.icon aria-hidden="true" className="h-6 w-6" />
                </span>
                <h3 className="mt-4 text-lg font-semibold text-slate-900">
                  <span className="sr-only">Step {index + 1}: </span>
                  {step.title}
                </h3>
                <p className="mt-2 text-sm leading-relaxed text-slate-600">{step.text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <Testimonials testimonials={highlights.data?.testimonials ?? []} />

      {/* Mentor call to action */}
      <section className="bg-slate-50 py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <div className="grid items-center gap-8 overflow-hidden rounded-3xl bg-gradient-to-r from-violet-600 to-indigo-600 p-8 text-white shadow-xl shadow-indigo-500/20 sm:p-12 lg:grid-cols-3">
            <div className="lg:col-span-2">
              <h2 className="font-display text-3xl font-semibold">Share your gift as a mentor</h2>
              <p className="mt-3 max-w-2xl text-indigo-100">
                Offer readings, healing and guidance to seekers worldwide. Set your own services, prices and hours; we
                handle booking, payments and video.
              </p>
            </div>
            <div className="lg:text-right">
              <Button asChild variant="light" size="lg">
                <Link to={registerPath(BECOME_MENTOR_LINK.to)}>Become a Mentor</Link>
              </Button>
            </div>
          </div>
        </div>
      </section>

      {/* Closing call to action */}
      <section className="bg-white py-20 sm:py-24">
        <div className="mx-auto max-w-3xl px-4 text-center sm:px-6">
          <h2 className="font-display text-3xl font-semibold text-slate-900 sm:text-4xl">
            Ready to begin your journey?
          </h2>
          <p className="mt-4 text-slate-600">Create a free account and meet the mentor who fits you.</p>
          <div className="mt-8">
            <Button asChild variant="gradient" size="lg">
              <a href={REGISTER_URL}>
                Get Started
                <ArrowRight aria-hidden="true" className="h-5 w-5" />
              </a>
            </Button>
          </div>
        </div>
      </section>
    </>
  );
}

export default LandingPage;

import { ArrowRight, Compass, LayoutDashboard, MessageCircle, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { FeaturedMentors } from '@/components/featured-mentors';
import { ServiceGrid } from '@/components/service-grid';
import { greeting, greetingName, useUser } from '@/lib/auth';
import { useDocumentTitle } from '@/lib/use-document-title';

const CARDS: { to: string; title: string; text: string; icon: LucideIcon }[] = [
  {
    to: '/mentors',
    title: 'Find Mentors',
    text: 'Browse mentors by tradition and book your next session.',
    icon: Compass,
  },
  {
    to: '/messages',
    title: 'Messages',
    text: 'Continue your conversations with your mentors.',
    icon: MessageCircle,
  },
  {
    to: '/dashboard',
    title: 'My Dashboard',
    text: 'See your upcoming sessions, history and preferences.',
    icon: LayoutDashboard,
  },
];

export function HomePage() {
  const { user } = useUser();
  useDocumentTitle('Home');
  return (
    <>
      <section className="bg-gradient-to-br from-indigo-50 via-white to-violet-50">
        <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 sm:py-16 lg:px-8">
          <h1 className="font-display text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
            {greeting(user)}, {greetingName(user)}!
          </h1>
          <p className="mt-3 max-w-2xl text-slate-600">
            Continue your spiritual journey: find a mentor, pick up a conversation or check your sessions.
          </p>
          <ul className="mt-10 grid gap-5 md:grid-cols-3">
            {CARDS.map((card) => (
              <li key={card.to}>
                <Link
                  to={card.to}
                  className="group flex h-full items-start gap-4 rounded-2xl border border-slate-200/80 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-indigo-200 hover:shadow-md"
                >
                  <span className="inline-flex h-12 w-12 shrink-0 items-center justify-center rounded-xl bg-gradient-to-br from-indigo-500 to-violet-600 text-white">
                    <card.icon aria-hidden="true" className="h-6 w-6" />
                  </span>
                  <span className="min-w-0">
                    <span className="flex items-center gap-1 text-lg font-semibold text-slate-900">
                      {card.title}
                      <ArrowRight
                        aria-hidden="true"
                        className="h-4 w-4 text-slate-400 transition group-hover:translate-x-0.5 group-hover:text-indigo-600"
                      />
                    </span>
                    <span className="mt-1 block text-sm text-slate-600">{card.text}</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section className="bg-white py-14 sm:py-16">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <h2 className="font-display text-2xl font-semibold text-slate-900">Explore services</h2>
          <p className="mt-2 text-sm text-slate-600">Choose a tradition to see the mentors who offer it.</p>
          <div className="mt-8">
            <ServiceGrid />
          </div>
          <div className="mt-16">
            <FeaturedMentors />
          </div>
        </div>
      </section>
    </>
  );
}

export default HomePage;

import {
  CalendarCheck,
  CalendarPlus,
  CircleAlert,
  Compass,
  DollarSign,
  Heart,
  History,
  Moon,
  RefreshCw,
  Sparkles,
  Star,
  Sun,
  type LucideIcon,
} from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PushPrompt } from '@/components/push-prompt';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { DASHBOARD_TEXT } from './texts';
import { greeting, useUser } from '@/lib/auth';
import { splitBookings } from '@/lib/booking-rules';
import { formatUsd } from '@/lib/money';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useNow } from '@/lib/use-now';
import { useClientDashboard, type ClientDashboard, type DashboardBooking } from './api';
import { BookingCard } from './components/booking-card';
import { CancelDialog } from './components/cancel-dialog';
import { EmailPreferencesPanel } from './components/email-preferences-panel';
import { HeldReservations } from './components/held-reservations';
import { ProfilePanel } from './components/profile-panel';
import { RescheduleDialog } from './components/reschedule-dialog';
import { ReviewForm, type SentReview } from './components/review-form';
import { YourReview } from './components/your-review';
import { RefundLine } from './components/refund-line';

/** The four tabs; Upcoming Sessions is the default. */
export const DASHBOARD_TABS = [
  { value: 'upcoming', label: 'Upcoming Sessions' },
  { value: 'history', label: 'Session History' },
  { value: 'profile', label: 'Profile' },
  { value: 'email-preferences', label: 'Email Preferences' },
] as const;

type TabValue = (typeof DASHBOARD_TABS)[number]['value'];

/** The tab `?tab=` names (e-mail footers link `?tab=email-preferences`), else Upcoming Sessions. */
export function initialTab(param: string | null): TabValue {
  return DASHBOARD_TABS.find((t) => t.value === param)?.value ?? 'upcoming';
}

/** The quick actions. */
export const QUICK_ACTIONS: { to: string; label: string; icon: LucideIcon }[] = [
  { to: '/mentors', label: 'Browse All Mentors', icon: Compass },
  { to: '/favorites', label: 'My Favorites', icon: Heart },
  { to: '/mentors?type=astrology', label: 'Astrology Readings', icon: Moon },
  { to: '/mentors?type=tarot', label: 'Tarot Readings', icon: Star },
  { to: '/mentors?type=energy_healing', label: 'Energy Healing', icon: Sun },
];

/** The welcome line's name: the first name, or 'Seeker'. */
export function welcomeName(firstName: string | null | undefined): string {
  return firstName?.trim() || DASHBOARD_TEXT.fallbackName;
}

/** /dashboard, the seeker's sessions, profile and e-mail preferences. */
export function DashboardPage() {
  useDocumentTitle('My Dashboard');
  const dashboard = useClientDashboard();

  if (dashboard.isLoading) return <DashboardSkeleton />;
  if (dashboard.isError || !dashboard.data) {
    return (
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <StateCard
          as="h1"
          tone="error"
          icon={CircleAlert}
          title={DASHBOARD_TEXT.loadFailed}
          actions={
            <Button onClick={() => void dashboard.refetch()} disabled={dashboard.isFetching}>
              <RefreshCw aria-hidden="true" className="h-4 w-4" />
              Retry
            </Button>
          }
        >
          Your sessions could not be loaded. Please try again.
        </StateCard>
      </div>
    );
  }
  return <Dashboard data={dashboard.data} />;
}

function Dashboard({ data }: { data: ClientDashboard }) {
  const now = useNow();
  const { user } = useUser();
  const [searchParams] = useSearchParams();
  const [tab, setTab] = useState<TabValue>(() => initialTab(searchParams.get('tab')));
  const [rescheduling, setRescheduling] = useState<DashboardBooking | null>(null);
  const [cancelling, setCancelling] = useState<DashboardBooking | null>(null);
  // Reviews sent from this page show at once, before the dashboard reloads with them.
  const [reviewed, setReviewed] = useState<ReadonlyMap<string, SentReview | null>>(() => new Map());
  const { upcoming, history } = useMemo(() => splitBookings(data.bookings, now), [data.bookings, now]);
  const { stats } = data;
  const hasBookings = data.bookings.length > 0;

  const cardProps = { now, onReschedule: setRescheduling, onCancel: setCancelling };

  return (
    <div className="bg-slate-50/60">
      <section className="border-b border-slate-200/70 bg-gradient-to-br from-indigo-50 via-white to-violet-50">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-10 sm:flex-row sm:items-end sm:justify-between sm:px-6 lg:px-8">
          <div>
            <p className="text-sm font-medium text-indigo-700">My Dashboard</p>
            <h1 className="mt-1 font-display text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
              {greeting(user)}, {welcomeName(data.user.firstName)}!
            </h1>
            <p className="mt-2 text-slate-600">Your sessions, your journey, all in one place.</p>
          </div>
          <Button asChild variant="gradient" size="lg">
            <Link to="/mentors">
              <CalendarPlus aria-hidden="true" className="h-5 w-5" />
              Book New Session
            </Link>
          </Button>
        </div>
      </section>

      <div className="mx-auto max-w-7xl space-y-8 px-4 py-8 sm:px-6 lg:px-8">
        <HeldReservations />
        <PushPrompt show={hasBookings} />
        {hasBookings ? (
          <dl aria-label="Your figures" className="grid gap-4 sm:grid-cols-3">
            <StatCard icon={CalendarCheck} label="Total Sessions" value={String(stats.totalSessions)} />
            <StatCard icon={History} label="Upcoming" value={String(stats.upcomingSessions)} />
            <StatCard icon={DollarSign} label="Total spent" value={formatUsd(stats.totalSpent)} />
          </dl>
        ) : (
          <StateCard
            icon={Sparkles}
            title={DASHBOARD_TEXT.emptyTitle}
            actions={
              <Button asChild variant="gradient">
                <Link to="/mentors">Find Mentors</Link>
              </Button>
            }
          >
            You have no sessions yet. Find a mentor who speaks to you and book your first session.
          </StateCard>
        )}

        <nav aria-label="Quick actions">
          <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">Quick actions</h2>
          <ul className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
            {QUICK_ACTIONS.map(({ to, label, icon: Icon }) => (
              <li key={to}>
                <Link
                  to={to}
                  className="flex h-full items-center gap-3 rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm font-medium text-slate-800 shadow-sm transition-colors hover:border-indigo-300 hover:bg-indigo-50 hover:text-indigo-800"
                >
                  <Icon aria-hidden="true" className="h-5 w-5 shrink-0 text-indigo-600" />
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <Tabs value={tab} onValueChange={(v) => setTab(v as TabValue)}>
          <TabsList aria-label="My dashboard">
            {DASHBOARD_TABS.map((t) => (
              <TabsTrigger key={t.value} value={t.value}>
                {t.label}
              </TabsTrigger>
            ))}
          </TabsList>

          <TabsContent value="upcoming">
            {upcoming.length === 0 ? (
              <StateCard
                icon={CalendarPlus}
                title="No upcoming sessions"
                actions={
                  <Button asChild>
                    <Link to="/mentors">Browse Mentors</Link>
                  </Button>
                }
              >
                Book a session with a mentor and it will show here.
              </StateCard>
            ) : (
              <ul aria-label="Upcoming sessions" className="space-y-4">
                {upcoming.map((booking) => (
                  <li key={booking.id}>
                    <BookingCard booking={booking} {...cardProps} />
                  </li>
                ))}
              </ul>
            )}
          </TabsContent>

          <TabsContent value="history">
            {history.length === 0 ? (
              <StateCard icon={History} title="No past sessions yet">
                Completed and cancelled sessions will show here.
              </StateCard>
            ) : (
              <ul aria-label="Session history" className="space-y-4">
                {history.map((booking) => (
                  <li key={booking.id}>
                    <BookingCard booking={booking} {...cardProps}>
                      {booking.status === 'cancelled' && <RefundLine refund={booking.refund} />}
                      {booking.status === 'completed' &&
                        (booking.hasReview || reviewed.has(booking.id) ? (
                          <YourReview review={booking.review ?? reviewed.get(booking.id) ?? null} />
                        ) : (
                          <ReviewForm
                            booking={booking}
                            onReviewed={(id, sent) => setReviewed((prev) => new Map(prev).set(id, sent))}
                          />
                        ))}
                    </BookingCard>
                  </li>
                ))}
              </ul>
            )}
          </TabsContent>

          <TabsContent value="profile">
            <ProfilePanel user={data.user} totalSessions={stats.totalSessions} />
          </TabsContent>

          <TabsContent value="email-preferences">
            <EmailPreferencesPanel />
          </TabsContent>
        </Tabs>
      </div>

      <RescheduleDialog booking={rescheduling} onClose={() => setRescheduling(null)} />
      <CancelDialog booking={cancelling} onClose={() => setCancelling(null)} />
    </div>
  );
}

function StatCard({ icon: Icon, label, value }: { icon: LucideIcon; label: string; value: string }) {
  return (
    <Card className="p-5">
      <dt className="flex items-center justify-between gap-2 text-sm font-medium text-slate-600">
        {label}
        <Icon aria-hidden="true" className="h-5 w-5 text-indigo-500" />
      </dt>
      <dd className="mt-2 font-display text-2xl font-semibold text-slate-900">{value}</dd>
    </Card>
  );
}

function DashboardSkeleton() {
  return (
    <div
      aria-busy="true"
      aria-label="Loading your dashboard"
      className="mx-auto max-w-7xl space-y-8 px-4 py-10 sm:px-6 lg:px-8"
    >
      <div className="space-y-3">
        <Skeleton className="h-4 w-28" />
        <Skeleton className="h-9 w-72" />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Card key={i} className="space-y-3 p-5">
            <Skeleton className="h-4 w-24" />
            <Skeleton className="h-7 w-16" />
          </Card>
        ))}
      </div>
      <Skeleton className="h-11 w-full rounded-xl" />
      {[0, 1].map((i) => (
        <Card key={i} className="space-y-3 p-6">
          <Skeleton className="h-5 w-1/3" />
          <Skeleton className="h-4 w-1/2" />
          <Skeleton className="h-4 w-2/3" />
        </Card>
      ))}
    </div>
  );
}

export default DashboardPage;

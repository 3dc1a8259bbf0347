import {
  CalendarCheck,
  DollarSign,
  GraduationCap,
  ListChecks,
  ShieldAlert,
  Users,
  Wallet,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AdminStatsView, UserView } from '@/api/model';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FullPageSpinner, Spinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorCode, errorMessage } from '@/lib/api-fetch';
import { useUser } from '@/lib/auth';
import { formatUsd } from '@/lib/money';
import { useDocumentTitle } from '@/lib/use-document-title';
import { ADMIN_STAT_CARDS, ADMIN_TABS, ADMIN_TEXT as TEXT } from './admin-text';
import { useFailureToast } from './admin-ui';
import { AnnouncementsTab } from './announcements-tab';
import { useAdminStats } from './api';
import { BookingsTab } from './bookings-tab';
import { ComplaintsTab } from './complaints-tab';
import { ContactInboxTab } from './contact-inbox-tab';
import { MentorsTab } from './mentors-tab';
import { ReportsTab } from './reports-tab';
import { UsersTab } from './users-tab';

type TabValue = (typeof ADMIN_TABS)[number]['value'];

/** /admin: platform figures and the Users, Mentors and Bookings tabs, for administrators only. */
export function AdminPage() {
  useDocumentTitle(TEXT.title);
  const { user, isLoading } = useUser();
  if (isLoading) return <FullPageSpinner />;
  if (!user || user.isAdmin !== true) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
        <StateCard as="h1" tone="error" icon={ShieldAlert} title={TEXT.accessDenied}>
          {TEXT.accessDeniedBody}
        </StateCard>
      </div>
    );
  }
  return <AdminDashboard me={user} />;
}

function AdminDashboard({ me }: { me: UserView }) {
  const [tab, setTab] = useState<TabValue>('users');
  const stats = useAdminStats(true);
  const needsTwoFactor = stats.isError && errorCode(stats.error) === 'two_factor_required';
  useFailureToast(stats.isError && !needsTwoFactor, stats.error, TEXT.statsFailed);

  // ADMIN_TWO_FACTOR=required: every admin endpoint refuses until two-factor sign-in is on.
  if (needsTwoFactor) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
        <StateCard as="h1" tone="error" icon={ShieldAlert} title="Turn on two-factor sign-in">
          <p>{errorMessage(stats.error, 'Administrators must turn on two-factor sign-in.')}</p>
          <Button asChild className="mt-4">
            <Link to="/profile#privacy-and-security">Set up two-factor sign-in</Link>
          </Button>
        </StateCard>
      </div>
    );
  }

  return (
    <div className="bg-slate-50/60">
      <section className="border-b border-slate-200/70 bg-gradient-to-br from-indigo-50 via-white to-violet-50">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-10 sm:flex-row sm:items-end sm:justify-between sm:px-6 lg:px-8">
          <div>
            <h1 className="font-display text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
              {TEXT.title}
            </h1>
            <p className="mt-2 text-slate-600">Platform statistics, users, mentors and bookings.</p>
          </div>
          <div className="flex gap-2">
            <Button asChild variant="outline">
              <Link to="/admin/jobs">
                <ListChecks aria-hidden="true" className="h-4 w-4" />
                Jobs
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/admin/payouts">
                <Wallet aria-hidden="true" className="h-4 w-4" />
                Payouts
              </Link>
            </Button>
          </div>
        </div>
      </section>

      <div className="mx-auto max-w-7xl space-y-8 px-4 py-8 sm:px-6 lg:px-8">
        {stats.isLoading ? (
          <div className="flex justify-center py-6">
            <Spinner label="Loading platform stats" className="h-8 w-8 text-indigo-600" />
          </div>
        ) : (
          <StatCards stats={stats.data} />
        )}

        <Tabs value={tab} onValueChange={(v) => setTab(v as TabValue)}>
          <TabsList aria-label="Admin">
            {ADMIN_TABS.map((t) => (
              <TabsTrigger key={t.value} value={t.value}>
                {t.label}
              </TabsTrigger>
            ))}
          </TabsList>
          <TabsContent value="users">
            <UsersTab me={me} />
          </TabsContent>
          <TabsContent value="mentors">
            <MentorsTab />
          </TabsContent>
          <TabsContent value="bookings">
            <BookingsTab />
          </TabsContent>
          <TabsContent value="complaints">
            <ComplaintsTab />
          </TabsContent>
          <TabsContent value="reports">
            <ReportsTab />
          </TabsContent>
          <TabsContent value="messages">
            <ContactInboxTab />
          </TabsContent>
          <TabsContent value="announcements">
            <AnnouncementsTab />
          </TabsContent>
        </Tabs>
      </div>
    </div>
  );
}

const STAT_ICONS: Record<(typeof ADMIN_STAT_CARDS)[number]['key'], LucideIcon> = {
  totalUsers: Users,
  totalMentors: GraduationCap,
  totalBookings: CalendarCheck,
  totalRevenue: DollarSign,
};

function StatCards({ stats }: { stats: AdminStatsView | undefined }) {
  return (
    <dl aria-label="Platform stats" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {ADMIN_STAT_CARDS.map(({ key, label }) => {
        const Icon = STAT_ICONS[key];
        const raw = stats?.[key];
        const value = raw === undefined ? '—' : key === 'totalRevenue' ? formatUsd(raw) : String(raw);
        return (
          <Card key={key} className="p-5">
            <dt className="flex items-center justify-between gap-2 text-sm font-medium text-slate-600">
              {label}
              <Icon aria-hidden="true" className="h-5 w-5 text-indigo-500" />
            </dt>
            <dd className="mt-2 font-display text-2xl font-semibold text-slate-900">{value}</dd>
          </Card>
        );
      })}
    </dl>
  );
}

export default AdminPage;

import * as Tabs from '@radix-ui/react-tabs';
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
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { AdminBookingView, AdminMentorView, AdminStatsView, UserView } from '@/api/model';
import { StatusBadge } from '@/components/booking/status-badge';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { FullPageSpinner, Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-fetch';
import { useUser } from '@/lib/auth';
import { formatDate, formatTime } from '@/lib/format';
import { formatUsd } from '@/lib/money';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import { useAdminBookings, useAdminMentors, useAdminStats, useAdminUsers, useSetUserStatus } from './api';
import { AnnouncementsTab } from './announcements-tab';
import { ContactInboxTab } from './contact-inbox-tab';
import { APPROVAL_STATUSES, ApprovalBadge, VettingActions } from './mentor-vetting';
import { ReportsTab } from './reports-tab';
import { ADMIN_BOOKINGS_PAGE_SIZE, ADMIN_STAT_CARDS, ADMIN_TABS, ADMIN_TEXT as TEXT, pageCount } from './admin-text';

type TabValue = (typeof ADMIN_TABS)[number]['value'];

/** Toasts `title` once each time a query fails. */
function useFailureToast(isError: boolean, error: unknown, title: string) {
  useEffect(() => {
    if (isError) toast.error(title, { description: errorMessage(error, 'Please try again.') });
    // Only a new failure toasts again.
  }, [isError, error, title]);
}

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
  useFailureToast(stats.isError, stats.error, TEXT.statsFailed);

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

        <Tabs.Root value={tab} onValueChange={(v) => setTab(v as TabValue)}>
          <Tabs.List
            aria-label="Admin"
            className="flex gap-1 overflow-x-auto rounded-xl border border-slate-200 bg-white p-1 shadow-sm"
          >
            {ADMIN_TABS.map((t) => (
              <Tabs.Trigger
                key={t.value}
                value={t.value}
                className={cn(
                  'inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-lg px-4 py-2 text-sm font-medium transition-colors',
                  'data-[state=active]:bg-indigo-600 data-[state=active]:text-white data-[state=active]:shadow-sm',
                  'data-[state=inactive]:text-slate-600 data-[state=inactive]:hover:bg-slate-100',
                )}
              >
                {t.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value="users" className="mt-6 outline-none">
            <UsersTab me={me} />
          </Tabs.Content>
          <Tabs.Content value="mentors" className="mt-6 outline-none">
            <MentorsTab />
          </Tabs.Content>
          <Tabs.Content value="bookings" className="mt-6 outline-none">
            <BookingsTab />
          </Tabs.Content>
          <Tabs.Content value="reports" className="mt-6 outline-none">
            <ReportsTab />
          </Tabs.Content>
          <Tabs.Content value="messages" className="mt-6 outline-none">
            <ContactInboxTab />
          </Tabs.Content>
          <Tabs.Content value="announcements" className="mt-6 outline-none">
            <AnnouncementsTab />
          </Tabs.Content>
        </Tabs.Root>
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

const th = 'px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-500';
const td = 'px-4 py-3 align-top text-sm text-slate-700';

function Table({ label, head, children }: { label: string; head: string[]; children: ReactNode }) {
  return (
    <Card className="overflow-x-auto p-0">
      <table aria-label={label} className="min-w-full divide-y divide-slate-200">
        <thead className="bg-slate-50">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className={th}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 bg-white">{children}</tbody>
      </table>
    </Card>
  );
}

function ActiveBadge({ active }: { active: boolean }) {
  return (
    <span
      className={cn(
        'inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium',
        active ? 'bg-emerald-50 text-emerald-700' : 'bg-slate-100 text-slate-600',
      )}
    >
      {active ? 'Active' : 'Inactive'}
    </span>
  );
}

function Loading({ label }: { label: string }) {
  return (
    <div className="flex justify-center py-10">
      <Spinner label={label} className="h-8 w-8 text-indigo-600" />
    </div>
  );
}

const ROLE_LABELS: Record<string, string> = { user: 'Member', mentor: 'Mentor', admin: 'Administrator' };

function UsersTab({ me }: { me: UserView }) {
  const [role, setRole] = useState('');
  const [active, setActive] = useState('');
  const users = useAdminUsers({ ...(role ? { role } : {}), ...(active ? { isActive: active } : {}) }, true);
  useFailureToast(users.isError, users.error, TEXT.usersFailed);
  const setStatus = useSetUserStatus();

  const toggle = (u: UserView) =>
    setStatus.mutate(
      { id: u.id, isActive: !u.isActive },
      {
        onSuccess: (updated) =>
          toast.success(updated.isActive ? TEXT.activated : TEXT.deactivated, {
            description: `${updated.firstName} ${updated.lastName} (${updated.email})`,
          }),
        onError: (error) => toast.error(TEXT.statusFailed, { description: errorMessage(error, 'Please try again.') }),
      },
    );
  const busyId = setStatus.isPending ? setStatus.variables?.id : undefined;

  return (
    <section aria-label="Users" className="space-y-4">
      <div className="flex flex-wrap gap-4">
        <label className="w-48 text-sm font-medium text-slate-700">
          Role
          <Select className="mt-1" value={role} onChange={(e) => setRole(e.target.value)}>
            <option value="">All roles</option>
            <option value="user">Members</option>
            <option value="mentor">Mentors</option>
            <option value="admin">Administrators</option>
          </Select>
        </label>
        <label className="w-48 text-sm font-medium text-slate-700">
          Status
          <Select className="mt-1" value={active} onChange={(e) => setActive(e.target.value)}>
            <option value="">All</option>
            <option value="true">Active</option>
            <option value="false">Inactive</option>
          </Select>
        </label>
      </div>
      {users.isLoading ? (
        <Loading label="Loading users" />
      ) : users.isError ? (
        <p role="alert" className="text-sm text-rose-700">
          {TEXT.usersFailed}
        </p>
      ) : !users.data?.length ? (
        <p role="status" className="text-sm text-slate-600">
          No users match these filters.
        </p>
      ) : (
        <Table label="Users" head={['Name', 'Email', 'Role', 'Status', 'Joined', 'Action']}>
          {users.data.map((u) => {
            const self = u.id === me.id;
            return (
              <tr key={u.id} aria-label={`${u.firstName} ${u.lastName}`}>
                <td className={cn(td, 'font-medium text-slate-900')}>
                  {u.firstName} {u.lastName}
                  {self && <span className="ml-1 text-xs text-slate-500">(you)</span>}
                </td>
                <td className={td}>{u.email}</td>
                <td className={td}>{ROLE_LABELS[u.role] ?? u.role}</td>
                <td className={td}>
                  <ActiveBadge active={u.isActive} />
                </td>
                <td className={td}>{formatDate(u.createdAt)}</td>
                <td className={td}>
                  {u.isActive ? (
                    <Button
                      size="sm"
                      variant="outline"
                      className="border-rose-200 text-rose-700 hover:border-rose-300 hover:bg-rose-50"
                      disabled={self || busyId === u.id}
                      title={self ? TEXT.cannotDeactivateSelf : undefined}
                      aria-label={`Deactivate ${u.email}`}
                      onClick={() => toggle(u)}
                    >
                      Deactivate
                    </Button>
                  ) : (
                    <Button
                      size="sm"
                      disabled={busyId === u.id}
                      aria-label={`Activate ${u.email}`}
                      onClick={() => toggle(u)}
                    >
                      Activate
                    </Button>
                  )}
                </td>
              </tr>
            );
          })}
        </Table>
      )}
    </section>
  );
}

function MentorsTab() {
  const [approval, setApproval] = useState('');
  const mentors = useAdminMentors(true, approval ? { approvalStatus: approval } : {});
  useFailureToast(mentors.isError, mentors.error, TEXT.mentorsFailed);
  return (
    <section aria-label="Mentors" className="space-y-4">
      <label className="block w-56 text-sm font-medium text-slate-700">
        Approval
        <Select className="mt-1" value={approval} onChange={(e) => setApproval(e.target.value)}>
          <option value="">All mentors</option>
          {APPROVAL_STATUSES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </Select>
      </label>
      <MentorsTable mentors={mentors} filtered={approval !== ''} />
    </section>
  );
}

function MentorsTable({ mentors, filtered }: { mentors: ReturnType<typeof useAdminMentors>; filtered: boolean }) {
  if (mentors.isLoading) return <Loading label="Loading mentors" />;
  if (mentors.isError)
    return (
      <p role="alert" className="text-sm text-rose-700">
        {TEXT.mentorsFailed}
      </p>
    );
  if (!mentors.data?.length)
    return (
      <p role="status" className="text-sm text-slate-600">
        {filtered ? 'No mentors match this filter.' : 'No mentors yet.'}
      </p>
    );
  return (
    <Table
      label="Mentors"
      head={['Mentor', 'Approval', 'Rating', 'Sessions', 'Bookings', 'Revenue', 'Services', 'Status', 'Action']}
    >
      {mentors.data.map((m: AdminMentorView) => (
        <tr key={m.id} aria-label={m.displayName}>
          <td className={td}>
            <p className="font-medium text-slate-900">{m.displayName}</p>
            <p className="text-xs text-slate-500">
              {m.user.firstName} {m.user.lastName} · {m.user.email}
            </p>
          </td>
          <td className={td}>
            <ApprovalBadge status={m.approvalStatus} />
            {m.approvalStatus === 'rejected' && m.rejectionReason && (
              <p className="mt-1 max-w-xs text-xs text-slate-500">{m.rejectionReason}</p>
            )}
          </td>
          <td className={td}>{Number(m.rating).toFixed(2)}</td>
          <td className={td}>{m.totalSessions}</td>
          <td className={td}>{m.stats.totalBookings}</td>
          <td className={td}>{formatUsd(m.stats.totalRevenue)}</td>
          <td className={td}>{m.servicesCount}</td>
          <td className={td}>
            <ActiveBadge active={m.isActive} />
          </td>
          <td className={td}>
            <VettingActions mentor={m} />
          </td>
        </tr>
      ))}
    </Table>
  );
}

function BookingsTab() {
  const [status, setStatus] = useState('');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [page, setPage] = useState(1);
  const params = {
    ...(status ? { status } : {}),
    ...(startDate ? { startDate } : {}),
    ...(endDate ? { endDate } : {}),
    page,
    pageSize: ADMIN_BOOKINGS_PAGE_SIZE,
  };
  const bookings = useAdminBookings(params, true);
  useFailureToast(bookings.isError, bookings.error, TEXT.bookingsFailed);
  const pages = pageCount(bookings.data?.total ?? 0);
  // A filter change starts again at page 1.
  const filter = (set: (v: string) => void) => (v: string) => {
    set(v);
    setPage(1);
  };

  return (
    <section aria-label="Bookings" className="space-y-4">
      <div className="flex flex-wrap gap-4">
        <label className="w-48 text-sm font-medium text-slate-700">
          Status
          <Select className="mt-1" value={status} onChange={(e) => filter(setStatus)(e.target.value)}>
            <option value="">All statuses</option>
            <option value="pending">Pending</option>
            <option value="confirmed">Confirmed</option>
            <option value="completed">Completed</option>
            <option value="cancelled">Cancelled</option>
          </Select>
        </label>
        <label className="w-48 text-sm font-medium text-slate-700">
          From
          <Input
            className="mt-1"
            type="date"
            value={startDate}
            onChange={(e) => filter(setStartDate)(e.target.value)}
          />
        </label>
        <label className="w-48 text-sm font-medium text-slate-700">
          To
          <Input className="mt-1" type="date" value={endDate} onChange={(e) => filter(setEndDate)(e.target.value)} />
        </label>
      </div>
      {bookings.isLoading ? (
        <Loading label="Loading bookings" />
      ) : bookings.isError ? (
        <p role="alert" className="text-sm text-rose-700">
          {TEXT.bookingsFailed}
        </p>
      ) : !bookings.data?.bookings.length ? (
        <p role="status" className="text-sm text-slate-600">
          No bookings match these filters.
        </p>
      ) : (
        <>
          <Table label="Bookings" head={['Session', 'Seeker', 'Mentor', 'Service', 'Amount', 'Status', 'Payment']}>
            {bookings.data.bookings.map((b: AdminBookingView) => (
              <tr key={b.id}>
                <td className={td}>
                  {formatDate(b.scheduledAt)}
                  <span className="block text-xs text-slate-500">
                    {formatTime(b.scheduledAt)} · {b.duration} min
                  </span>
                </td>
                <td className={td}>
                  {b.user.firstName} {b.user.lastName}
                  <span className="block text-xs text-slate-500">{b.user.email}</span>
                </td>
                <td className={td}>{b.mentor.displayName}</td>
                <td className={td}>{b.service.title}</td>
                <td className={td}>{formatUsd(b.totalAmount)}</td>
                <td className={td}>
                  <StatusBadge status={b.status} />
                </td>
                <td className={td}>{b.paymentStatus ?? 'Free'}</td>
              </tr>
            ))}
          </Table>
          <nav aria-label="Bookings pages" className="flex items-center justify-between gap-4 text-sm text-slate-600">
            <span>
              {bookings.data.total} bookings · Page {page} of {pages}
            </span>
            <span className="flex gap-2">
              <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </Button>
              <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Next
              </Button>
            </span>
          </nav>
        </>
      )}
    </section>
  );
}

export default AdminPage;

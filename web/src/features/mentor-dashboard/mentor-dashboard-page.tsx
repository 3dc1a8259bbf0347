import {
  CircleAlert,
  ExternalLink,
  Pencil,
  Plus,
  RefreshCw,
  Sparkles,
  TrendingUp,
  UserPlus,
  Users,
} from 'lucide-react';
import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Card } from '@/components/ui/card';
import { FullPageSpinner } from '@/components/ui/spinner';
import { greeting, useUser } from '@/lib/auth';
import type { Mentor, Service } from '@/lib/catalogue';
import { formatUsd, servicePriceText } from '@/lib/money';
import { neverFinishedSetup } from '@/lib/mentor-setup';
import { serviceLabel } from '@/lib/services';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import { useAvailability, useOwnMentorProfile } from './api';
import { ApprovalBanner } from './approval-banner';
import { AvailabilityTab } from './availability-tab';
import { BookingsTab } from './bookings-tab';
import { CalendarAttentionBanner, CalendarTab } from './calendar-tab';
import { ComplaintsSection } from './complaints-section';
import { EditProfileDialog } from './edit-profile-dialog';
import { GroupSessionsTab } from './group-sessions-tab';
import { PayoutsTab } from './payouts-tab';
import { ReadingsNow } from './readings-now';
import { CreateServiceDialog, EditServiceDialog } from './service-dialog';
import { MentorSummary } from './summary';

/** The tabs, Bookings first (the default); `?tab=<value>` opens another (a notification's link). */
export const DASHBOARD_TABS: { value: string; label: string }[] = [
  { value: 'bookings', label: 'Bookings' },
  { value: 'services', label: 'Services' },
  { value: 'group-sessions', label: 'Group Sessions' },
  { value: 'availability', label: 'Availability' },
  { value: 'calendar', label: 'Calendar' },
  { value: 'payouts', label: 'Payouts' },
  { value: 'profile', label: 'Profile' },
];

export const DEFAULT_TAB = 'bookings';

export function MentorDashboardPage() {
  useDocumentTitle('Mentor Dashboard');
  const profile = useOwnMentorProfile();

  if (profile.isLoading) return <FullPageSpinner />;
  if (profile.isError) {
    return (
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <StateCard
          as="h1"
          tone="error"
          icon={CircleAlert}
          title="Unable to Load Your Dashboard"
          actions={
            <Button onClick={() => void profile.refetch()}>
              <RefreshCw aria-hidden="true" className="h-4 w-4" />
              Retry
            </Button>
          }
        >
          Your mentor profile could not be loaded. Please try again.
        </StateCard>
      </div>
    );
  }
  if (!profile.data) {
    return (
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <StateCard
          as="h1"
          icon={UserPlus}
          title="Create Your Mentor Profile"
          actions={
            <Button asChild variant="gradient">
              <Link to="/become-mentor">Create Mentor Profile</Link>
            </Button>
          }
        >
          You need a mentor profile before you can offer services and manage sessions.
        </StateCard>
      </div>
    );
  }
  return <SetUpDashboard mentor={profile.data} />;
}

/** The dashboard, once there is something in it: a mentor with only a profile resumes the wizard. */
function SetUpDashboard({ mentor }: { mentor: Mentor }) {
  const availability = useAvailability();
  if (availability.isLoading) return <FullPageSpinner />;
  if (availability.isSuccess && neverFinishedSetup(mentor, availability.data))
    return <Navigate to="/become-mentor" replace />;
  return <Dashboard mentor={mentor} />;
}

function Dashboard({ mentor }: { mentor: Mentor }) {
  const { user } = useUser();
  const [params] = useSearchParams();
  const asked = params.get('tab');
  const [tab, setTab] = useState(DASHBOARD_TABS.some((t) => t.value === asked) ? (asked as string) : DEFAULT_TAB);
  return (
    <div className="bg-slate-50/60">
      <section className="border-b border-slate-200/70 bg-gradient-to-br from-indigo-50 via-white to-violet-50">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-10 sm:flex-row sm:items-end sm:justify-between sm:px-6 lg:px-8">
          <div>
            <p className="text-sm font-medium text-indigo-700">Mentor Dashboard</p>
            <h1 className="mt-1 font-display text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
              {greeting(user)}, {mentor.displayName}!
            </h1>
            <p className="mt-2 text-slate-600">Manage your bookings, availability, services and how seekers see you.</p>
          </div>
          <Button asChild variant="outline">
            <Link to={`/mentor/${mentor.id}`}>
              <ExternalLink aria-hidden="true" className="h-4 w-4" />
              View Public Profile
            </Link>
          </Button>
        </div>
      </section>

      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
        <ApprovalBanner mentor={mentor} />
        <CalendarAttentionBanner onOpen={() => setTab('calendar')} />
        <ReadingsNow mentor={mentor} />
        <MentorSummary />

        <Tabs value={tab} onValueChange={setTab} className="mt-8">
          <TabsList aria-label="Mentor dashboard">
            {DASHBOARD_TABS.map((t) => (
              <TabsTrigger key={t.value} value={t.value}>
                {t.label}
              </TabsTrigger>
            ))}
          </TabsList>

          <TabsContent value="bookings">
            <ComplaintsSection />
            <BookingsTab />
          </TabsContent>
          <TabsContent value="group-sessions">
            <GroupSessionsTab mentor={mentor} />
          </TabsContent>
          <TabsContent value="availability">
            <AvailabilityTab mentor={mentor} />
          </TabsContent>
          <TabsContent value="calendar">
            <CalendarTab />
          </TabsContent>
          <TabsContent value="services">
            <ServicesTab mentor={mentor} />
          </TabsContent>
          <TabsContent value="payouts">
            <PayoutsTab />
          </TabsContent>
          <TabsContent value="profile">
            <ProfileTab mentor={mentor} />
          </TabsContent>
        </Tabs>
      </div>
    </div>
  );
}

// --- Services tab --------------------------------------------------------------------------

function ServicesTab({ mentor }: { mentor: Mentor }) {
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Service | null>(null);
  const services = mentor.services ?? [];
  return (
    <section aria-labelledby="services-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="services-heading" className="font-display text-2xl font-semibold text-slate-900">
            Your Services
          </h2>
          <p className="text-sm text-slate-600">What seekers can book with you.</p>
        </div>
        {services.length > 0 && (
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" className="h-4 w-4" />
            Add Service
          </Button>
        )}
      </div>

      {services.length === 0 ? (
        <StateCard
          as="h3"
          className="mt-6"
          icon={Sparkles}
          title="No services yet"
          actions={
            <Button variant="gradient" onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" className="h-4 w-4" />
              Create Your First Service
            </Button>
          }
        >
          Offer a reading, a healing session or a group meditation, and seekers can book it from your profile.
        </StateCard>
      ) : (
        <ul className="mt-6 grid gap-5 md:grid-cols-2 xl:grid-cols-3">
          {services.map((service) => (
            <li key={service.id}>
              <ServiceCard service={service} onEdit={() => setEditing(service)} />
            </li>
          ))}
        </ul>
      )}

      <CreateServiceDialog open={creating} onOpenChange={setCreating} mentorId={mentor.id} />
      <EditServiceDialog service={editing} onClose={() => setEditing(null)} />
    </section>
  );
}

function ServiceCard({ service, onEdit }: { service: Service; onEdit: () => void }) {
  return (
    <Card className={cn('flex h-full flex-col p-5', !service.isActive && 'bg-slate-50')}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="rounded-full bg-violet-50 px-2.5 py-0.5 text-xs font-medium text-violet-700">
          {serviceLabel(service.serviceType)}
        </span>
        <span
          className={cn(
            'rounded-full px-2.5 py-0.5 text-xs font-medium',
            service.isActive ? 'bg-emerald-50 text-emerald-700' : 'bg-slate-200 text-slate-600',
          )}
        >
          {service.isActive ? 'Active' : 'Inactive'}
        </span>
        {service.isGroupSession && (
          <span className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2.5 py-0.5 text-xs font-medium text-amber-800">
            <Users aria-hidden="true" className="h-3.5 w-3.5" />
            Group{service.maxParticipants ? ` · up to ${service.maxParticipants}` : ''}
          </span>
        )}
      </div>
      <h3 className="mt-3 text-lg font-semibold text-slate-900">{service.title}</h3>
      <p className="mt-1 line-clamp-3 flex-1 text-sm leading-relaxed text-slate-600">{service.description}</p>
      <div className="mt-4 flex items-center justify-between gap-3 border-t border-slate-100 pt-4">
        <div>
          <p className="font-semibold text-slate-900">{servicePriceText(service.price)}</p>
          <p className="text-xs text-slate-500">{service.duration} minutes</p>
        </div>
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${service.title}`}>
          <Pencil aria-hidden="true" className="h-4 w-4" />
          Edit
        </Button>
      </div>
    </Card>
  );
}

// --- Profile tab ---------------------------------------------------------------------------

function ProfileTab({ mentor }: { mentor: Mentor }) {
  const [editing, setEditing] = useState(false);
  return (
    <section aria-labelledby="profile-heading">
      <Card className="p-6 sm:p-8">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 id="profile-heading" className="font-display text-2xl font-semibold text-slate-900">
              Mentor Profile
            </h2>
            <p className="text-sm text-slate-600">How seekers see you.</p>
          </div>
          <Button variant="outline" onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" className="h-4 w-4" />
            Edit Profile
          </Button>
        </div>
        <dl className="mt-6 grid gap-6 sm:grid-cols-2">
          <div>
            <dt className="text-sm font-medium text-slate-500">Display Name</dt>
            <dd className="mt-1 text-slate-900">{mentor.displayName}</dd>
          </div>
          <div>
            <dt className="text-sm font-medium text-slate-500">Base Price</dt>
            <dd className="mt-1 inline-flex items-center gap-1 text-slate-900">
              <TrendingUp aria-hidden="true" className="h-4 w-4 text-indigo-500" />
              {formatUsd(mentor.basePrice)}
            </dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="text-sm font-medium text-slate-500">Bio</dt>
            <dd className="mt-1 whitespace-pre-line leading-relaxed text-slate-800">{mentor.bio}</dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="text-sm font-medium text-slate-500">Specialties</dt>
            <dd className="mt-2">
              <ul className="flex flex-wrap gap-2">
                {mentor.specialties.map((s) => (
                  <li key={s} className="rounded-full bg-indigo-50 px-3 py-1 text-sm font-medium text-indigo-700">
                    {s}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        </dl>
      </Card>
      <EditProfileDialog mentor={mentor} open={editing} onOpenChange={setEditing} />
    </section>
  );
}

export default MentorDashboardPage;

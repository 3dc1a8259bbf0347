import {
  CalendarDays,
  ChevronLeft,
  ChevronRight,
  CircleAlert,
  Clock,
  Filter,
  Gem,
  GraduationCap,
  HeartHandshake,
  RefreshCw,
  SearchX,
  Users,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { GroupSessionView } from '@/api/model';
import { ReportButton } from '@/components/report-button';
import { MentorAvatar } from '@/components/mentor-avatar';
import { RatingStars } from '@/components/rating-stars';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { FullPageSpinner } from '@/components/ui/spinner';
import { DEFAULT_MENTOR_RATING, FREE_BOOKING_REDIRECT_DELAY_MS } from '@/config/constants';
import { errorMessage, errorStatus } from '@/lib/api-fetch';
import { useUser } from '@/lib/auth';
import { formatUsd, isFree } from '@/lib/money';
import { hardNavigate } from '@/lib/navigation';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useNow } from '@/lib/use-now';
import { useGroupSessions, useJoinGroupSession } from '@/lib/group-sessions-api';
import {
  cardDate,
  cardState,
  cardTime,
  GROUP_SESSION_SKELETON_COUNT,
  GROUP_SESSION_TEXT,
  isCallOpen,
  seekerButton,
  spotsLeft,
  spotsText,
} from '@/lib/group-sessions';
import { isServiceType, SERVICE_LABELS, SERVICE_TYPES } from '@/lib/services';
import {
  filtersFrom,
  GROUP_SESSIONS_FILTER_TEXT,
  isFiltered,
  listParams,
  pageCount,
  withFilters,
  type GroupSessionFilters,
} from './filters';

const BENEFITS = [
  {
    icon: HeartHandshake,
    title: 'Shared Experience',
    text: 'Learn and grow alongside seekers on the same path, and draw on the energy of the group.',
  },
  { icon: Gem, title: 'Better Value', text: 'Expert guidance at a fraction of the price of a private session.' },
  {
    icon: GraduationCap,
    title: 'Expert Guidance',
    // True: only mentors an administrator approved are listed, and only their sessions are shown.
    text: 'Every session is led by a mentor whose profile our team has reviewed and approved.',
  },
];

/**
 * /group-sessions: upcoming and live group sessions, optionally one mentor's (?mentor={id}), a page
 * at a time, filtered by service type, price, dates and a search (all in the address).
 */
export function GroupSessionsPage() {
  useDocumentTitle('Group Sessions');
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const mentor = filters.mentor;
  const sessions = useGroupSessions(listParams(filters));
  const unauthorized = sessions.isError && errorStatus(sessions.error) === 401;

  useEffect(() => {
    if (unauthorized) hardNavigate('/auth');
  }, [unauthorized]);

  const list = sessions.data?.sessions;
  const total = sessions.data?.total ?? 0;
  const pages = pageCount(total);
  const mentorName = mentor ? list?.[0]?.mentor.displayName : undefined;
  const change = (patch: Partial<GroupSessionFilters>) => setParams(withFilters(params, patch));

  return (
    <div className="bg-slate-50/60">
      <section className="border-b border-slate-200/70 bg-gradient-to-br from-indigo-50 via-white to-violet-50">
        <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6 lg:px-8">
          <p className="text-sm font-medium text-indigo-700">Group Sessions</p>
          <h1 className="mt-1 font-display text-3xl font-semibold tracking-tight text-slate-900 sm:text-4xl">
            {mentorName ? `Group sessions with ${mentorName}` : 'Join a Group Session'}
          </h1>
          <p className="mt-2 max-w-2xl text-slate-600">
            Join upcoming group sessions led by our mentors: a shared experience, better value and expert guidance.
          </p>
          {mentor && (
            <Link
              to="/group-sessions"
              className="mt-3 inline-block text-sm font-medium text-indigo-700 hover:underline"
            >
              Show all group sessions
            </Link>
          )}
        </div>
      </section>

      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
        <FilterBar key={params.toString()} filters={filters} onChange={change} />
        <div className="mt-6">
          {sessions.isLoading ? (
            <SessionSkeletons />
          ) : unauthorized ? (
            <FullPageSpinner label="Redirecting to sign in" />
          ) : sessions.isError ? (
            <StateCard
              as="h2"
              tone="error"
              icon={CircleAlert}
              title={GROUP_SESSION_TEXT.loadFailedTitle}
              actions={
                <Button onClick={() => void sessions.refetch()}>
                  <RefreshCw aria-hidden="true" className="h-4 w-4" />
                  Retry
                </Button>
              }
            >
              {errorMessage(sessions.error, 'Please try again.')}
            </StateCard>
          ) : !list?.length && isFiltered(filters) ? (
            <StateCard
              as="h2"
              icon={SearchX}
              title={GROUP_SESSIONS_FILTER_TEXT.noMatchTitle}
              actions={
                <Button variant="outline" onClick={() => setParams(clearedFilters(params))}>
                  {GROUP_SESSIONS_FILTER_TEXT.clear}
                </Button>
              }
            >
              {GROUP_SESSIONS_FILTER_TEXT.noMatchText}
            </StateCard>
          ) : !list?.length ? (
            <StateCard
              as="h2"
              icon={Users}
              title={GROUP_SESSION_TEXT.emptyTitle}
              actions={
                <Button asChild>
                  <Link to="/mentors">Browse Mentors</Link>
                </Button>
              }
            >
              There are no group sessions scheduled right now. Browse our mentors and book a session with one of them.
            </StateCard>
          ) : (
            <>
              <p className="mb-4 text-sm text-slate-600" data-testid="group-sessions-total">
                {total === 1 ? '1 session' : `${total} sessions`}
              </p>
              <ul aria-label="Group sessions" className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
                {list.map((s) => (
                  <li key={s.id}>
                    <SessionCard session={s} />
                  </li>
                ))}
              </ul>
              {pages > 1 && (
                <nav aria-label="Pages" className="mt-8 flex items-center justify-center gap-3">
                  <Button
                    variant="outline"
                    disabled={filters.page <= 1}
                    onClick={() => change({ page: filters.page - 1 })}
                  >
                    <ChevronLeft aria-hidden="true" className="h-4 w-4" />
                    Previous
                  </Button>
                  <span className="text-sm text-slate-700" aria-current="page">
                    Page {Math.min(filters.page, pages)} of {pages}
                  </span>
                  <Button
                    variant="outline"
                    disabled={filters.page >= pages}
                    onClick={() => change({ page: filters.page + 1 })}
                  >
                    Next
                    <ChevronRight aria-hidden="true" className="h-4 w-4" />
                  </Button>
                </nav>
              )}
            </>
          )}
        </div>

        <section aria-labelledby="group-benefits" className="mt-12">
          <h2 id="group-benefits" className="font-display text-2xl font-semibold text-slate-900">
            Why join a group session?
          </h2>
          <div className="mt-4 grid gap-6 md:grid-cols-3">
            {BENEFITS.map(({ icon: Icon, title, text }) => (
              <Card key={title} className="p-6">
                <Icon aria-hidden="true" className="h-6 w-6 text-indigo-600" />
                <h3 className="mt-3 font-semibold text-slate-900">{title}</h3>
                <p className="mt-1 text-sm text-slate-600">{text}</p>
              </Card>
            ))}
          </div>
        </section>
      </div>
    </div>
  );
}

/** The address without any filter (one mentor's list stays that mentor's). */
function clearedFilters(params: URLSearchParams): URLSearchParams {
  const mentor = params.get('mentor');
  return new URLSearchParams(mentor ? { mentor } : {});
}

/** The filters as a form: applied together (one request), so typing a price does not reload the list. */
function FilterBar({
  filters,
  onChange,
}: {
  filters: GroupSessionFilters;
  onChange: (patch: Partial<GroupSessionFilters>) => void;
}) {
  const [draft, setDraft] = useState(filters);
  const set = (patch: Partial<GroupSessionFilters>) => setDraft((d) => ({ ...d, ...patch }));
  const t = GROUP_SESSIONS_FILTER_TEXT;
  return (
    <form
      role="search"
      aria-label={t.heading}
      onSubmit={(e) => {
        e.preventDefault();
        onChange({
          service: draft.service,
          minPrice: draft.minPrice.trim(),
          maxPrice: draft.maxPrice.trim(),
          search: draft.search.trim(),
          from: draft.from,
          to: draft.to,
        });
      }}
      className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[2fr_1.3fr_1fr_1fr_1.2fr_1.2fr_auto]"
    >
      <label className="text-sm font-medium text-slate-700">
        {t.search}
        <Input
          type="search"
          className="mt-1"
          value={draft.search}
          placeholder={t.searchPlaceholder}
          onChange={(e) => set({ search: e.target.value })}
        />
      </label>
      <label className="text-sm font-medium text-slate-700">
        {t.service}
        <Select
          className="mt-1"
          value={draft.service ?? ''}
          onChange={(e) => set({ service: isServiceType(e.target.value) ? e.target.value : undefined })}
        >
          <option value="">{t.allServices}</option>
          {SERVICE_TYPES.map((type) => (
            <option key={type} value={type}>
              {SERVICE_LABELS[type]}
            </option>
          ))}
        </Select>
      </label>
      <label className="text-sm font-medium text-slate-700">
        {t.minPrice}
        <Input
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          className="mt-1"
          value={draft.minPrice}
          onChange={(e) => set({ minPrice: e.target.value })}
        />
      </label>
      <label className="text-sm font-medium text-slate-700">
        {t.maxPrice}
        <Input
          type="number"
          inputMode="decimal"
          min={0}
          step={0.01}
          className="mt-1"
          value={draft.maxPrice}
          onChange={(e) => set({ maxPrice: e.target.value })}
        />
      </label>
      <label className="text-sm font-medium text-slate-700">
        {t.from}
        <Input type="date" className="mt-1" value={draft.from} onChange={(e) => set({ from: e.target.value })} />
      </label>
      <label className="text-sm font-medium text-slate-700">
        {t.to}
        <Input type="date" className="mt-1" value={draft.to} onChange={(e) => set({ to: e.target.value })} />
      </label>
      <div className="flex items-end gap-2">
        <Button type="submit">
          <Filter aria-hidden="true" className="h-4 w-4" />
          {t.apply}
        </Button>
      </div>
    </form>
  );
}

function SessionSkeletons() {
  return (
    <div data-testid="group-session-skeletons" className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
      {Array.from({ length: GROUP_SESSION_SKELETON_COUNT }, (_, i) => (
        <Card key={i} className="space-y-4 p-6">
          <Skeleton className="h-6 w-3/4" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-10 w-1/2" />
          <Skeleton className="h-10 w-full" />
        </Card>
      ))}
    </div>
  );
}

function SessionCard({ session }: { session: GroupSessionView }) {
  const now = useNow();
  const { user } = useUser();
  const navigate = useNavigate();
  const join = useJoinGroupSession();
  const state = cardState(session, now);
  const button = seekerButton(session, now);
  const own = user?.id === session.mentor.userId;
  // '0.00' until the first review: shown as the default 5.
  const rating = Number(session.mentor.rating) > 0 ? Number(session.mentor.rating) : DEFAULT_MENTOR_RATING;
  const redirect = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(redirect.current), []);

  const onJoin = () => {
    join.mutate(
      { id: session.id, price: session.service.price },
      {
        onSuccess: (result) => {
          if (result.reservation) {
            navigate(`/group-booking/${result.reservation.id}`);
          } else {
            if (result.freeBooking)
              toast.success(GROUP_SESSION_TEXT.joinedFreeTitle, {
                description: `You're booked for "${session.title}".`,
              });
            else toast.success('Already Joined', { description: `You already have a seat in "${session.title}".` });
            redirect.current = window.setTimeout(() => navigate('/dashboard'), FREE_BOOKING_REDIRECT_DELAY_MS);
          }
        },
        onError: (error) => {
          if (errorStatus(error) === 401) {
            hardNavigate('/auth');
            return;
          }
          const message = errorMessage(error, GROUP_SESSION_TEXT.joinFailed);
          const [title, ...rest] = message.split(' - ');
          if (rest.length) toast.error(title, { description: rest.join(' - ') });
          else toast.error('Error', { description: message });
        },
      },
    );
  };

  return (
    <Card className="flex h-full flex-col p-6" aria-labelledby={`group-session-${session.id}`}>
      <div className="flex flex-wrap items-center gap-2">
        {session.isUserBooked && (
          <span className="rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-800">
            Booked
          </span>
        )}
        {state === 'live' && (
          <span className="rounded-full bg-rose-100 px-2.5 py-0.5 text-xs font-semibold text-rose-700">Live Now</span>
        )}
        {state === 'upcoming' && (
          <span
            className={
              spotsLeft(session)
                ? 'rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-medium text-indigo-700'
                : 'rounded-full bg-slate-200 px-2.5 py-0.5 text-xs font-medium text-slate-700'
            }
          >
            {spotsText(session)}
          </span>
        )}
        {!own && <ReportButton compact className="ml-auto" targetType="group_session" targetId={session.id} />}
      </div>
      <h3 id={`group-session-${session.id}`} className="mt-3 text-lg font-semibold text-slate-900">
        {session.title}
      </h3>
      {session.description && <p className="mt-1 line-clamp-3 text-sm text-slate-600">{session.description}</p>}

      <div className="mt-4 flex items-center gap-3">
        <MentorAvatar mentor={session.mentor} size="sm" />
        <div className="min-w-0">
          <p className="truncate font-medium text-slate-900">{session.mentor.displayName}</p>
          <div className="flex items-center gap-2 text-xs text-slate-500">
            <RatingStars rating={rating} />
            <span>{rating.toFixed(1)} / 5</span>
            <span>· {session.mentor.totalSessions} sessions</span>
          </div>
        </div>
      </div>

      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
        <div className="flex items-center gap-2 text-slate-700">
          <CalendarDays aria-hidden="true" className="h-4 w-4 text-slate-400" />
          <dt className="sr-only">Date</dt>
          <dd>{cardDate(session.scheduledAt)}</dd>
        </div>
        <div className="flex items-center gap-2 text-slate-700">
          <Clock aria-hidden="true" className="h-4 w-4 text-slate-400" />
          <dt className="sr-only">Time</dt>
          <dd>{cardTime(session.scheduledAt)}</dd>
        </div>
        <div className="flex items-center gap-2 text-slate-700">
          <Users aria-hidden="true" className="h-4 w-4 text-slate-400" />
          <dt className="sr-only">Participants</dt>
          <dd>
            {session.currentParticipants}/{session.maxParticipants} participants
          </dd>
        </div>
        <div className="text-slate-700">
          <dt className="sr-only">Price</dt>
          <dd className="font-semibold text-slate-900">
            {isFree(session.service.price) ? 'Free' : formatUsd(session.service.price)}
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-xs capitalize text-slate-500">{session.service.serviceType.replace(/_/g, ' ')}</p>

      <div className="mt-auto pt-5">
        {own && isCallOpen(session, now) ? (
          <Button asChild className="w-full">
            <a href={`/group-video-call/${session.id}`}>
              {session.status === 'active' ? 'Join Active Session' : 'Start Group Session'}
            </a>
          </Button>
        ) : own ? (
          <Button asChild variant="outline" className="w-full">
            <Link to="/mentor-dashboard">Your session: manage it on your dashboard</Link>
          </Button>
        ) : button.kind === 'join-call' ? (
          <Button asChild className="w-full">
            <Link to={button.href}>{button.label}</Link>
          </Button>
        ) : button.kind === 'removed' ? (
          <div className="rounded-lg bg-rose-50 px-3 py-2 text-center text-sm text-rose-700">
            <p className="font-medium">{button.label}</p>
            {session.userRemoval && <p className="mt-1">{session.userRemoval.message}</p>}
          </div>
        ) : button.kind === 'join' ? (
          <Button className="w-full" onClick={onJoin} disabled={join.isPending}>
            {join.isPending ? 'Joining...' : button.label}
          </Button>
        ) : (
          <Button className="w-full" disabled>
            {button.label}
          </Button>
        )}
      </div>
    </Card>
  );
}

export default GroupSessionsPage;

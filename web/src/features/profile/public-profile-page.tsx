import {
  BadgeCheck,
  CalendarDays,
  Mail,
  MessageCircle,
  Pencil,
  Sparkles,
  Star,
  UserX,
  CalendarCheck,
  Compass,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ReportButton } from '@/components/report-button';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FullPageSpinner } from '@/components/ui/spinner';
import { errorStatus } from '@/lib/api-fetch';
import { useUser } from '@/lib/auth';
import { useDocumentTitle } from '@/lib/use-document-title';
import { usePublicUser, useUserMentor, type PublicUser, type UserMentor } from './api';
import { fullName, memberSince, ratingText, roleLabel } from './format';
import { UserAvatar } from './user-avatar';

function CenteredCard({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-20">
      <Card className="w-full max-w-md text-center">
        <CardContent className="flex flex-col items-center gap-4">{children}</CardContent>
      </Card>
    </div>
  );
}

function UserNotFound() {
  useDocumentTitle('User Not Found');
  return (
    <CenteredCard>
      <UserX aria-hidden="true" className="h-12 w-12 text-slate-400" />
      <h1 className="text-2xl font-semibold text-slate-900">User Not Found</h1>
      <p className="text-sm text-slate-600">The profile you're looking for doesn't exist or is no longer available.</p>
      <Button asChild>
        <Link to="/">Go Home</Link>
      </Button>
    </CenteredCard>
  );
}

function Badge({
  tone,
  icon: Icon,
  children,
}: {
  tone: 'green' | 'amber' | 'indigo';
  icon?: typeof Star;
  children: ReactNode;
}) {
  const tones = {
    green: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
    amber: 'bg-amber-50 text-amber-800 ring-amber-200',
    indigo: 'bg-indigo-50 text-indigo-700 ring-indigo-200',
  } as const;
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-1 text-xs font-medium ring-1 ${tones[tone]}`}
    >
      {Icon && <Icon aria-hidden="true" className="h-3.5 w-3.5" />}
      {children}
    </span>
  );
}

function MentorCard({ mentor }: { mentor: UserMentor }) {
  const rating = ratingText(mentor.rating, mentor.reviewCount);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-lg">
          <Sparkles aria-hidden="true" className="h-5 w-5 text-indigo-600" />
          Mentor Profile
        </CardTitle>
        <p className="text-sm text-slate-600">Offers sessions as {mentor.displayName}</p>
      </CardHeader>
      <CardContent className="space-y-5">
        {mentor.specialties.length > 0 && (
          <div>
            <h3 className="text-xs font-medium uppercase tracking-wide text-slate-500">Specialties</h3>
            <ul className="mt-2 flex flex-wrap gap-2">
              {mentor.specialties.map((s) => (
                <li key={s} className="rounded-full bg-violet-50 px-3 py-1 text-xs font-medium text-violet-700">
                  {s}
                </li>
              ))}
            </ul>
          </div>
        )}
        <dl className="grid grid-cols-2 gap-4">
          <div className="rounded-xl bg-slate-50 p-4">
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Total Sessions</dt>
            <dd className="mt-1 text-2xl font-semibold text-slate-900">{mentor.totalSessions}</dd>
          </div>
          <div className="rounded-xl bg-slate-50 p-4">
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Rating</dt>
            <dd className="mt-1 flex items-center gap-1 text-2xl font-semibold text-slate-900">
              {rating ? (
                <>
                  <Star aria-hidden="true" className="h-5 w-5 fill-amber-400 text-amber-400" />
                  {rating}
                  <span className="sr-only"> out of 5</span>
                </>
              ) : (
                <span className="text-base font-medium text-slate-500">No reviews yet</span>
              )}
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

/**
 * Whether the viewer can message this member: conversations are between a mentor and a client, so
 * one of the two must be a mentor (a seeker is not offered a message to another seeker).
 */
function canMessage(user: PublicUser, mentor: UserMentor | null, viewerIsMentor: boolean): boolean {
  return viewerIsMentor || mentor !== null || user.role === 'mentor';
}

function Actions({
  user,
  mentor,
  isSelf,
  viewerIsMentor,
}: {
  user: PublicUser;
  mentor: UserMentor | null;
  isSelf: boolean;
  viewerIsMentor: boolean;
}) {
  return (
    <div className="flex flex-wrap gap-3">
      {isSelf ? (
        <Button asChild variant="outline">
          <Link to="/profile">
            <Pencil aria-hidden="true" className="h-4 w-4" />
            Edit Profile
          </Link>
        </Button>
      ) : !canMessage(user, mentor, viewerIsMentor) ? null : (
        <Button asChild>
          <Link to={`/messages?user=${encodeURIComponent(user.id)}`}>
            <MessageCircle aria-hidden="true" className="h-4 w-4" />
            Send Message
          </Link>
        </Button>
      )}
      {mentor && (
        <>
          <Button asChild variant="outline">
            <Link to={`/mentor/${mentor.id}`}>
              <Compass aria-hidden="true" className="h-4 w-4" />
              View Mentor Profile
            </Link>
          </Button>
          {!isSelf && (
            <Button asChild variant="gradient">
              <Link to={`/mentor/${mentor.id}`}>
                <CalendarCheck aria-hidden="true" className="h-4 w-4" />
                Book a Session
              </Link>
            </Button>
          )}
        </>
      )}
      {!isSelf && <ReportButton targetType="user" targetId={user.id} />}
    </div>
  );
}

/** /profile/{id}, a member's public profile. */
export function PublicProfilePage() {
  const { id = '' } = useParams();
  const { user: viewer } = useUser();
  const userQuery = usePublicUser(id);
  const mentorQuery = useUserMentor(id, userQuery.isSuccess);
  const profile = userQuery.data;
  useDocumentTitle(profile ? fullName(profile) : 'Profile');

  if (userQuery.isLoading) return <FullPageSpinner label="Loading profile" />;
  if (userQuery.isError) {
    if (errorStatus(userQuery.error) === 404) return <UserNotFound />;
    return (
      <CenteredCard>
        <h1 className="text-2xl font-semibold text-slate-900">Unable to Load Profile</h1>
        <p className="text-sm text-slate-600">Please check your connection and try again.</p>
        <Button onClick={() => void userQuery.refetch()}>Retry</Button>
      </CenteredCard>
    );
  }
  if (!profile) return <UserNotFound />;

  const isSelf = viewer?.id === profile.id;
  const mentor = mentorQuery.data ?? null;
  const name = fullName(profile);
  const role = roleLabel(profile);

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card>
            <CardContent className="flex flex-col gap-6 sm:flex-row sm:items-start">
              <UserAvatar user={profile} alt={`${name}'s profile photo`} className="h-28 w-28 shrink-0" />
              <div className="min-w-0 flex-1 space-y-3">
                <div className="flex flex-wrap items-center gap-2">
                  <h1 className="font-display text-3xl font-semibold tracking-tight text-slate-900">{name}</h1>
                  {profile.emailVerified && (
                    <Badge tone="green" icon={BadgeCheck}>
                      Verified
                    </Badge>
                  )}
                </div>
                <div className="flex flex-wrap items-center gap-2">
                  <Badge tone="indigo">{role}</Badge>
                </div>
                <ul className="space-y-1.5 text-sm text-slate-600">
                  {profile.email && (
                    <li className="flex items-center gap-2">
                      <Mail aria-hidden="true" className="h-4 w-4 text-slate-400" />
                      <span className="break-all">{profile.email}</span>
                    </li>
                  )}
                  <li className="flex items-center gap-2">
                    <CalendarDays aria-hidden="true" className="h-4 w-4 text-slate-400" />
                    Member since {memberSince(profile.createdAt)}
                  </li>
                </ul>
                <Actions user={profile} mentor={mentor} isSelf={isSelf} viewerIsMentor={viewer?.isMentor === true} />
              </div>
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle className="text-lg">About</CardTitle>
            </CardHeader>
            <CardContent>
              {profile.bio ? (
                <p className="whitespace-pre-line text-sm leading-relaxed text-slate-700">{profile.bio}</p>
              ) : (
                <p className="text-sm text-slate-500">{isSelf ? 'You have not added a bio yet.' : 'No bio yet.'}</p>
              )}
            </CardContent>
          </Card>

          {mentor && <MentorCard mentor={mentor} />}
        </div>

        <aside aria-label="Account details">
          <Card>
            <CardHeader>
              <CardTitle className="text-lg">Account</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="space-y-4 text-sm">
                <div className="flex items-center justify-between gap-4">
                  <dt className="text-slate-500">Status</dt>
                  <dd>
                    {profile.isActive ? <Badge tone="green">Active</Badge> : <Badge tone="amber">Inactive</Badge>}
                  </dd>
                </div>
                <div className="flex items-center justify-between gap-4">
                  <dt className="text-slate-500">Role</dt>
                  <dd className="font-medium text-slate-900">{role}</dd>
                </div>
                <div className="flex items-center justify-between gap-4">
                  <dt className="text-slate-500">Verified</dt>
                  <dd className="font-medium text-slate-900">{profile.emailVerified ? 'Yes' : 'No'}</dd>
                </div>
              </dl>
            </CardContent>
          </Card>
        </aside>
      </div>
    </div>
  );
}

export default PublicProfilePage;

import { BadgeCheck, KeyRound, MailWarning, Pencil, ShieldCheck, UserRound } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FullPageSpinner } from '@/components/ui/spinner';
import { MIN_PASSWORD_LENGTH } from '@/config/constants';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useOwnProfile } from './api';
import { CalendarFeedCard } from './calendar-feed';
import { ChangePasswordForm } from './change-password-form';
import { fullName, memberSince, roleLabel } from './format';
import { ProfileDetailsForm } from './profile-details-form';
import { PrivacyAndSecurity } from './privacy-security';
import { ProfileImageUpload } from './profile-image-upload';
import { UserAvatar } from './user-avatar';
import { draftFrom } from './validation';

// A <dl> holds <dt>/<dd> groups directly or each in one <div>; nothing deeper (axe: definition-list).
function Detail({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={className}>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

function NotSet() {
  return <span className="text-slate-500">Not set</span>;
}

/** /profile, my profile with edit mode, photo upload and the change-password form. */
export function ProfilePage() {
  useDocumentTitle('My Profile');
  const profile = useOwnProfile();
  const user = profile.data;
  const [editing, setEditing] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);

  if (profile.isLoading) return <FullPageSpinner label="Loading profile" />;
  if (!user) {
    return (
      <div className="flex flex-1 items-center justify-center px-4 py-20">
        <Card className="w-full max-w-md text-center">
          <CardContent className="flex flex-col items-center gap-4">
            <h1 className="text-2xl font-semibold text-slate-900">Unable to Load Profile</h1>
            <p className="text-sm text-slate-600">Please check your connection and try again.</p>
            <Button onClick={() => void profile.refetch()}>Retry</Button>
          </CardContent>
        </Card>
      </div>
    );
  }
  const name = fullName(user);

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 lg:px-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-display text-3xl font-semibold tracking-tight text-slate-900">My Profile</h1>
          <p className="mt-1 text-sm text-slate-600">Manage your personal information, photo and password.</p>
        </div>
        <Button asChild variant="ghost" size="sm">
          <Link to={`/profile/${user.id}`}>View public profile</Link>
        </Button>
      </div>

      {pendingEmail && (
        <Alert variant="info" className="mt-6">
          <p className="font-medium">Please verify your new email address</p>
          <p>
            We sent a verification link to <strong>{pendingEmail}</strong>. You must verify the new address before your
            next sign-in.
          </p>
        </Alert>
      )}

      <div className="mt-8 grid gap-6 lg:grid-cols-3">
        <Card className="h-fit">
          <CardContent className="flex flex-col items-center gap-4 text-center">
            <UserAvatar user={user} alt="Your profile photo" className="h-28 w-28" />
            <div>
              <h2 className="text-xl font-semibold text-slate-900">{name}</h2>
              <p className="mt-1 break-all text-sm text-slate-600">{user.email}</p>
              <p className="mt-2 inline-flex items-center gap-1 rounded-full bg-indigo-50 px-3 py-1 text-xs font-medium text-indigo-700">
                {roleLabel(user)}
              </p>
            </div>
            <ProfileImageUpload />
          </CardContent>
        </Card>

        <div className="space-y-6 lg:col-span-2">
          <Card>
            <CardHeader className="flex flex-row items-center justify-between gap-3">
              <CardTitle className="flex items-center gap-2 text-lg">
                <UserRound aria-hidden="true" className="h-5 w-5 text-indigo-600" />
                Profile Information
              </CardTitle>
              {!editing && (
                <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
                  <Pencil aria-hidden="true" className="h-4 w-4" />
                  Edit Profile
                </Button>
              )}
            </CardHeader>
            <CardContent>
              {editing ? (
                <ProfileDetailsForm
                  saved={draftFrom(user)}
                  onDone={(result) => {
                    setEditing(false);
                    if (result?.newEmail) setPendingEmail(result.newEmail);
                  }}
                />
              ) : (
                <dl className="grid gap-5 sm:grid-cols-2">
                  <Detail label="First Name">{user.firstName || <NotSet />}</Detail>
                  <Detail label="Last Name">{user.lastName || <NotSet />}</Detail>
                  <Detail label="Email">
                    <span className="inline-flex flex-wrap items-center gap-2">
                      <span className="break-all">{user.email}</span>
                      {user.emailVerified ? (
                        <span className="inline-flex items-center gap-1 text-xs font-medium text-emerald-700">
                          <BadgeCheck aria-hidden="true" className="h-4 w-4" />
                          Verified
                        </span>
                      ) : (
                        <span className="inline-flex items-center gap-1 text-xs font-medium text-amber-700">
                          <MailWarning aria-hidden="true" className="h-4 w-4" />
                          Not verified
                        </span>
                      )}
                    </span>
                  </Detail>
                  <Detail label="Member Since">{memberSince(user.createdAt)}</Detail>
                  <Detail label="Bio" className="sm:col-span-2">
                    {user.bio ? <span className="whitespace-pre-line">{user.bio}</span> : <NotSet />}
                  </Detail>
                </dl>
              )}
            </CardContent>
          </Card>

          <Card>
            <CardHeader className="flex flex-row items-center justify-between gap-3">
              <CardTitle className="flex items-center gap-2 text-lg">
                <ShieldCheck aria-hidden="true" className="h-5 w-5 text-indigo-600" />
                Security
              </CardTitle>
              {!changingPassword && (
                <Button variant="outline" size="sm" onClick={() => setChangingPassword(true)}>
                  <KeyRound aria-hidden="true" className="h-4 w-4" />
                  Change Password
                </Button>
              )}
            </CardHeader>
            <CardContent>
              {changingPassword ? (
                <ChangePasswordForm onDone={() => setChangingPassword(false)} />
              ) : (
                <p className="text-sm text-slate-600">
                  Use a password of at least {MIN_PASSWORD_LENGTH} characters that you do not use anywhere else.
                  Changing it signs you out on your other devices.
                </p>
              )}
            </CardContent>
          </Card>

          <CalendarFeedCard />
          <PrivacyAndSecurity
            twoFactorEnabled={user.twoFactorEnabled}
            deletionScheduledAt={user.deletionScheduledAt ?? null}
          />
        </div>
      </div>
    </div>
  );
}

export default ProfilePage;

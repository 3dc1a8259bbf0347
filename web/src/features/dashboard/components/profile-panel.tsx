import { Pencil } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { initialsOf } from '@/components/mentor-avatar';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DASHBOARD_TEXT } from '@/features/dashboard/texts';
import type { ClientDashboard } from '../api';

/** 'Active member' after the first session, else 'New member'. */
export function memberSinceText(totalSessions: number): string {
  return totalSessions > 0 ? DASHBOARD_TEXT.activeMember : DASHBOARD_TEXT.newMember;
}

/** A name part, or 'Not set'. */
export function orNotSet(value: string | null | undefined): string {
  return value?.trim() || DASHBOARD_TEXT.notSet;
}

/** The read-only Profile tab: avatar, first and last name, e-mail, member since. */
export function ProfilePanel({ user, totalSessions }: { user: ClientDashboard['user']; totalSessions: number }) {
  const fullName = [user.firstName, user.lastName]
    .map((p) => p?.trim())
    .filter(Boolean)
    .join(' ');
  return (
    <Card className="p-6">
      <div className="flex flex-col gap-6 sm:flex-row sm:items-start">
        <Avatar src={user.profileImageUrl ?? undefined} name={fullName || user.email} />
        <dl className="grid flex-1 gap-x-8 gap-y-4 sm:grid-cols-2">
          <Item label="First Name" value={orNotSet(user.firstName)} />
          <Item label="Last Name" value={orNotSet(user.lastName)} />
          <Item label="Email" value={user.email} />
          <Item label="Member Since" value={memberSinceText(totalSessions)} />
        </dl>
      </div>
      <div className="mt-6 flex justify-end border-t border-slate-100 pt-4">
        <Button asChild variant="outline" size="sm">
          <Link to="/profile">
            <Pencil aria-hidden="true" className="h-4 w-4" />
            Edit on My Profile
          </Link>
        </Button>
      </div>
    </Card>
  );
}

function Avatar({ src, name }: { src?: string; name: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const base = 'h-20 w-20 shrink-0 rounded-full ring-4 ring-indigo-50';
  if (src && failed !== src) {
    return <img src={src} alt="Your profile photo" className={`${base} object-cover`} onError={() => setFailed(src)} />;
  }
  return (
    <span
      role="img"
      aria-label="Your profile photo"
      className={`${base} inline-flex items-center justify-center bg-gradient-to-br from-indigo-500 to-violet-600 text-2xl font-semibold text-white`}
    >
      <span aria-hidden="true">{initialsOf(name)}</span>
    </span>
  );
}

function Item({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-1 break-words font-medium text-slate-900">{value}</dd>
    </div>
  );
}

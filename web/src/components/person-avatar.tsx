import { useState } from 'react';
import { initialsOf } from '@/components/mentor-avatar';
import { cn } from '@/lib/utils';
import type { Person } from '@/lib/realtime';

/** 'First Last', or 'Someone' when the account has no name. */
export function personName(person: Pick<Person, 'firstName' | 'lastName'> | null | undefined): string {
  return [person?.firstName, person?.lastName].filter((part) => part && part.trim()).join(' ') || 'Someone';
}

/** The profile photo, or the initials when there is none or it fails to load. Decorative. */
export function PersonAvatar({
  person,
  name,
  imageUrl,
  className,
}: {
  person: Pick<Person, 'firstName' | 'lastName' | 'profileImageUrl'>;
  /** The name shown beside it (a mentor's display name, say); the initials follow it. */
  name?: string;
  imageUrl?: string | null;
  className?: string;
}) {
  const src = imageUrl || person.profileImageUrl || null;
  const [failed, setFailed] = useState<string | null>(null);
  const base = cn('h-10 w-10 shrink-0 rounded-full text-sm', className);
  if (src && failed !== src) {
    return <img src={src} alt="" className={cn(base, 'object-cover')} onError={() => setFailed(src)} />;
  }
  return (
    <span
      aria-hidden="true"
      data-testid="avatar-initials"
      className={cn(
        base,
        'inline-flex items-center justify-center bg-gradient-to-br from-indigo-500 to-violet-600 font-semibold text-white',
      )}
    >
      {initialsOf(name ?? (personName(person) === 'Someone' ? '' : personName(person)))}
    </span>
  );
}

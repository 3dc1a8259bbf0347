import { useState } from 'react';
import type { Mentor } from '@/lib/catalogue';
import { cn } from '@/lib/utils';

/** Up to two initials of a name ('Luna Starweaver' -> 'LS'); '?' for none. */
export function initialsOf(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? `${words[0][0]}${words[words.length - 1][0]}` : (words[0]?.slice(0, 2) ?? '');
  return letters.toUpperCase() || '?';
}

/** What an avatar reads of a mentor; a booking's mentor card has no account (`user`). */
type AvatarMentor = Pick<Mentor, 'displayName' | 'profileImageUrl'> & {
  user?: Pick<Mentor['user'], 'profileImageUrl'> | null;
};

/** The mentor's photo: the mentor profile's image, else the account's, else initials. */
export function mentorImage(mentor: Pick<AvatarMentor, 'profileImageUrl' | 'user'>): string | null {
  return mentor.profileImageUrl || mentor.user?.profileImageUrl || null;
}

const sizes = {
  sm: 'h-10 w-10 text-sm',
  md: 'h-16 w-16 text-lg',
  lg: 'h-24 w-24 text-2xl sm:h-28 sm:w-28 sm:text-3xl',
} as const;

type MentorAvatarProps = {
  mentor: AvatarMentor;
  size?: keyof typeof sizes;
  className?: string;
};

/** Decorative (the name is always shown beside it); falls back to initials if the image fails. */
export function MentorAvatar({ mentor, size = 'md', className }: MentorAvatarProps) {
  const src = mentorImage(mentor);
  const [failed, setFailed] = useState<string | null>(null);
  const base = cn('shrink-0 rounded-full ring-4 ring-white', sizes[size], className);
  if (src && failed !== src) {
    return <img src={src} alt="" className={cn(base, 'object-cover')} onError={() => setFailed(src)} />;
  }
  return (
    <span
      aria-hidden="true"
      className={cn(
        base,
        'inline-flex items-center justify-center bg-gradient-to-br from-indigo-500 to-violet-600 font-semibold text-white',
      )}
    >
      {initialsOf(mentor.displayName)}
    </span>
  );
}

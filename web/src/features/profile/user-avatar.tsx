import { cn } from '@/lib/utils';
import { initials } from './format';

type AvatarUser = {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  profileImageUrl?: string | null;
};

/** The profile photo, or the initials on a gradient when there is none. */
export function UserAvatar({ user, alt, className }: { user: AvatarUser; alt: string; className?: string }) {
  if (user.profileImageUrl) {
    return (
      <img
        src={user.profileImageUrl}
        alt={alt}
        className={cn('h-24 w-24 rounded-full object-cover ring-4 ring-white shadow-md', className)}
      />
    );
  }
  return (
    <span
      role="img"
      aria-label={alt}
      className={cn(
        'inline-flex h-24 w-24 items-center justify-center rounded-full bg-gradient-to-br from-indigo-500 to-violet-600 text-2xl font-semibold text-white ring-4 ring-white shadow-md',
        className,
      )}
    >
      <span aria-hidden="true">{initials(user)}</span>
    </span>
  );
}

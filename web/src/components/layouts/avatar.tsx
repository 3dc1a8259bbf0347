import type { User } from '@/lib/auth';
import { cn } from '@/lib/utils';

export function initials(user: User): string {
  const letters = `${user.firstName?.[0] ?? ''}${user.lastName?.[0] ?? ''}`.toUpperCase();
  return letters || user.email[0]?.toUpperCase() || '?';
}

export function fullName(user: User): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
}

export function Avatar({ user, className }: { user: User; className?: string }) {
  return user.profileImageUrl ? (
    <img src={user.profileImageUrl} alt="" className={cn('h-9 w-9 rounded-full object-cover', className)} />
  ) : (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex h-9 w-9 items-center justify-center rounded-full bg-gradient-to-br from-indigo-100 to-violet-200 text-sm font-semibold text-indigo-800',
        className,
      )}
    >
      {initials(user)}
    </span>
  );
}

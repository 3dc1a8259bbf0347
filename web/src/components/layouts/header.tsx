import * as Dialog from '@radix-ui/react-dialog';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { LogOut, Menu, MessageCircle, User as UserIcon, X } from 'lucide-react';
import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import { toast } from 'sonner';
import { BrandLink } from '@/components/brand';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-fetch';
import { useLogout, useRoles, type User } from '@/lib/auth';
import { LOGIN_URL } from '@/lib/navigation';
import { cn } from '@/lib/utils';
import { BECOME_MENTOR_LINK, SIGNED_OUT_LINKS, signedInLinks, type NavLinkItem } from './nav-links';
import { NotificationBell } from './notification-bell';
import { UnreadMessagesBadge } from './unread-messages-badge';

function initials(user: User): string {
  const letters = `${user.firstName?.[0] ?? ''}${user.lastName?.[0] ?? ''}`.toUpperCase();
  return letters || user.email[0]?.toUpperCase() || '?';
}

export function fullName(user: User): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
}

function Avatar({ user, className }: { user: User; className?: string }) {
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

const desktopLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-lg px-3 py-2 text-sm font-medium transition-colors',
    isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
  );

function useLogoutAction() {
  const logout = useLogout();
  const run = () =>
    logout.mutate(undefined, {
      onError: (error) => toast.error('Logout failed', { description: errorMessage(error, 'Please try again.') }),
    });
  return { run, isPending: logout.isPending };
}

export function Header() {
  const { user, isAdmin, isMentor } = useRoles();
  const [mobileOpen, setMobileOpen] = useState(false);
  const logout = useLogoutAction();

  const links: NavLinkItem[] = user ? signedInLinks({ isAdmin, isMentor }) : [];
  // Admins run the platform: becoming a mentor is not theirs to be offered.
  const showBecomeMentor = !!user && !isMentor && !isAdmin;

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/85 backdrop-blur supports-[backdrop-filter]:bg-white/70">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-3 focus:z-50 focus:rounded-lg focus:bg-white focus:px-3 focus:py-2 focus:text-sm focus:shadow"
      >
        Skip to content
      </a>
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <BrandLink />

        {user ? (
          <nav aria-label="Main" className="hidden items-center gap-1 xl:flex">
            {links.map((link) => (
              <NavLink key={link.to} to={link.to} className={desktopLinkClass}>
                {link.label}
                {link.to === '/messages' && <UnreadMessagesBadge />}
              </NavLink>
            ))}
          </nav>
        ) : (
          <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
            {SIGNED_OUT_LINKS.map((link) => (
              <Link
                key={link.label}
                to={link.to}
                className="rounded-lg px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
              >
                {link.label}
              </Link>
            ))}
          </nav>
        )}

        <div className="flex items-center gap-1.5">
          {user ? (
            <>
              {showBecomeMentor && (
                <Button asChild variant="secondary" size="sm" className="hidden xl:inline-flex">
                  <Link to={BECOME_MENTOR_LINK.to}>{BECOME_MENTOR_LINK.label}</Link>
                </Button>
              )}
              <Button asChild variant="ghost" size="icon" className="relative hidden sm:inline-flex xl:hidden">
                <Link to="/messages">
                  <MessageCircle aria-hidden="true" className="h-5 w-5" />
                  <span className="sr-only">Messages</span>
                  <UnreadMessagesBadge floating />
                </Link>
              </Button>
              <NotificationBell />
              <AccountMenu user={user} onLogout={logout.run} loggingOut={logout.isPending} />
            </>
          ) : (
            <Button asChild variant="gradient" size="sm">
              <a href={LOGIN_URL}>Sign In</a>
            </Button>
          )}
          <MobileMenu
            open={mobileOpen}
            onOpenChange={setMobileOpen}
            user={user}
            links={links}
            showBecomeMentor={showBecomeMentor}
            onLogout={logout.run}
            loggingOut={logout.isPending}
          />
        </div>
      </div>
    </header>
  );
}

function AccountMenu({ user, onLogout, loggingOut }: { user: User; onLogout: () => void; loggingOut: boolean }) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <button
          type="button"
          // With no photo the initials show, so they are part of the name (WCAG 2.5.3, label in name).
          aria-label={user.profileImageUrl ? 'Account menu' : `Account menu, ${initials(user)}`}
          className="hidden rounded-full ring-offset-2 transition hover:ring-2 hover:ring-indigo-200 sm:inline-flex"
        >
          <Avatar user={user} />
        </button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 w-64 rounded-xl border border-slate-200 bg-white p-1.5 shadow-lg shadow-slate-300/40 animate-fade-in"
        >
          <div className="px-3 py-2">
            <p className="truncate text-sm font-semibold text-slate-900">{fullName(user)}</p>
            <p className="truncate text-xs text-slate-500">{user.email}</p>
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-slate-100" />
          <DropdownMenu.Item asChild>
            <Link
              to="/profile"
              className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-indigo-50 data-[highlighted]:text-indigo-700"
            >
              <UserIcon aria-hidden="true" className="h-4 w-4" />
              Profile
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item
            disabled={loggingOut}
            onSelect={onLogout}
            className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-700 outline-none data-[disabled]:opacity-60 data-[highlighted]:bg-rose-50 data-[highlighted]:text-rose-700"
          >
            <LogOut aria-hidden="true" className="h-4 w-4" />
            Log out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

type MobileMenuProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  user: User | null;
  links: NavLinkItem[];
  showBecomeMentor: boolean;
  onLogout: () => void;
  loggingOut: boolean;
};

function MobileMenu({ open, onOpenChange, user, links, showBecomeMentor, onLogout, loggingOut }: MobileMenuProps) {
  const close = () => onOpenChange(false);
  const itemClass = ({ isActive }: { isActive: boolean }) =>
    cn(
      'block rounded-lg px-3 py-2.5 text-base font-medium',
      isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700 hover:bg-slate-100',
    );
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>
        <Button variant="ghost" size="icon" aria-label="Open menu" className={user ? 'xl:hidden' : 'md:hidden'}>
          <Menu aria-hidden="true" className="h-6 w-6" />
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40 backdrop-blur-sm" />
        <Dialog.Content className="fixed inset-y-0 right-0 z-50 flex w-full max-w-xs flex-col bg-white shadow-xl outline-none animate-fade-in">
          <div className="flex h-16 items-center justify-between border-b border-slate-100 px-4">
            <Dialog.Title className="font-display text-lg font-semibold text-slate-900">Menu</Dialog.Title>
            <Dialog.Close asChild>
              <Button variant="ghost" size="icon" aria-label="Close menu">
                <X aria-hidden="true" className="h-5 w-5" />
              </Button>
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">Site navigation</Dialog.Description>
          <nav aria-label="Mobile" className="flex-1 space-y-1 overflow-y-auto p-4">
            {user ? (
              <>
                {links.map((link) => (
                  <NavLink key={link.to} to={link.to} className={itemClass} onClick={close}>
                    {link.label}
                    {link.to === '/messages' && <UnreadMessagesBadge />}
                  </NavLink>
                ))}
                {showBecomeMentor && (
                  <NavLink to={BECOME_MENTOR_LINK.to} className={itemClass} onClick={close}>
                    {BECOME_MENTOR_LINK.label}
                  </NavLink>
                )}
                <NavLink to="/notifications" className={itemClass} onClick={close}>
                  Notifications
                </NavLink>
                <NavLink to="/profile" className={itemClass} onClick={close}>
                  Profile
                </NavLink>
              </>
            ) : (
              SIGNED_OUT_LINKS.map((link) => (
                <Link
                  key={link.label}
                  to={link.to}
                  onClick={close}
                  className="block rounded-lg px-3 py-2.5 text-base font-medium text-slate-700 hover:bg-slate-100"
                >
                  {link.label}
                </Link>
              ))
            )}
          </nav>
          <div className="border-t border-slate-100 p-4">
            {user ? (
              <div className="space-y-3">
                <div className="flex items-center gap-3">
                  <Avatar user={user} />
                  <div className="min-w-0">
                    <p className="truncate text-sm font-semibold text-slate-900">{fullName(user)}</p>
                    <p className="truncate text-xs text-slate-500">{user.email}</p>
                  </div>
                </div>
                <Button variant="outline" className="w-full" onClick={onLogout} disabled={loggingOut}>
                  <LogOut aria-hidden="true" className="h-4 w-4" />
                  Log out
                </Button>
              </div>
            ) : (
              <Button asChild variant="gradient" className="w-full">
                <a href={LOGIN_URL}>Sign In</a>
              </Button>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

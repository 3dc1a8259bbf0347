import { Menu, MessageCircle } from 'lucide-react';
import { lazy, Suspense, useState, type ComponentProps } from 'react';
import { Link, NavLink } from 'react-router';
import { BrandLink } from '@/components/brand';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-fetch';
import { useLogout, useRoles } from '@/lib/auth';
import { SIGN_IN_PATH } from '@/lib/navigation';
import { cn } from '@/lib/utils';
import { BECOME_MENTOR_LINK, SIGNED_OUT_LINKS, signedInLinks, type NavLinkItem } from './nav-links';
import type { MobileMenuProps } from './mobile-menu';

// What only a signed-in header shows (the bell, the account menu, the unread badge, with the menu
// library they use) loads on demand, so a signed-out visitor's first page stays light.
const LazyNotificationBell = lazy(() => import('./notification-bell').then((m) => ({ default: m.NotificationBell })));
const LazyAccountMenu = lazy(() => import('./account-menu').then((m) => ({ default: m.AccountMenu })));
const LazyUnreadMessagesBadge = lazy(() =>
  import('./unread-messages-badge').then((m) => ({ default: m.UnreadMessagesBadge })),
);

function NotificationBell() {
  return (
    <Suspense fallback={null}>
      <LazyNotificationBell />
    </Suspense>
  );
}

function AccountMenu(props: ComponentProps<typeof LazyAccountMenu>) {
  return (
    <Suspense fallback={null}>
      <LazyAccountMenu {...props} />
    </Suspense>
  );
}

const LazyMobileMenu = lazy(() => import('./mobile-menu').then((m) => ({ default: m.MobileMenu })));

/**
 * The menu button of narrow screens. The dialog behind it (and its library) loads on the first
 * press; until then the same button stands in its place.
 */
function MobileMenu(props: MobileMenuProps) {
  const [wanted, setWanted] = useState(false);
  const placeholder = (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Open menu"
      aria-haspopup="dialog"
      aria-expanded={false}
      className={props.user ? 'xl:hidden' : 'md:hidden'}
      onClick={() => {
        setWanted(true);
        props.onOpenChange(true);
      }}
    >
      <Menu aria-hidden="true" className="h-6 w-6" />
    </Button>
  );
  if (!wanted) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <LazyMobileMenu {...props} />
    </Suspense>
  );
}

function UnreadMessagesBadge(props: ComponentProps<typeof LazyUnreadMessagesBadge>) {
  return (
    <Suspense fallback={null}>
      <LazyUnreadMessagesBadge {...props} />
    </Suspense>
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
      onError: (error) =>
        void import('sonner').then(({ toast }) =>
          toast.error('Logout failed', { description: errorMessage(error, 'Please try again.') }),
        ),
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
              <Link to={SIGN_IN_PATH}>Sign In</Link>
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

import * as Dialog from '@radix-ui/react-dialog';
import { LogOut, Menu, X } from 'lucide-react';
import { Link, NavLink } from 'react-router';
import { Button } from '@/components/ui/button';
import type { User } from '@/lib/auth';
import { SIGN_IN_PATH } from '@/lib/navigation';
import { cn } from '@/lib/utils';
import { Avatar, fullName } from './avatar';
import { BECOME_MENTOR_LINK, SIGNED_OUT_LINKS, type NavLinkItem } from './nav-links';
import { UnreadMessagesBadge } from './unread-messages-badge';

/** The narrow screens' navigation: a dialog from the right with the links, and sign in or out. */
export type MobileMenuProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  user: User | null;
  links: NavLinkItem[];
  showBecomeMentor: boolean;
  onLogout: () => void;
  loggingOut: boolean;
};

export function MobileMenu({
  open,
  onOpenChange,
  user,
  links,
  showBecomeMentor,
  onLogout,
  loggingOut,
}: MobileMenuProps) {
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
                <NavLink to="/receipts" className={itemClass} onClick={close}>
                  Receipts
                </NavLink>
                <NavLink to="/wallet" className={itemClass} onClick={close}>
                  Wallet
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
                <Link to={SIGN_IN_PATH}>Sign In</Link>
              </Button>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

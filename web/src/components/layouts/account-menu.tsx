import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { LogOut, Receipt as ReceiptIcon, User as UserIcon, Wallet as WalletIcon } from 'lucide-react';
import { Link } from 'react-router';
import type { User } from '@/lib/auth';
import { Avatar, fullName, initials } from './avatar';

/** The signed-in header's account menu: who is signed in, Profile, Log out. */
export function AccountMenu({ user, onLogout, loggingOut }: { user: User; onLogout: () => void; loggingOut: boolean }) {
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
          <DropdownMenu.Item asChild>
            <Link
              to="/receipts"
              className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-indigo-50 data-[highlighted]:text-indigo-700"
            >
              <ReceiptIcon aria-hidden="true" className="h-4 w-4" />
              Receipts
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild>
            <Link
              to="/wallet"
              className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-indigo-50 data-[highlighted]:text-indigo-700"
            >
              <WalletIcon aria-hidden="true" className="h-4 w-4" />
              Wallet
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

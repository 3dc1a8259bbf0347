/** The header's links, by role: what a seeker, a mentor and an administrator each see. */
export type NavLinkItem = { to: string; label: string };

export type NavRoles = { isAdmin: boolean; isMentor: boolean };

export function signedInLinks({ isAdmin, isMentor }: NavRoles): NavLinkItem[] {
  const links: NavLinkItem[] = [
    { to: '/mentors', label: 'Find Mentors' },
    { to: '/group-sessions', label: 'Group Sessions' },
    { to: '/messages', label: 'Messages' },
    { to: '/favorites', label: 'Favorites' },
  ];
  // A mentor can book other mentors too: their own bookings as a client stay one click away.
  if (isMentor)
    links.push({ to: '/mentor-dashboard', label: 'Mentor Dashboard' }, { to: '/dashboard', label: 'My Bookings' });
  else links.push({ to: '/dashboard', label: 'My Dashboard' });
  if (isAdmin) links.push({ to: '/admin', label: 'Admin' });
  return links;
}

/** Shown to signed-in users who are not mentors yet. */
export const BECOME_MENTOR_LINK: NavLinkItem = { to: '/become-mentor', label: 'Become a Mentor' };

/**
 * Signed out, the header shows the public catalogue ('Find Mentors') and 'Services' and 'About',
 * which point into the landing page.
 */
export const SIGNED_OUT_LINKS: NavLinkItem[] = [
  { to: '/mentors', label: 'Find Mentors' },
  { to: '/#services', label: 'Services' },
  { to: '/#how-it-works', label: 'About' },
];

/**
 * The admin dashboard's words and numbers (spec 02: Admin dashboard, error catalogue, constants).
 */

/** The bookings table shows this many bookings per page (the api's default page size). */
export const ADMIN_BOOKINGS_PAGE_SIZE = 20;

export const ADMIN_TEXT = {
  title: 'Admin Dashboard',
  accessDenied: 'Access Denied',
  accessDeniedBody: "You don't have permission to access the admin dashboard.",
  statsFailed: 'Failed to fetch platform stats',
  usersFailed: 'Failed to fetch users',
  mentorsFailed: 'Failed to fetch mentors',
  bookingsFailed: 'Failed to fetch bookings',
  statusFailed: 'Failed to update user status',
  activated: 'User activated',
  deactivated: 'User deactivated',
  cannotDeactivateSelf: 'You cannot deactivate your own account',
} as const;

/** The stat cards, in order. */
export const ADMIN_STAT_CARDS = [
  { key: 'totalUsers', label: 'Total Users' },
  { key: 'totalMentors', label: 'Total Mentors' },
  { key: 'totalBookings', label: 'Total Bookings' },
  { key: 'totalRevenue', label: 'Total Revenue' },
] as const;

/** The tabs; Users is the default. */
export const ADMIN_TABS = [
  { value: 'users', label: 'Users' },
  { value: 'mentors', label: 'Mentors' },
  { value: 'bookings', label: 'Bookings' },
  { value: 'complaints', label: 'Complaints' },
  { value: 'reports', label: 'Reports' },
  { value: 'messages', label: 'Messages' },
  { value: 'announcements', label: 'Announcements' },
] as const;

/** How many pages `total` bookings fill (at least one, so 'Page 1 of 1' reads right when empty). */
export function pageCount(total: number, pageSize: number = ADMIN_BOOKINGS_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

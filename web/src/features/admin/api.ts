import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getAdminStats,
  getGetAdminStatsUrl,
  getListAdminBookingsUrl,
  getListAdminMentorsUrl,
  getListAdminUsersUrl,
  getListAnnouncementsUrl,
  getListComplaintsUrl,
  getListReadingComplaintsUrl,
  getListContactMessagesUrl,
  getListReportsUrl,
  listAdminBookings,
  listAdminMentors,
  listAdminUsers,
  listAnnouncements,
  listComplaints,
  listReadingComplaints,
  listContactMessages,
  listReports,
  setAdminUserStatus,
} from '@/api/endpoints/admin/admin';
import type {
  ListComplaintsParams,
  ListReadingComplaintsParams,
  ListAdminBookingsParams,
  ListAdminMentorsParams,
  ListAdminUsersParams,
  ListContactMessagesParams,
  ListReportsParams,
} from '@/api/model';
import { apiKey } from '@/lib/query-keys';

// The admin dashboard's calls (docs/admin.md). Every one needs an admin session; the page only
// asks when the signed-in user is an admin. Keys without parameters are the prefix of every
// filtered list (for invalidation).

export const adminKeys = {
  stats: () => apiKey(getGetAdminStatsUrl()),
  users: (params?: ListAdminUsersParams) => apiKey(getListAdminUsersUrl(), params),
  mentors: (params?: ListAdminMentorsParams) => apiKey(getListAdminMentorsUrl(), params),
  bookings: (params?: ListAdminBookingsParams) => apiKey(getListAdminBookingsUrl(), params),
  announcements: () => apiKey(getListAnnouncementsUrl()),
  contactMessages: (params?: ListContactMessagesParams) => apiKey(getListContactMessagesUrl(), params),
  reports: (params?: ListReportsParams) => apiKey(getListReportsUrl(), params),
  complaints: (params?: ListComplaintsParams) => apiKey(getListComplaintsUrl(), params),
  readingComplaints: (params?: ListReadingComplaintsParams) => apiKey(getListReadingComplaintsUrl(), params),
};

/** Every admin read is fresh on each visit (staleTime 0): other admins and users change it. */
export const adminQueries = {
  /** GET /api/admin/stats: totalUsers, totalMentors, totalBookings, totalRevenue ('0.00'). */
  stats: () =>
    queryOptions({ queryKey: adminKeys.stats(), queryFn: ({ signal }) => getAdminStats({ signal }), staleTime: 0 }),
  /** GET /api/admin/users?role=&isActive=: newest first. */
  users: (params: ListAdminUsersParams) =>
    queryOptions({
      queryKey: adminKeys.users(params),
      queryFn: ({ signal }) => listAdminUsers(params, { signal }),
      staleTime: 0,
    }),
  /** GET /api/admin/mentors?approvalStatus=: newest first. */
  mentors: (params: ListAdminMentorsParams) =>
    queryOptions({
      queryKey: adminKeys.mentors(params),
      queryFn: ({ signal }) => listAdminMentors(params, { signal }),
      staleTime: 0,
    }),
  /** GET /api/admin/bookings?status=&startDate=&endDate=&page=&pageSize=. */
  bookings: (params: ListAdminBookingsParams) =>
    queryOptions({
      queryKey: adminKeys.bookings(params),
      queryFn: ({ signal }) => listAdminBookings(params, { signal }),
      staleTime: 0,
    }),
  /** GET /api/admin/announcements: newest first, each with its delivery. */
  announcements: () =>
    queryOptions({
      queryKey: adminKeys.announcements(),
      queryFn: ({ signal }) => listAnnouncements({ signal }),
      staleTime: 0,
    }),
  /** GET /api/admin/contact-messages?status= (newest first). */
  contactMessages: (params: ListContactMessagesParams) =>
    queryOptions({
      queryKey: adminKeys.contactMessages(params),
      queryFn: ({ signal }) => listContactMessages(params, { signal }),
      staleTime: 0,
    }),
  /** GET /api/admin/complaints?status= (oldest open first): {items, total}. */
  complaints: (params: ListComplaintsParams) =>
    queryOptions({
      queryKey: adminKeys.complaints(params),
      queryFn: ({ signal }) => listComplaints(params, { signal }),
      staleTime: 0,
    }),
  /** GET /api/admin/reading-complaints?status= (issue 36; oldest open first): {items, total}. */
  readingComplaints: (params: ListReadingComplaintsParams) =>
    queryOptions({
      queryKey: adminKeys.readingComplaints(params),
      queryFn: ({ signal }) => listReadingComplaints(params, { signal }),
      staleTime: 0,
    }),
  /** GET /api/admin/reports?status= (newest first). */
  reports: (params: ListReportsParams) =>
    queryOptions({
      queryKey: adminKeys.reports(params),
      queryFn: ({ signal }) => listReports(params, { signal }),
      staleTime: 0,
    }),
};

export function useAdminStats(enabled: boolean) {
  return useQuery({ ...adminQueries.stats(), enabled });
}

export function useAdminUsers(params: ListAdminUsersParams, enabled: boolean) {
  return useQuery({ ...adminQueries.users(params), enabled });
}

export function useAdminMentors(enabled: boolean, params: ListAdminMentorsParams = {}) {
  return useQuery({ ...adminQueries.mentors(params), enabled });
}

export function useAdminBookings(params: ListAdminBookingsParams, enabled: boolean) {
  return useQuery({ ...adminQueries.bookings(params), enabled, placeholderData: (previous) => previous });
}

/** PUT /api/admin/users/{id}/status {isActive}; users, mentors and the figures reload. */
export function useSetUserStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) => setAdminUserStatus(id, { isActive }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.users() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.mentors() }),
        queryClient.invalidateQueries({ queryKey: adminKeys.stats() }),
      ]),
  });
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getGetAdminStatsQueryKey,
  getAdminStats,
  getListAdminBookingsQueryKey,
  getListAdminMentorsQueryKey,
  getListAdminUsersQueryKey,
  listAdminBookings,
  listAdminMentors,
  listAdminUsers,
  setAdminUserStatus,
} from '@/api/endpoints/admin/admin';
import type { ListAdminBookingsParams, ListAdminMentorsParams, ListAdminUsersParams } from '@/api/model';

// The admin dashboard's calls (docs/admin.md). Every one needs an admin session; the page only
// asks when the signed-in user is an admin.

/** GET /api/admin/stats: totalUsers, totalMentors, totalBookings, totalRevenue ('0.00'). */
export function useAdminStats(enabled: boolean) {
  return useQuery({
    queryKey: getGetAdminStatsQueryKey(),
    queryFn: ({ signal }) => getAdminStats({ signal }),
    enabled,
    staleTime: 0,
  });
}

/** GET /api/admin/users?role=&isActive=: newest first. */
export function useAdminUsers(params: ListAdminUsersParams, enabled: boolean) {
  return useQuery({
    queryKey: getListAdminUsersQueryKey(params),
    queryFn: ({ signal }) => listAdminUsers(params, { signal }),
    enabled,
    staleTime: 0,
  });
}

/** GET /api/admin/mentors?approvalStatus=: newest first. */
export function useAdminMentors(enabled: boolean, params: ListAdminMentorsParams = {}) {
  return useQuery({
    queryKey: getListAdminMentorsQueryKey(params),
    queryFn: ({ signal }) => listAdminMentors(params, { signal }),
    enabled,
    staleTime: 0,
  });
}

/** GET /api/admin/bookings?status=&startDate=&endDate=&page=&pageSize=. */
export function useAdminBookings(params: ListAdminBookingsParams, enabled: boolean) {
  return useQuery({
    queryKey: getListAdminBookingsQueryKey(params),
    queryFn: ({ signal }) => listAdminBookings(params, { signal }),
    enabled,
    staleTime: 0,
    placeholderData: (previous) => previous,
  });
}

/** PUT /api/admin/users/{id}/status {isActive}; users, mentors and the figures reload. */
export function useSetUserStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) => setAdminUserStatus(id, { isActive }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['/api/admin/users'] }),
        queryClient.invalidateQueries({ queryKey: getListAdminMentorsQueryKey() }),
        queryClient.invalidateQueries({ queryKey: getGetAdminStatsQueryKey() }),
      ]),
  });
}

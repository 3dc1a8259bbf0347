/**
 * The group session calls (docs/group-sessions.md) through the generated client: the list, one
 * session, the mentor's sessions, creating and moving them, and taking a seat (POST
 * /api/reservations with groupSessionId).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createGroupSession,
  createReservation,
  getGetGroupSessionUrl,
  getGroupSession,
  getListGroupSessionsUrl,
  getListMentorGroupSessionsUrl,
  listMentorGroupSessions,
  updateGroupSession,
} from '@/api/endpoints/booking/booking';
import type { CreateGroupSessionRequest, GroupSessionView, ListGroupSessionsParams } from '@/api/model';
import { apiFetchResponse, totalCount } from './api-fetch';
import { apiKey, clientDashboardKey, holdKeys } from './query-keys';

/** One page of /group-sessions and the number of sessions matching on every page. */
export type GroupSessionsPage = { sessions: GroupSessionView[]; total: number };

/** Cards per page of /group-sessions (a grid of three columns). */
export const GROUP_SESSIONS_PAGE_SIZE = 12;

export const groupSessionKeys = {
  /** Without params: every list query (for invalidation). */
  all: () => apiKey(getListGroupSessionsUrl()),
  list: (params?: ListGroupSessionsParams) => apiKey(getListGroupSessionsUrl(), params),
  one: (id: string) => apiKey(getGetGroupSessionUrl(id)),
  mine: () => apiKey(getListMentorGroupSessionsUrl()),
};

export const groupSessionQueries = {
  /**
   * GET /api/group-sessions (optionally one mentor's, filtered, a page at a time): the page's
   * sessions and how many match on every page (the `X-Total-Count` header; the body stays a list).
   */
  list: (params?: ListGroupSessionsParams) =>
    queryOptions({
      queryKey: groupSessionKeys.list(params),
      queryFn: async ({ signal }): Promise<GroupSessionsPage> => {
        const { data, headers } = await apiFetchResponse<GroupSessionView[]>(getListGroupSessionsUrl(params), {
          signal,
          method: 'GET',
        });
        return { sessions: data, total: totalCount(headers) };
      },
    }),
  /** GET /api/mentor/group-sessions. */
  mine: () =>
    queryOptions({ queryKey: groupSessionKeys.mine(), queryFn: ({ signal }) => listMentorGroupSessions({ signal }) }),
  /** GET /api/group-sessions/{id}. */
  one: (id: string) =>
    queryOptions({ queryKey: groupSessionKeys.one(id), queryFn: ({ signal }) => getGroupSession(id, { signal }) }),
};

export function useGroupSessions(params?: ListGroupSessionsParams) {
  return useQuery({ ...groupSessionQueries.list(params), staleTime: 0 });
}

export function useMentorGroupSessions() {
  return useQuery(groupSessionQueries.mine());
}

export function useGroupSession(id: string) {
  return useQuery({ ...groupSessionQueries.one(id), enabled: Boolean(id) });
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: groupSessionKeys.all() });
    void queryClient.invalidateQueries({ queryKey: groupSessionKeys.mine() });
    void queryClient.invalidateQueries({ queryKey: clientDashboardKey() });
    void queryClient.invalidateQueries({ queryKey: holdKeys.mine() });
  };
}

/** POST /api/group-sessions. */
export function useCreateGroupSession() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: CreateGroupSessionRequest) => createGroupSession(input),
    onSettled: refresh,
  });
}

/** PUT /api/group-sessions/{id} {status}. */
export function useUpdateGroupSession() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'active' | 'completed' | 'cancelled' }) =>
      updateGroupSession(id, { status }),
    onSettled: refresh,
  });
}

/** POST /api/reservations {groupSessionId, totalAmount, notes}. */
export function useJoinGroupSession() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, price }: { id: string; price: string }) =>
      createReservation({ groupSessionId: id, totalAmount: price, notes: '' }),
    onSettled: refresh,
  });
}

/**
 * The group session calls (docs/group-sessions.md) through the generated client: the list, one
 * session, the mentor's sessions, creating and moving them, and taking a seat (POST
 * /api/reservations with groupSessionId).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createGroupSession,
  createReservation,
  getGetGroupSessionQueryKey,
  getGroupSession,
  getListGroupSessionsQueryKey,
  getListMentorGroupSessionsQueryKey,
  listGroupSessions,
  listMentorGroupSessions,
  updateGroupSession,
} from '@/api/endpoints/booking/booking';
import type { CreateGroupSessionRequest, ListGroupSessionsParams } from '@/api/model';
import { holdKeys } from '@/lib/holds';

export const groupSessionKeys = {
  all: () => ['/api/group-sessions'] as const,
  list: (params?: ListGroupSessionsParams) => getListGroupSessionsQueryKey(params),
  one: (id: string) => getGetGroupSessionQueryKey(id),
  mine: () => getListMentorGroupSessionsQueryKey(),
};

/** GET /api/group-sessions (optionally one mentor's). */
export function useGroupSessions(params?: ListGroupSessionsParams) {
  return useQuery({
    queryKey: groupSessionKeys.list(params),
    queryFn: ({ signal }) => listGroupSessions(params, { signal }),
    staleTime: 0,
  });
}

/** GET /api/mentor/group-sessions. */
export function useMentorGroupSessions() {
  return useQuery({ queryKey: groupSessionKeys.mine(), queryFn: ({ signal }) => listMentorGroupSessions({ signal }) });
}

export function useGroupSession(id: string) {
  return useQuery({
    queryKey: groupSessionKeys.one(id),
    queryFn: ({ signal }) => getGroupSession(id, { signal }),
    enabled: Boolean(id),
  });
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: groupSessionKeys.all() });
    void queryClient.invalidateQueries({ queryKey: groupSessionKeys.mine() });
    void queryClient.invalidateQueries({ queryKey: ['/api/user/dashboard'] });
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

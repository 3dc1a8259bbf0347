/**
 * Group sessions never show stale state: when a session starts or ends (the mentor, the worker) or
 * the mentor removes someone, every screen that shows it (/group-sessions, the dashboards' cards,
 * the session itself) is read again at once, on every tab of every member, over the real-time
 * channel; after a reconnection, in case an event was missed. A reload reads the same state.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getListMentorBookingsUrl } from '@/api/endpoints/dashboard/dashboard';
import { useRealtime, useRealtimeEvent } from '@/lib/realtime/provider';
import { groupSessionKeys } from './group-sessions-api';
import { apiKey, clientDashboardKey } from './query-keys';

/** Reads again every list and card a group session's state shows on (and the one session, if named). */
export function refreshGroupSessions(queryClient: QueryClient, id?: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: groupSessionKeys.all() }),
    queryClient.invalidateQueries({ queryKey: groupSessionKeys.mine() }),
    queryClient.invalidateQueries({ queryKey: clientDashboardKey() }),
    queryClient.invalidateQueries({ queryKey: apiKey(getListMentorBookingsUrl()) }),
    ...(id ? [queryClient.invalidateQueries({ queryKey: groupSessionKeys.one(id) })] : []),
  ]);
}

/** Mounted once for a signed-in user (app/signed-in-providers). */
export function GroupSessionsRealtimeSync() {
  const queryClient = useQueryClient();
  const { client } = useRealtime();
  useRealtimeEvent('group-session-started', (d) => void refreshGroupSessions(queryClient, d.groupSessionId));
  useRealtimeEvent('group-session-ended', (d) => void refreshGroupSessions(queryClient, d.groupSessionId));
  useRealtimeEvent('participant-left', (d) => {
    if (d.reason === 'removed') void refreshGroupSessions(queryClient, d.groupSessionId);
  });
  useEffect(() => {
    if (!client) return;
    return client.onReconnect(() => void refreshGroupSessions(queryClient));
  }, [client, queryClient]);
  return null;
}

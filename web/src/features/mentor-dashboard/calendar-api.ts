import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  connectCalendar,
  disconnectCalendar,
  getCalendarConnection,
  getGetCalendarConnectionUrl,
  syncCalendarConnection,
  updateConnectedCalendar,
} from '@/api/endpoints/calendars/calendars';
import type {
  CalendarConnectionView,
  ConnectCalendarRequest,
  ConnectedCalendarView,
  UpdateConnectedCalendarRequest,
} from '@/api/model';
import { ApiError } from '@/lib/api-fetch';
import { apiKey } from '@/lib/query-keys';

// The mentor's own CalDAV calendar (docs/calendars.md): connect, switches, 'Sync now', disconnect.

export type { CalendarConnectionView as CalendarConnection, ConnectedCalendarView as ConnectedCalendar };

/** While a sync is queued or running, the connection is read again this often. */
export const SYNCING_POLL_MS = 1_500;

export const calendarConnectionKeys = {
  connection: () => apiKey(getGetCalendarConnectionUrl()),
};

export const calendarConnectionQueries = {
  /** GET /api/mentor/calendar-connection; null when none is connected (404). */
  connection: () =>
    queryOptions({
      queryKey: calendarConnectionKeys.connection(),
      queryFn: async ({ signal }): Promise<CalendarConnectionView | null> => {
        try {
          return await getCalendarConnection({ signal });
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) return null;
          throw error;
        }
      },
      refetchInterval: (query) => (query.state.data?.state === 'syncing' ? SYNCING_POLL_MS : false),
    }),
};

export function useCalendarConnection() {
  return useQuery(calendarConnectionQueries.connection());
}

function useSetConnection() {
  const queryClient = useQueryClient();
  return (view: CalendarConnectionView | null) => queryClient.setQueryData(calendarConnectionKeys.connection(), view);
}

/** PUT /api/mentor/calendar-connection: discovers the calendars (up to 10 s). */
export function useConnectCalendar() {
  const set = useSetConnection();
  return useMutation({
    mutationFn: (input: ConnectCalendarRequest) => connectCalendar(input),
    onSuccess: set,
  });
}

/** PATCH /api/mentor/calendar-connection/calendars/{id}. */
export function useUpdateConnectedCalendar() {
  const set = useSetConnection();
  return useMutation({
    mutationFn: ({ id, ...input }: UpdateConnectedCalendarRequest & { id: string }) =>
      updateConnectedCalendar(id, input),
    onSuccess: set,
  });
}

/** POST /api/mentor/calendar-connection/sync (202). */
export function useSyncCalendar() {
  const set = useSetConnection();
  return useMutation({ mutationFn: () => syncCalendarConnection(), onSuccess: set });
}

/** DELETE /api/mentor/calendar-connection. */
export function useDisconnectCalendar() {
  const set = useSetConnection();
  return useMutation({ mutationFn: () => disconnectCalendar(), onSuccess: () => set(null) });
}

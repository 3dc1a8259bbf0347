import { queryOptions } from '@tanstack/react-query';
import { getGetGroupCallUrl, getGroupCall } from '@/api/endpoints/messaging/messaging';
import { apiKey } from '@/lib/query-keys';

// The group call's own read; joining, media and moderation go over the real-time channel.

export const groupCallKeys = {
  call: (sessionId: string) => apiKey(getGetGroupCallUrl(sessionId)),
};

/**
 * GET /api/group-sessions/{id}/call: the room to join and who is in it. Read once per visit
 * (gcTime 0: a later visit asks again, the room may have ended) and never retried: a refusal
 * (not a participant, removed, not live yet) is the answer.
 */
export const groupCallQuery = (sessionId: string) =>
  queryOptions({
    queryKey: groupCallKeys.call(sessionId),
    queryFn: ({ signal }) => getGroupCall(sessionId, { signal }),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });

/**
 * Query keys. Every key is made by {@link apiKey} from the request path that orval's generated
 * `get...Url` helper gives (src/api), then the query parameters as one object when there are any:
 * `['/api/admin/users', { role: 'mentor' }]`. A key without parameters is the prefix of every key of
 * that path, so invalidating `apiKey(getListAdminUsersUrl())` refreshes every page of users.
 *
 * Each feature keeps its own key factory next to its `queryOptions` (features/<area>/api.ts); the
 * keys below are the ones that several areas read or refresh (the header, the real-time channel,
 * booking and the dashboards), so they live in this leaf module that imports only the generated
 * client. Nobody types a key by hand: ESLint (`web/eslint.config.js`) rejects a `queryKey: [...]`
 * literal and an array starting with an '/api/' string outside the generated client.
 */
import { getGetAuthUserUrl } from '@/api/endpoints/accounts/accounts';
import {
  getGetAvailableDaysUrl,
  getGetAvailableSlotsUrl,
  getGetMyReservationsUrl,
  getGetReservationUrl,
} from '@/api/endpoints/booking/booking';
import { getGetUserDashboardUrl } from '@/api/endpoints/dashboard/dashboard';
import {
  getGetConversationUrl,
  getGetUnreadMessageCountUrl,
  getListConversationsUrl,
  getListMessagesUrl,
} from '@/api/endpoints/messaging/messaging';
import { getGetMentorProfileUrl } from '@/api/endpoints/mentors/mentors';
import { getGetUnreadNotificationCountUrl, getListNotificationsUrl } from '@/api/endpoints/notifications/notifications';
import type { GetAvailableDaysParams, GetAvailableSlotsParams, ListNotificationsParams } from '@/api/model';

export type ApiKey<P = never> = readonly [string] | readonly [string, P];

/**
 * The key of a read: its path (a generated `get...Url()` called without query parameters) and, when
 * given, its query parameters. Without parameters it is the prefix of every key of that path.
 */
export function apiKey(path: string): readonly [string];
export function apiKey<P extends object>(path: string, params: P | undefined): ApiKey<P>;
export function apiKey<P extends object>(path: string, params?: P): ApiKey<P> {
  return params === undefined ? [path] : [path, params];
}

/** GET /api/auth/user and GET /api/mentor/profile: who is signed in and whether they are a mentor. */
export const accountKeys = {
  user: () => apiKey(getGetAuthUserUrl()),
  /** One cache entry for "am I a mentor" (the header) and the mentor's own profile (the dashboard). */
  mentorProfile: () => apiKey(getGetMentorProfileUrl()),
};

/** The notification list (the bell's and the page's) and the unread count. */
export const notificationKeys = {
  /** Without params: every list query (for invalidation). */
  all: () => apiKey(getListNotificationsUrl()),
  list: (params: ListNotificationsParams) => apiKey(getListNotificationsUrl(), params),
  unreadCount: () => apiKey(getGetUnreadNotificationCountUrl()),
};

/** Conversations, their threads and the unread-messages badge. */
export const messageKeys = {
  conversations: () => apiKey(getListConversationsUrl()),
  conversation: (id: string) => apiKey(getGetConversationUrl(id)),
  /** A thread's pages (an infinite query, so its key differs from a plain read of the same path). */
  thread: (conversationId: string) => [...apiKey(getListMessagesUrl(conversationId)), 'thread'] as const,
  /** Whether a cached query is a thread (any conversation's), e.g. to reload open threads after a reconnect. */
  isThread: (queryKey: readonly unknown[]) => {
    const [path] = queryKey;
    return typeof path === 'string' && path.startsWith(getListConversationsUrl() + '/') && path.endsWith('/messages');
  },
  unreadCount: () => apiKey(getGetUnreadMessageCountUrl()),
};

/** The seeker's unpaid holds. */
export const holdKeys = {
  mine: () => apiKey(getGetMyReservationsUrl()),
  one: (id: string) => apiKey(getGetReservationUrl(id)),
};

/** A mentor's free start times; without params every slot query of that mentor (for invalidation). */
export function availableSlotsKey(mentorId: string, params?: GetAvailableSlotsParams) {
  return apiKey(getGetAvailableSlotsUrl(mentorId), params);
}

/**
 * The days of a month a mentor has a free start on; without params every such query of that
 * mentor. Whatever changes a mentor's free times changes these too (see {@link availableTimesKeys}).
 */
export function availableDaysKey(mentorId: string, params?: GetAvailableDaysParams) {
  return apiKey(getGetAvailableDaysUrl(mentorId), params);
}

/** Every read of a mentor's free times (the days of a month and the times of a day), for invalidation. */
export function availableTimesKeys(mentorId: string) {
  return [availableSlotsKey(mentorId), availableDaysKey(mentorId)];
}

/** The client dashboard's data, which bookings, holds and group seats change. */
export function clientDashboardKey() {
  return apiKey(getGetUserDashboardUrl());
}

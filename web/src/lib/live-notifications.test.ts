import { describe, expect, it } from 'vitest';
import { createQueryClient } from './query-client';
import { addLiveNotification, notificationKeys, type Notification } from './notifications';

const note = (id: string, isRead = false): Notification => ({
  id,
  type: 'new_message',
  title: 'New message',
  message: 'Luna sent you a message',
  isRead,
  createdAt: '2026-01-01T10:00:00Z',
  actionUrl: '/messages?conversation=c1',
});

describe('addLiveNotification', () => {
  it('puts a pushed notification first in every cached list, within its limit, and counts it unread', () => {
    const client = createQueryClient();
    client.setQueryData(notificationKeys.list({ limit: 2 }), [note('a'), note('b')]);
    client.setQueryData(notificationKeys.list({ limit: 100 }), [note('a'), note('b')]);
    client.setQueryData(notificationKeys.unreadCount(), { count: 2 });
    void addLiveNotification(client, note('c'));
    expect(client.getQueryData<Notification[]>(notificationKeys.list({ limit: 2 }))!.map((n) => n.id)).toEqual([
      'c',
      'a',
    ]);
    expect(client.getQueryData<Notification[]>(notificationKeys.list({ limit: 100 }))!.map((n) => n.id)).toEqual([
      'c',
      'a',
      'b',
    ]);
    expect(client.getQueryData(notificationKeys.unreadCount())).toEqual({ count: 3 });
  });

  it('ignores a notification already listed', () => {
    const client = createQueryClient();
    client.setQueryData(notificationKeys.list({ limit: 10 }), [note('a')]);
    void addLiveNotification(client, note('a'));
    expect(client.getQueryData<Notification[]>(notificationKeys.list({ limit: 10 }))).toHaveLength(1);
  });
});

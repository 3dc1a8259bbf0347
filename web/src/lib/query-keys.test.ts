import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { getListAdminUsersUrl } from '@/api/endpoints/admin/admin';
import { getGetAvailableSlotsUrl } from '@/api/endpoints/booking/booking';
import { apiKey, availableSlotsKey, messageKeys } from './query-keys';

describe('apiKey', () => {
  it('is the generated path, then the query parameters as one object', () => {
    expect(apiKey(getListAdminUsersUrl())).toEqual(['/api/admin/users']);
    expect(apiKey(getListAdminUsersUrl(), { role: 'mentor' })).toEqual(['/api/admin/users', { role: 'mentor' }]);
    expect(apiKey(getListAdminUsersUrl(), undefined)).toEqual(['/api/admin/users']);
  });

  it('never puts the query text in the path, so the bare key invalidates every filtered read', async () => {
    const client = new QueryClient();
    const params = { date: '2027-03-05', duration: 60, timeZone: 'UTC' };
    expect(availableSlotsKey('m1', params)[0]).toBe(getGetAvailableSlotsUrl('m1'));
    client.setQueryData(availableSlotsKey('m1', params), ['09:00']);
    client.setQueryData(availableSlotsKey('m2', params), ['10:00']);
    await client.invalidateQueries({ queryKey: availableSlotsKey('m1') });
    expect(client.getQueryState(availableSlotsKey('m1', params))?.isInvalidated).toBe(true);
    expect(client.getQueryState(availableSlotsKey('m2', params))?.isInvalidated).toBe(false);
  });
});

describe('messageKeys.isThread', () => {
  it("knows any conversation's thread and nothing else", () => {
    expect(messageKeys.isThread(messageKeys.thread('c1'))).toBe(true);
    expect(messageKeys.isThread(messageKeys.conversations())).toBe(false);
    expect(messageKeys.isThread(messageKeys.conversation('c1'))).toBe(false);
    expect(messageKeys.isThread(messageKeys.unreadCount())).toBe(false);
  });
});

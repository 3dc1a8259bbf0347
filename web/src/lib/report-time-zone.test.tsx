import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientWithUser, jsonResponse, mockFetch, testUser } from '@/testing/test-utils';
import { useReportTimeZone } from './report-time-zone';

const wrapperWith = (client: QueryClient) =>
  function Wrapper({ children }: { children: ReactNode }) {
    return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  };

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('useReportTimeZone', () => {
  it("reports the browser's zone once per tab session when signed in", async () => {
    const fetchMock = mockFetch({
      'PUT /api/user/time-zone': (_url, init) => jsonResponse(200, JSON.parse(String(init?.body))),
    });
    const wrapper = wrapperWith(clientWithUser(testUser));
    const first = renderHook(() => useReportTimeZone(), { wrapper });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    first.unmount();
    renderHook(() => useReportTimeZone(), { wrapper });
    await new Promise((r) => setTimeout(r, 0));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('stays quiet signed out', async () => {
    const fetchMock = mockFetch({});
    renderHook(() => useReportTimeZone(), { wrapper: wrapperWith(clientWithUser(null)) });
    await new Promise((r) => setTimeout(r, 0));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { AUTH_USER_KEY, type User } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';

export const testUser: User = {
  id: '5f0c1c9e-8a3c-4c1e-9a1e-2f9b1b7d0a11',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  isAdmin: false,
  role: 'user',
  isActive: true,
  emailVerified: true,
  createdAt: '2025-01-01T00:00:00Z',
  isMentor: false,
  // Signed in before: greeted 'Welcome back' (null at a first sign-in: 'Welcome').
  previousSignInAt: '2025-01-02T00:00:00Z',
  twoFactorEnabled: false,
};

/**
 * Sets or clears the `signed_in` cookie the api sets at sign-in: without it the app does not ask
 * for the user (lib/auth's useUser).
 */
export function setSignedInCookie(signedIn: boolean) {
  document.cookie = signedIn ? 'signed_in=1; path=/' : 'signed_in=; path=/; max-age=0';
}

/** A query client whose signed-in state is already known (null = signed out), and the cookie to match. */
export function clientWithUser(user: User | null): QueryClient {
  setSignedInCookie(!!user);
  const client = createQueryClient();
  client.setQueryData(AUTH_USER_KEY, user);
  return client;
}

export function jsonResponse(status: number, body: unknown, statusText = ''): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

type Handler = (url: string, init: RequestInit | undefined) => Response | Promise<Response>;

/**
 * Replaces fetch with a table of `METHOD path` handlers; anything else answers 404,
 * as the api does for a path it does not know.
 */
export function mockFetch(handlers: Record<string, Handler> = {}) {
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const handler = handlers[`${method} ${url}`];
    if (handler) return handler(url, init);
    return jsonResponse(404, { message: 'Not found' }, 'Not Found');
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

export function renderWithProviders(
  ui: ReactElement,
  { client = clientWithUser(null), path = '/' }: { client?: QueryClient; path?: string } = {},
) {
  return {
    client,
    ...render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </QueryClientProvider>,
    ),
  };
}

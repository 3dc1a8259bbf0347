/**
 * Build-time rendering of the public pages (web/scripts/prerender.mjs writes it into the HTML the
 * api serves), so the first paint shows the header, the page and the footer before any JavaScript
 * has run. Rendered signed out with no data: loading states where data goes, exactly as the app's
 * first render for a signed-out visitor, which therefore hydrates this HTML (main.tsx).
 */
import { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router';
import { AppProvider } from '@/app/provider';
import { AppRoutes, preloadPage } from '@/app/routes';
import { AppLayout } from '@/components/layouts/app-layout';
import { MentorPreview } from '@/features/mentors/mentor-preview';
import { AUTH_USER_KEY } from '@/lib/auth';

/** The prerendered pages: a path and the file it goes to under dist/. */
export const PAGES: { path: string; file: string }[] = [
  { path: '/', file: 'index.html' },
  { path: '/mentors', file: 'mentors/index.html' },
];
/** The frame alone (header, empty main, footer), for every other client-side route. */
export const SHELL_FILE = 'shell.html';
/**
 * The frame with a mentor's profile card in its main, with markers for the mentor's fields
 * (features/mentors/mentor-preview.tsx): the api fills it in for /mentor/{id}.
 */
export const MENTOR_PAGE_FILE = 'mentor-page.html';

function signedOutClient(): QueryClient {
  // Queries never run while rendering to a string; the signed-in state is known: signed out.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(AUTH_USER_KEY, null);
  return client;
}

/** The app at `path` for a signed-out visitor: the same providers and routes as main.tsx's. */
export async function renderPage(path: string): Promise<string> {
  await preloadPage(path, false);
  return renderToString(
    <AppProvider queryClient={signedOutClient()}>
      <StaticRouter location={path}>
        <AppRoutes />
      </StaticRouter>
    </AppProvider>,
  );
}

/** The frame alone, or with `main` in it; the app replaces it (never hydrates it). */
export function renderShell(main: ReactNode = null): string {
  return renderToString(
    <AppProvider queryClient={signedOutClient()}>
      <StaticRouter location="/">
        <Routes>
          <Route element={<AppLayout />}>
            <Route path="*" element={main} />
          </Route>
        </Routes>
      </StaticRouter>
    </AppProvider>,
  );
}

/** The frame with a mentor's profile card, its fields as markers (MENTOR_PAGE_FILE). */
export function renderMentorPage(): string {
  return renderShell(<MentorPreview />);
}

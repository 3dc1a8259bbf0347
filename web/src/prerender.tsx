/**
 * Build-time rendering of the public pages' frame (web/scripts/prerender.mjs writes it into the
 * HTML the api serves), so the first paint shows the header, the page and the footer before any
 * JavaScript has run. Rendered signed out and with no data: loading states where data goes. The
 * app replaces it on its first render (main.tsx).
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { Route, Routes, StaticRouter } from 'react-router';
import { AppLayout } from '@/components/layouts/app-layout';
import { LandingPage } from '@/features/landing/landing-page';
import { MentorsPage } from '@/features/mentors/mentors-page';

/** What is prerendered: a path (written as `<path>/index.html`) and its page; `shell` is the frame alone. */
export const PRERENDERED: { path: string; file: string; page: ComponentType | null }[] = [
  { path: '/', file: 'index.html', page: LandingPage },
  { path: '/mentors', file: 'mentors/index.html', page: MentorsPage },
  { path: '/', file: 'shell.html', page: null },
];

export function render(path: string, Page: ComponentType | null): string {
  // Queries never run while rendering to a string: every page shows its loading state.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  return renderToString(
    <QueryClientProvider client={client}>
      <StaticRouter location={path}>
        <Routes>
          <Route element={<AppLayout />}>
            <Route path="*" element={Page ? <Page /> : null} />
          </Route>
        </Routes>
      </StaticRouter>
    </QueryClientProvider>,
  );
}

/**
 * The route table:
 * - public paths are always available;
 * - signed-in paths exist only for a signed-in user;
 * - signed out, / shows the landing page, a signed-in path redirects to /auth, which brings the
 *   visitor back to that path after signing in (?next=), and any other path shows the 404 screen;
 * - signed in, an unknown path shows the 404 screen;
 * - while the signed-in state loads, a spinner shows.
 * Every page is its own chunk (React.lazy), so the landing page stays light; `preloadPage` loads
 * a path's chunk ahead of the first render (main.tsx), so a prerendered page is never swapped
 * for a spinner.
 */
import { lazy, Suspense, useState, type ComponentType } from 'react';
import { matchPath, Navigate, Route, Routes, useLocation } from 'react-router';
import { ErrorBoundary } from '@/components/error-boundary';
import { AppLayout } from '@/components/layouts/app-layout';
import { NotFound } from '@/components/not-found';
import { Button } from '@/components/ui/button';
import { FullPageSpinner } from '@/components/ui/spinner';
import { useUser } from '@/lib/auth';
import { BECOME_MENTOR_LINK } from '@/components/layouts/nav-links';
import { registerPath, signInPath } from '@/lib/navigation';

/** A page of its own chunk; once `preload` has run, it renders without suspending. */
type Page = ComponentType & { preload: () => Promise<void> };
type RouteEntry = { path: string; page: Page };

function page(load: () => Promise<{ default: ComponentType }>): Page {
  let loaded: ComponentType | undefined;
  const remember = () => load().then((m) => ((loaded = m.default), m));
  const Lazy = lazy(remember);
  function PageComponent() {
    // Chosen once per mount: switching from Lazy to the loaded component later would remount it.
    const [Component] = useState<ComponentType>(() => loaded ?? Lazy);
    return <Component />;
  }
  return Object.assign(PageComponent, { preload: () => remember().then(() => undefined) });
}

export const PUBLIC_ROUTES: RouteEntry[] = [
  { path: '/auth', page: page(() => import('@/features/auth/auth-page')) },
  { path: '/forgot-password', page: page(() => import('@/features/auth/forgot-password-page')) },
  { path: '/reset-password', page: page(() => import('@/features/auth/reset-password-page')) },
  { path: '/verify-email', page: page(() => import('@/features/auth/verify-email-page')) },
  { path: '/terms-of-service', page: page(() => import('@/features/static/terms-page')) },
  { path: '/privacy-policy', page: page(() => import('@/features/static/privacy-page')) },
  { path: '/help-center', page: page(() => import('@/features/static/help-center-page')) },
  { path: '/community-guidelines', page: page(() => import('@/features/static/community-guidelines-page')) },
  { path: '/contact', page: page(() => import('@/features/contact/contact-page')) },
  { path: '/mentors', page: page(() => import('@/features/mentors/mentors-page')) },
  { path: '/mentor/:id', page: page(() => import('@/features/mentors/mentor-profile-page')) },
];

const LandingPage = page(() => import('@/features/landing/landing-page'));

export const SIGNED_IN_ROUTES: RouteEntry[] = [
  { path: '/', page: page(() => import('@/features/home/home-page')) },
  { path: '/mentor-dashboard', page: page(() => import('@/features/mentor-dashboard/mentor-dashboard-page')) },
  { path: '/become-mentor', page: page(() => import('@/features/onboarding/onboarding-page')) },
  { path: '/dashboard', page: page(() => import('@/features/dashboard/dashboard-page')) },
  { path: '/admin', page: page(() => import('@/features/admin/admin-page')) },
  { path: '/admin/payouts', page: page(() => import('@/features/admin/admin-payouts-page')) },
  { path: '/admin/jobs', page: page(() => import('@/features/job-console/job-console-page')) },
  { path: '/booking/:serviceId', page: page(() => import('@/features/booking/booking-page')) },
  { path: '/group-sessions', page: page(() => import('@/features/group-sessions/group-sessions-page')) },
  { path: '/group-booking/:bookingId', page: page(() => import('@/features/booking/group-booking-page')) },
  { path: '/group-video-call/:sessionId', page: page(() => import('@/features/group-call/group-video-call-page')) },
  { path: '/messages', page: page(() => import('./messages-route')) },
  { path: '/profile', page: page(() => import('@/features/profile/profile-page')) },
  { path: '/profile/:id', page: page(() => import('@/features/profile/public-profile-page')) },
  { path: '/favorites', page: page(() => import('@/features/favorites/favorites-page')) },
  { path: '/notifications', page: page(() => import('@/features/notifications/notifications-page')) },
  { path: '/receipts', page: page(() => import('@/features/receipts/receipts-page')) },
  { path: '/wallet', page: page(() => import('@/features/wallet/wallet-page')) },
  { path: '/reading/:id', page: page(() => import('@/features/wallet/reading-page')) },
];

/** Loads the chunk of the page `pathname` shows (signed in or out), so the first render has it. */
export function preloadPage(pathname: string, signedIn: boolean): Promise<void> {
  const routes = signedIn
    ? [...PUBLIC_ROUTES, ...SIGNED_IN_ROUTES]
    : [...PUBLIC_ROUTES, { path: '/', page: LandingPage }];
  const route = routes.find((r) => matchPath(r.path, pathname));
  return route ? route.page.preload() : Promise.resolve();
}

function renderPage(Page: Page) {
  return <Page />;
}

function AuthLoadError({ onRetry }: { onRetry: () => void }) {
  return (
    <div role="alert" className="flex min-h-[60vh] flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="font-display text-2xl font-semibold text-slate-900">We can't reach the server</h1>
      <p className="max-w-md text-sm text-slate-600">Please check your connection and try again.</p>
      <Button onClick={onRetry}>Try again</Button>
    </div>
  );
}

export function AppRoutes() {
  const { user, isLoading, error, refetch } = useUser();
  const location = useLocation();

  if (isLoading) return <FullPageSpinner />;
  if (error) return <AuthLoadError onRetry={() => void refetch()} />;

  return (
    <ErrorBoundary resetKey={location.pathname}>
      <Suspense fallback={<FullPageSpinner />}>
        <Routes>
          <Route element={<AppLayout />}>
            {PUBLIC_ROUTES.map(({ path, page: Page }) => (
              <Route key={path} path={path} element={renderPage(Page)} />
            ))}
            {user ? (
              <>
                {SIGNED_IN_ROUTES.map(({ path, page: Page }) => (
                  <Route key={path} path={path} element={renderPage(Page)} />
                ))}
                <Route path="*" element={<NotFound />} />
              </>
            ) : (
              <>
                <Route path="/" element={renderPage(LandingPage)} />
                {SIGNED_IN_ROUTES.filter((r) => r.path !== '/').map(({ path }) => (
                  <Route
                    key={path}
                    path={path}
                    element={
                      <Navigate
                        to={
                          // A visitor who wants to become a mentor has no account yet: registration.
                          path === BECOME_MENTOR_LINK.to
                            ? registerPath(path)
                            : signInPath(location.pathname + location.search)
                        }
                        replace
                      />
                    }
                  />
                ))}
                <Route path="*" element={<NotFound />} />
              </>
            )}
          </Route>
        </Routes>
      </Suspense>
    </ErrorBoundary>
  );
}

import { lazy, Suspense, type ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { FullPageSpinner } from '@/components/ui/spinner';
import { useUser } from '@/lib/auth';
import { AppProvider } from './provider';
import { AppRoutes } from './routes';

const SignedInProviders = lazy(() => import('./signed-in-providers'));

/** Signed in, the pages run inside the real-time and call providers (loaded on demand). */
function SessionProviders({ children }: { children: ReactNode }) {
  const { user } = useUser();
  if (!user) return children;
  return (
    <Suspense fallback={<FullPageSpinner />}>
      <SignedInProviders>{children}</SignedInProviders>
    </Suspense>
  );
}

export function App() {
  return (
    <AppProvider>
      <BrowserRouter>
        <SessionProviders>
          <AppRoutes />
        </SessionProviders>
      </BrowserRouter>
    </AppProvider>
  );
}

import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '@/config/constants';
import { queryClient as defaultQueryClient } from '@/lib/query-client';

// The toast library is its own chunk: no first page needs it before the visitor acts, and a toast
// raised while it loads shows once it is there (sonner keeps them in its own store).
const Toaster = lazy(() => import('sonner').then((m) => ({ default: m.Toaster })));

export function AppProvider({
  children,
  queryClient = defaultQueryClient,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Suspense fallback={null}>
        <Toaster visibleToasts={TOAST_LIMIT} duration={TOAST_DURATION_MS} position="top-right" richColors closeButton />
      </Suspense>
    </QueryClientProvider>
  );
}

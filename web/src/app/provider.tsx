import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { queryClient as defaultQueryClient } from '@/lib/query-client';

const TOAST_LIMIT = 1;
const TOAST_DURATION_MS = 5_000;

/** Where toasts appear: away from the header and its controls. */
const TOAST_POSITION = 'bottom-right' as const;

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
      {/* At the bottom: a toast never covers the sticky header's buttons (bell, menu, sign-out). */}
      <Toaster
        visibleToasts={TOAST_LIMIT}
        duration={TOAST_DURATION_MS}
        position={TOAST_POSITION}
        richColors
        closeButton
      />
    </QueryClientProvider>
  );
}

import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { TOAST_DURATION_MS, TOAST_LIMIT, TOAST_POSITION } from '@/config/constants';
import { queryClient as defaultQueryClient } from '@/lib/query-client';

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

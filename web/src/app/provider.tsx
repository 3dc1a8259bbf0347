import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '@/config/constants';
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
      <Toaster visibleToasts={TOAST_LIMIT} duration={TOAST_DURATION_MS} position="top-right" richColors closeButton />
    </QueryClientProvider>
  );
}

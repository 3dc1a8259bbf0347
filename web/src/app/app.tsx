import { BrowserRouter } from 'react-router';
import { CallProvider } from '@/lib/calls/call-provider';
import { MessagesRealtimeSync } from '@/features/messages/realtime-sync';
import { RealtimeProvider } from '@/lib/realtime';
import { AppProvider } from './provider';
import { AppRoutes } from './routes';

export function App() {
  return (
    <AppProvider>
      <RealtimeProvider>
        <BrowserRouter>
          <MessagesRealtimeSync />
          <CallProvider>
            <AppRoutes />
          </CallProvider>
        </BrowserRouter>
      </RealtimeProvider>
    </AppProvider>
  );
}

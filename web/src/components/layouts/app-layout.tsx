import { Outlet } from 'react-router';
import { useReportTimeZone } from '@/lib/report-time-zone';
import { Footer } from './footer';
import { Header } from './header';
import { ScrollToTop } from './scroll-to-top';

export function AppLayout() {
  useReportTimeZone();
  return (
    <div className="flex min-h-screen flex-col">
      <ScrollToTop />
      <Header />
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col outline-none">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}

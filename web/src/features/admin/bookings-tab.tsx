import { useState } from 'react';
import type { AdminBookingView, BookingStatusView } from '@/api/model';
import { StatusBadge } from '@/components/booking/status-badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Table, Td } from '@/components/ui/table';
import { formatDate, formatTime } from '@/lib/format';
import { formatUsd } from '@/lib/money';
import { ADMIN_BOOKINGS_PAGE_SIZE, ADMIN_TEXT as TEXT, pageCount } from './admin-text';
import { Loading, useFailureToast } from './admin-ui';
import { useAdminBookings } from './api';
import { RefundDialog } from './refund-dialog';

/** The statuses of made bookings the filter offers (holds are not listed), with their labels. */
const STATUS_FILTERS: Partial<Record<BookingStatusView, string>> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  completed: 'Completed',
  cancelled: 'Cancelled',
};

const isStatusFilter = (v: string): v is BookingStatusView => v in STATUS_FILTERS;

/** Every booking, filtered by status and dates, a page at a time. */
export function BookingsTab() {
  const [status, setStatus] = useState<BookingStatusView | ''>('');
  const [startDate, setStartDate] = useState('');
  const [endDate, setEndDate] = useState('');
  const [page, setPage] = useState(1);
  const [refunding, setRefunding] = useState<AdminBookingView | null>(null);
  const params = {
    ...(status ? { status } : {}),
    ...(startDate ? { startDate } : {}),
    ...(endDate ? { endDate } : {}),
    page,
    pageSize: ADMIN_BOOKINGS_PAGE_SIZE,
  };
  const bookings = useAdminBookings(params, true);
  useFailureToast(bookings.isError, bookings.error, TEXT.bookingsFailed);
  const pages = pageCount(bookings.data?.total ?? 0);
  // A filter change starts again at page 1.
  const filter =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  return (
    <section aria-label="Bookings" className="space-y-4">
      <div className="flex flex-wrap gap-4">
        <label className="w-48 text-sm font-medium text-slate-700">
          Status
          <Select
            className="mt-1"
            value={status}
            onChange={(e) => filter(setStatus)(isStatusFilter(e.target.value) ? e.target.value : '')}
          >
            <option value="">All statuses</option>
            {Object.entries(STATUS_FILTERS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </label>
        <label className="w-48 text-sm font-medium text-slate-700">
          From
          <Input
            className="mt-1"
            type="date"
            value={startDate}
            onChange={(e) => filter(setStartDate)(e.target.value)}
          />
        </label>
        <label className="w-48 text-sm font-medium text-slate-700">
          To
          <Input className="mt-1" type="date" value={endDate} onChange={(e) => filter(setEndDate)(e.target.value)} />
        </label>
      </div>
      {bookings.isLoading ? (
        <Loading label="Loading bookings" />
      ) : bookings.isError ? (
        <p role="alert" className="text-sm text-rose-700">
          {TEXT.bookingsFailed}
        </p>
      ) : !bookings.data?.bookings.length ? (
        <p role="status" className="text-sm text-slate-600">
          No bookings match these filters.
        </p>
      ) : (
        <>
          <Table
            label="Bookings"
            columns={['Session', 'Seeker', 'Mentor', 'Service', 'Amount', 'Status', 'Payment', 'Actions']}
          >
            {bookings.data.bookings.map((b: AdminBookingView) => (
              <tr key={b.id}>
                <Td>
                  {formatDate(b.scheduledAt)}
                  <span className="block text-xs text-slate-500">
                    {formatTime(b.scheduledAt)} · {b.duration} min
                  </span>
                </Td>
                <Td>
                  {b.user.firstName} {b.user.lastName}
                  <span className="block text-xs text-slate-500">{b.user.email}</span>
                </Td>
                <Td>{b.mentor.displayName}</Td>
                <Td>{b.service.title}</Td>
                <Td>{formatUsd(b.totalAmount)}</Td>
                <Td>
                  <StatusBadge status={b.status} />
                </Td>
                <Td>{b.paymentStatus ?? 'Free'}</Td>
                <Td>
                  {b.paymentStatus === 'approved' && (
                    <Button size="sm" variant="outline" onClick={() => setRefunding(b)}>
                      Refund
                    </Button>
                  )}
                </Td>
              </tr>
            ))}
          </Table>
          <nav aria-label="Bookings pages" className="flex items-center justify-between gap-4 text-sm text-slate-600">
            <span>
              {bookings.data.total} bookings · Page {page} of {pages}
            </span>
            <span className="flex gap-2">
              <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </Button>
              <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Next
              </Button>
            </span>
          </nav>
        </>
      )}
      <RefundDialog booking={refunding} onClose={() => setRefunding(null)} />
    </section>
  );
}

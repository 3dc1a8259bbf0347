import { ArrowLeft, CalendarClock, Clock, SearchX, Users } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { MentorAvatar } from '@/components/mentor-avatar';
import { StateCard } from '@/components/state-card';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FullPageSpinner } from '@/components/ui/spinner';
import { BOOKING_TEXT } from './texts';
import { errorMessage, errorStatus } from '@/lib/api-fetch';
import { formatDate, formatTime } from '@/lib/format';
import { useHold } from '@/lib/holds';
import { formatUsd } from '@/lib/money';
import { hardNavigate } from '@/lib/navigation';
import { serviceLabel } from '@/lib/services';
import { useDocumentTitle } from '@/lib/use-document-title';
import { GROUP_SEAT_HOLD_MINUTES, GROUP_SESSION_TEXT } from '@/lib/group-sessions';
import { isUnauthorizedError, useProcessPayment } from './api';
import { EMPTY_CARD_FORM, toPaymentRequest, type CardForm as CardFormValues } from './card';
import { CardForm } from './components/card-form';

/**
 * /group-booking/{bookingId} (a reservation id): the held seat's details, the 60-minute warning
 * with its expiry and the card form. A missing, expired or someone else's hold: 'Reservation Not Found'.
 */
export function GroupBookingPage() {
  const { bookingId = '' } = useParams();
  const hold = useHold(bookingId || null);
  useDocumentTitle('Group Session Booking');
  const navigate = useNavigate();
  const [card, setCard] = useState<CardFormValues>(EMPTY_CARD_FORM);
  const [declined, setDeclined] = useState<string | null>(null);
  const pay = useProcessPayment(hold.data?.mentor.id ?? '');
  const unauthorized = hold.isError && isUnauthorizedError(hold.error);

  useEffect(() => {
    if (unauthorized) hardNavigate('/auth');
  }, [unauthorized]);

  if (hold.isLoading) return <FullPageSpinner label="Loading your reservation" />;
  if (unauthorized) return <FullPageSpinner label="Redirecting to sign in" />;
  const r = hold.data;
  if (hold.isError || !r || !r.groupSession) {
    return (
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <StateCard
          as="h1"
          icon={SearchX}
          title={GROUP_SESSION_TEXT.reservationNotFound}
          actions={
            <Button asChild>
              <Link to="/group-sessions">Back to Group Sessions</Link>
            </Button>
          }
        >
          This reservation has expired, was paid already, or does not exist.
        </StateCard>
      </div>
    );
  }
  const group = r.groupSession;

  const submit = () => {
    setDeclined(null);
    pay.mutate(toPaymentRequest(r.id, card), {
      onSuccess: (result) => {
        if (result.success) {
          toast.success(GROUP_SESSION_TEXT.paymentSuccessTitle, { description: GROUP_SESSION_TEXT.paymentSuccessText });
          navigate('/dashboard');
        } else {
          const reason = result.error || result.message || BOOKING_TEXT.paymentFailedFallback;
          setDeclined(reason);
          toast.error(BOOKING_TEXT.paymentFailedTitle, { description: reason });
        }
      },
      onError: (error) => {
        if (errorStatus(error) === 401) {
          hardNavigate('/auth');
          return;
        }
        toast.error(BOOKING_TEXT.paymentErrorTitle, {
          description: errorMessage(error, BOOKING_TEXT.paymentErrorText),
        });
        if ([404, 409].includes(errorStatus(error) ?? 0)) void hold.refetch();
      },
    });
  };

  return (
    <div className="bg-slate-50/60">
      <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6 lg:px-8">
        <Link
          to="/group-sessions"
          className="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-indigo-700"
        >
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back to Group Sessions
        </Link>
        <div className="mt-6 grid gap-6 lg:grid-cols-5">
          <Card className="space-y-5 p-6 lg:col-span-2">
            <div>
              <p className="text-xs font-semibold uppercase tracking-wide text-indigo-600">
                {serviceLabel(r.service.serviceType)} · Group session
              </p>
              <h1 className="mt-1 font-display text-2xl font-semibold text-slate-900">{group.title}</h1>
              {group.description && (
                <p className="mt-2 whitespace-pre-line text-sm text-slate-600">{group.description}</p>
              )}
            </div>
            <div className="flex items-center gap-3">
              <MentorAvatar mentor={r.mentor} size="sm" />
              <div>
                <p className="text-xs text-slate-500">With</p>
                <p className="font-medium text-slate-900">{r.mentor.displayName}</p>
              </div>
            </div>
            <dl className="space-y-2 text-sm">
              <Row label="Service" value={r.service.title} />
              <Row label="Type" value={serviceLabel(r.service.serviceType)} />
              <Row
                label="Date and time"
                value={
                  <span className="inline-flex items-center gap-1.5">
                    <CalendarClock aria-hidden="true" className="h-4 w-4 text-slate-400" />
                    {formatDate(r.scheduledAt)} at {formatTime(r.scheduledAt)}
                  </span>
                }
              />
              <Row
                label="Duration"
                value={
                  <span className="inline-flex items-center gap-1.5">
                    <Clock aria-hidden="true" className="h-4 w-4 text-slate-400" />
                    {r.service.duration} minutes
                  </span>
                }
              />
              <Row
                label="Participants"
                value={
                  <span className="inline-flex items-center gap-1.5">
                    <Users aria-hidden="true" className="h-4 w-4 text-slate-400" />
                    {group.currentParticipants}/{group.maxParticipants}
                  </span>
                }
              />
              <Row label="Total" value={<span className="text-base font-semibold">{formatUsd(r.totalAmount)}</span>} />
            </dl>
          </Card>
          <Card className="space-y-6 p-6 lg:col-span-3">
            <h2 className="font-display text-xl font-semibold text-slate-900">Payment</h2>
            <Alert variant="info">
              <p className="font-medium">Your seat is held until {formatTime(r.expiresAt)}.</p>
              <p>
                We keep your seat for {GROUP_SEAT_HOLD_MINUTES} minutes. Complete your payment before then, or the
                reservation expires and the seat is released.
              </p>
            </Alert>
            {declined && (
              <Alert variant="error">
                <p className="font-medium">
                  {BOOKING_TEXT.paymentFailedTitle}: {declined}
                </p>
              </Alert>
            )}
            <CardForm
              value={card}
              onChange={setCard}
              onSubmit={submit}
              amount={r.totalAmount}
              processing={pay.isPending}
            />
          </Card>
        </div>
      </div>
    </div>
  );
}

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-right font-medium text-slate-900">{value}</dd>
    </div>
  );
}

export default GroupBookingPage;

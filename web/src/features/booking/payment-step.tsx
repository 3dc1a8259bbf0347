import { CalendarClock } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { RESERVATION_HOLD_MINUTES } from '@/config/constants';
import { BOOKING_TEXT } from './texts';
import { errorMessage, errorStatus } from '@/lib/api-fetch';
import { formatDate, formatTime } from '@/lib/format';
import { offerToRelease, releaseHold } from '@/lib/holds';
import { useProcessPayment, type BookableService } from './api';
import { EMPTY_CARD_FORM, toPaymentRequest, type CardForm as CardFormValues } from './card';
import { CardForm } from './components/card-form';
import type { Hold } from './hold';

type PaymentStepProps = { service: BookableService; hold: Hold; onLeave: () => void };

/** Under a declined payment, what the seeker can do about it. */
export const DECLINED_NEXT_STEP =
  'Check the card details or try another card. Your time stays held until the hold expires.';

/** The held slot (60 minutes, expiry shown) and the card form. */
export function PaymentStep({ service, hold, onLeave }: PaymentStepProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [card, setCard] = useState<CardFormValues>(EMPTY_CARD_FORM);
  const [declined, setDeclined] = useState<string | null>(null);
  const [releasing, setReleasing] = useState(false);
  const pay = useProcessPayment(service.mentorId);
  useOfferToReleaseOnLeave(service, hold);

  const submit = () => {
    setDeclined(null);
    pay.mutate(toPaymentRequest(hold.reservationId, card), {
      onSuccess: (result) => {
        if (result.success) {
          settled.add(hold.reservationId);
          toast.success(BOOKING_TEXT.paymentSuccessTitle, { description: BOOKING_TEXT.paymentSuccessText });
          navigate('/dashboard');
        } else {
          // Declined: stay on the form (the reason stays on it too); the hold remains until it expires.
          const reason = result.error || result.message || BOOKING_TEXT.paymentFailedFallback;
          setDeclined(reason);
          toast.error(BOOKING_TEXT.paymentFailedTitle, { description: reason });
        }
      },
      onError: (error) => {
        toast.error(BOOKING_TEXT.paymentErrorTitle, {
          description: errorMessage(error, BOOKING_TEXT.paymentErrorText),
        });
        // The hold is gone (expired, or no longer found): choose a time again.
        const status = errorStatus(error);
        if (status === 409 || status === 404) {
          settled.add(hold.reservationId);
          onLeave();
        }
      },
    });
  };

  const release = async () => {
    setReleasing(true);
    settled.add(hold.reservationId);
    const mentor = { id: service.mentorId, displayName: service.mentor.displayName };
    if (await releaseHold(queryClient, { id: hold.reservationId, mentor })) onLeave();
    else settled.delete(hold.reservationId);
    setReleasing(false);
  };

  const chooseAnotherTime = () => {
    // Still held: the schedule step shows it and the new pick replaces it.
    settled.add(hold.reservationId);
    onLeave();
  };

  return (
    <div className="space-y-6">
      <div>
        <h2 className="font-display text-xl font-semibold text-slate-900">Payment</h2>
        <p className="mt-1 flex items-center gap-2 text-sm text-slate-700">
          <CalendarClock aria-hidden="true" className="h-4 w-4 text-indigo-600" />
          {service.title}: {formatDate(hold.scheduledAt)} at {formatTime(hold.scheduledAt)}, {service.duration} minutes
        </p>
      </div>
      <Alert variant="info">
        <p className="font-medium">Your time is held until {formatTime(hold.expiresAt)}.</p>
        <p>
          We keep this slot for you for {RESERVATION_HOLD_MINUTES} minutes. Complete your payment before then, or the
          reservation expires and the time is released.
        </p>
      </Alert>
      {declined && (
        <Alert variant="error">
          <p className="font-medium">
            {BOOKING_TEXT.paymentFailedTitle}: {declined}
          </p>
          <p>{DECLINED_NEXT_STEP}</p>
        </Alert>
      )}
      <CardForm value={card} onChange={setCard} onSubmit={submit} amount={service.price} processing={pay.isPending} />
      <div className="flex flex-wrap justify-between gap-2 border-t border-slate-200 pt-4">
        <Button variant="ghost" onClick={chooseAnotherTime} disabled={pay.isPending || releasing}>
          Choose another time
        </Button>
        <Button variant="outline" onClick={() => void release()} disabled={pay.isPending || releasing}>
          {releasing ? 'Releasing...' : 'Release this time'}
        </Button>
      </div>
    </div>
  );
}

/** Holds this page already settled (paid, released, gone, or handed back to the schedule step). */
const settled = new Set<string>();

/**
 * Leaving the payment step any other way (a link, the back button) offers to release the hold.
 * The check waits a tick so a development remount (React StrictMode) is not taken for a leave.
 */
function useOfferToReleaseOnLeave(service: BookableService, hold: Hold) {
  const queryClient = useQueryClient();
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    settled.delete(hold.reservationId);
    return () => {
      mounted.current = false;
      window.setTimeout(() => {
        if (mounted.current || settled.has(hold.reservationId)) return;
        offerToRelease(queryClient, {
          id: hold.reservationId,
          expiresAt: hold.expiresAt,
          mentor: { id: service.mentorId, displayName: service.mentor.displayName },
          serviceTitle: service.title,
        });
      }, 0);
    };
  }, [queryClient, service, hold]);
}

import { ArrowLeft, CalendarCheck, CalendarClock, Clock, SearchX, Users } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { MentorAvatar } from '@/components/mentor-avatar';
import { RatingStars } from '@/components/rating-stars';
import { isoDate, SlotPicker, slotLabel } from '@/components/slot-picker';
import { StateCard } from '@/components/state-card';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Skeleton } from '@/components/ui/skeleton';
import { FullPageSpinner } from '@/components/ui/spinner';
import { Textarea } from '@/components/ui/textarea';
import {
  BOOKING_TEXT,
  DEFAULT_MENTOR_RATING,
  FREE_BOOKING_REDIRECT_DELAY_MS,
  RESERVATION_HOLD_MINUTES,
} from '@/config/constants';
import { errorMessage, errorStatus } from '@/lib/api-fetch';
import { formatDate, formatTime } from '@/lib/format';
import { bookPath } from '@/lib/group-sessions';
import {
  completePaymentPath,
  heldTimeText,
  HOLD_TEXT,
  offerToRelease,
  pickReplacesHold,
  releaseHold,
  useHold,
  useMyHolds,
  type Hold as LiveHold,
} from '@/lib/holds';
import { isFree, servicePriceText } from '@/lib/money';
import { hardNavigate } from '@/lib/navigation';
import { serviceLabel } from '@/lib/services';
import { browserTimeZone } from '@/lib/time-zones';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import { wallTimeToIso } from '@/lib/wall-time';
import { isUnauthorizedError, useCreateReservation, useProcessPayment, useService, type BookableService } from './api';
import { CancellationPolicy } from './cancellation-policy';
import { EMPTY_CARD_FORM, toPaymentRequest, type CardForm as CardFormValues } from './card';
import { CardForm } from './components/card-form';

/** /booking/{serviceId}, signed in only (the route table sends others to /auth). */
export function BookingPage() {
  const { serviceId = '' } = useParams();
  const service = useService(serviceId);
  useDocumentTitle(service.data?.title ?? 'Book a Session');
  const unauthorized = service.isError && isUnauthorizedError(service.error);

  useEffect(() => {
    // The session is gone; a full load of /auth also drops the stale signed-in state.
    if (unauthorized) hardNavigate('/auth');
  }, [unauthorized]);

  if (service.isLoading) return <BookingSkeleton />;
  if (unauthorized) return <FullPageSpinner label="Redirecting to sign in" />;
  if (service.isError || !service.data || !service.data.isActive) {
    return (
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        <StateCard
          as="h1"
          icon={SearchX}
          title={BOOKING_TEXT.serviceNotFoundTitle}
          actions={
            <Button asChild>
              <Link to="/mentors">Browse Mentors</Link>
            </Button>
          }
        >
          {BOOKING_TEXT.serviceNotFoundText}
        </StateCard>
      </div>
    );
  }
  // A group service is joined through one of its sessions, not booked at a time of one's own.
  if (service.data.isGroupSession) return <Navigate to={bookPath(service.data, service.data.mentorId)} replace />;
  return <Booking key={service.data.id} service={service.data} />;
}

type Hold = { reservationId: string; expiresAt: string; scheduledAt: string };

function holdOf(live: LiveHold): Hold {
  return { reservationId: live.id, expiresAt: live.expiresAt, scheduledAt: live.scheduledAt };
}

function Booking({ service }: { service: BookableService }) {
  const navigate = useNavigate();
  const free = isFree(service.price);
  const [hold, setHold] = useState<Hold | null>(null);
  // ?reservation={id}: back from the dashboard to the payment step of a hold left unpaid.
  const [searchParams] = useSearchParams();
  const resumeId = searchParams.get('reservation');
  const resumed = useHold(resumeId);
  const resumedHold = resumed.data?.service.id === service.id ? resumed.data : undefined;
  // Once the seeker leaves that payment step (released, another time), a reload of the hold does
  // not pull them back into it.
  const [resumeDone, setResumeDone] = useState(false);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the hold arrives by query; it seeds the step once
    if (resumedHold && !resumeDone) setHold(holdOf(resumedHold));
  }, [resumedHold, resumeDone]);
  const resumeFailed = Boolean(resumeId) && resumed.isError;
  // A hold the seeker already has with this mentor: picking again replaces it.
  const myHolds = useMyHolds();
  // (A held group seat is paid on its own page and is not replaced by a one-to-one pick.)
  const heldWithMentor = myHolds.data?.find(
    (h) => h.mentor.id === service.mentorId && h.id !== hold?.reservationId && !h.groupSession,
  );
  const redirectTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);
  const flowRef = useRef<HTMLDivElement>(null);
  // Each step starts at the top of the booking card (the card form is long).
  useEffect(() => {
    if (hold) flowRef.current?.scrollIntoView({ block: 'start' });
  }, [hold]);

  const onFreeBooked = () => {
    toast.success(BOOKING_TEXT.freeBookedTitle, { description: BOOKING_TEXT.freeBookedText });
    redirectTimer.current = window.setTimeout(() => navigate('/dashboard'), FREE_BOOKING_REDIRECT_DELAY_MS);
  };

  return (
    <div className="bg-slate-50/60">
      <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:px-8">
        <Link
          to={`/mentor/${service.mentor.id}`}
          className="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-indigo-700"
        >
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back to {service.mentor.displayName}
        </Link>

        <div className="mt-6 grid gap-6 lg:grid-cols-3">
          <div className="space-y-6 lg:col-span-2">
            <ServiceSummary service={service} />
            <div ref={flowRef} className="scroll-mt-24">
              <Card className="p-6">
                <Steps free={free} step={hold ? 'payment' : 'schedule'} />
                <div className="mt-6">
                  {hold ? (
                    <PaymentStep
                      service={service}
                      hold={hold}
                      onLeave={() => {
                        setHold(null);
                        setResumeDone(true);
                      }}
                    />
                  ) : (
                    <ScheduleStep
                      service={service}
                      free={free}
                      existingHold={heldWithMentor}
                      resumeFailed={resumeFailed}
                      onResume={(h) => setHold(holdOf(h))}
                      onHeld={setHold}
                      onFreeBooked={onFreeBooked}
                    />
                  )}
                </div>
              </Card>
            </div>
          </div>
          <aside className="space-y-6">
            <MentorSummary mentor={service.mentor} />
            {!free && <CancellationPolicy minimumNoticeMinutes={service.mentor.minimumNoticeMinutes} />}
          </aside>
        </div>
      </div>
    </div>
  );
}

function ServiceSummary({ service }: { service: BookableService }) {
  return (
    <Card className="p-6">
      <p className="text-xs font-semibold uppercase tracking-wide text-indigo-600">
        {serviceLabel(service.serviceType)}
      </p>
      <h1 className="mt-1 font-display text-3xl font-semibold tracking-tight text-slate-900">{service.title}</h1>
      <p className="mt-3 whitespace-pre-line text-sm leading-relaxed text-slate-600">{service.description}</p>
      <dl className="mt-5 flex flex-wrap gap-x-8 gap-y-3 text-sm">
        <div>
          <dt className="text-slate-500">Price</dt>
          <dd className="text-lg font-semibold text-slate-900">{servicePriceText(service.price)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Duration</dt>
          <dd className="flex items-center gap-1.5 text-lg font-semibold text-slate-900">
            <Clock aria-hidden="true" className="h-4 w-4 text-slate-400" />
            {service.duration} minutes
          </dd>
        </div>
      </dl>
    </Card>
  );
}

/** Photo (or initials), name, bio, rating (5 out of 5 before the first review), sessions. */
function MentorSummary({ mentor }: { mentor: BookableService['mentor'] }) {
  const rating = mentor.reviewCount === 0 ? DEFAULT_MENTOR_RATING : Number(mentor.rating);
  const shown = Number.isFinite(rating) ? rating : DEFAULT_MENTOR_RATING;
  return (
    <Card className="p-6" aria-labelledby="booking-mentor-name">
      <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Your mentor</p>
      <div className="mt-3 flex items-center gap-4">
        <MentorAvatar mentor={mentor} size="md" className="ring-indigo-50" />
        <div className="min-w-0">
          <h2 id="booking-mentor-name" className="truncate text-lg font-semibold text-slate-900">
            {mentor.displayName}
          </h2>
          <RatingStars rating={shown} />
          <p className="mt-0.5 text-xs text-slate-500">{shown.toFixed(1)} out of 5</p>
        </div>
      </div>
      <p className="mt-4 line-clamp-6 text-sm leading-relaxed text-slate-600">{mentor.bio}</p>
      <p className="mt-4 flex items-center gap-2 text-sm text-slate-600">
        <Users aria-hidden="true" className="h-4 w-4 text-slate-400" />
        <span>
          <span className="font-semibold text-slate-900">{mentor.totalSessions}</span>{' '}
          {mentor.totalSessions === 1 ? 'session' : 'sessions'}
        </span>
      </p>
      <Button asChild variant="outline" className="mt-5 w-full">
        <Link to={`/mentor/${mentor.id}`}>View Profile</Link>
      </Button>
    </Card>
  );
}

function Steps({ free, step }: { free: boolean; step: 'schedule' | 'payment' }) {
  const steps = free ? ['Schedule'] : ['Schedule', 'Payment'];
  const current = step === 'schedule' ? 0 : 1;
  return (
    <ol aria-label="Booking steps" className="flex items-center gap-3 text-sm">
      {steps.map((label, i) => (
        <li
          key={label}
          aria-current={i === current ? 'step' : undefined}
          className={cn('flex items-center gap-2', i === current ? 'font-semibold text-indigo-700' : 'text-slate-500')}
        >
          <span
            className={cn(
              'inline-flex h-6 w-6 items-center justify-center rounded-full text-xs',
              i <= current ? 'bg-indigo-600 text-white' : 'bg-slate-200 text-slate-600',
            )}
          >
            {i + 1}
          </span>
          {label}
          {i < steps.length - 1 && <span aria-hidden="true" className="ml-1 h-px w-8 bg-slate-300" />}
        </li>
      ))}
    </ol>
  );
}

type ScheduleStepProps = {
  service: BookableService;
  free: boolean;
  /** The seeker's unpaid hold with this mentor, if any: the new pick replaces it. */
  existingHold?: LiveHold;
  /** The hold the address asked to resume is gone (paid, released or expired). */
  resumeFailed: boolean;
  onResume: (hold: LiveHold) => void;
  onHeld: (hold: Hold) => void;
  onFreeBooked: () => void;
};

/** Pick a slot and add notes; a free service is booked at once, a paid one held for payment. */
function ScheduleStep({
  service,
  free,
  existingHold,
  resumeFailed,
  onResume,
  onHeld,
  onFreeBooked,
}: ScheduleStepProps) {
  const queryClient = useQueryClient();
  const [date, setDate] = useState<Date>();
  const [time, setTime] = useState<string>();
  const [notes, setNotes] = useState('');
  const [missingChoice, setMissingChoice] = useState(false);
  const [booked, setBooked] = useState(false);
  const reserve = useCreateReservation();
  const timeZone = browserTimeZone();

  const submit = () => {
    if (!date || !time) {
      setMissingChoice(true);
      return;
    }
    setMissingChoice(false);
    const scheduledAt = wallTimeToIso(isoDate(date), time, timeZone);
    reserve.mutate(
      {
        serviceId: service.id,
        mentorId: service.mentorId,
        scheduledAt,
        notes: notes.trim(),
        totalAmount: service.price,
        ...(existingHold && pickReplacesHold(existingHold, { scheduledAt, duration: service.duration, free })
          ? { replacesReservationId: existingHold.id }
          : {}),
      },
      {
        onSuccess: (result) => {
          if (result.freeBooking) {
            setBooked(true);
            onFreeBooked();
          } else if (result.reservation && result.expiresAt) {
            onHeld({ reservationId: result.reservation.id, expiresAt: result.expiresAt, scheduledAt });
          } else {
            toast.error(BOOKING_TEXT.reservationErrorTitle, { description: BOOKING_TEXT.reservationFailed });
          }
        },
        onError: (error) => {
          toast.error(BOOKING_TEXT.reservationErrorTitle, {
            description: errorMessage(error, BOOKING_TEXT.reservationFailed),
          });
          // Someone else took the time meanwhile: the refreshed list no longer offers it.
          if (errorStatus(error) === 409) setTime(undefined);
        },
      },
    );
  };

  const busy = reserve.isPending || booked;
  return (
    <div className="space-y-6">
      <div>
        <h2 className="font-display text-xl font-semibold text-slate-900">Choose a time</h2>
        <p className="mt-1 text-sm text-slate-600">Pick a day, then one of the times your mentor is free.</p>
      </div>
      {resumeFailed && <Alert variant="error">{HOLD_TEXT.expired}</Alert>}
      {existingHold && !free && (
        <Alert variant="info">
          <p className="font-medium">
            You are holding {heldTimeText(existingHold.scheduledAt)} ({existingHold.service.title}) with this mentor
            until {formatTime(existingHold.expiresAt)}.
          </p>
          <p>Pick a time below to replace it, complete its payment, or release it.</p>
          <div className="mt-2 flex flex-wrap gap-2">
            {existingHold.service.id === service.id ? (
              <Button size="sm" onClick={() => onResume(existingHold)}>
                Complete payment
              </Button>
            ) : (
              <Button asChild size="sm">
                <Link to={completePaymentPath(existingHold)}>Complete payment</Link>
              </Button>
            )}
            <Button size="sm" variant="outline" onClick={() => void releaseHold(queryClient, existingHold)}>
              Release
            </Button>
          </div>
        </Alert>
      )}
      <SlotPicker
        mentorId={service.mentorId}
        duration={service.duration}
        date={date}
        time={time}
        onDateChange={(d) => {
          setDate(d);
          if (d) setMissingChoice(false);
        }}
        onTimeChange={(t) => {
          setTime(t);
          if (t) setMissingChoice(false);
        }}
        timeZone={timeZone}
        disabled={busy}
      />
      <Field label="Notes for your mentor" hint="Optional: what you would like to focus on in the session.">
        {(control) => (
          <Textarea
            {...control}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            disabled={busy}
            rows={3}
            placeholder="Share a question or intention for your session"
          />
        )}
      </Field>
      {missingChoice && <Alert variant="error">{BOOKING_TEXT.selectDateAndTime}</Alert>}
      <div className="flex flex-wrap items-center justify-between gap-3">
        {date && time ? (
          <p className="flex items-center gap-2 text-sm text-slate-700">
            <CalendarClock aria-hidden="true" className="h-4 w-4 text-indigo-600" />
            {formatDate(date)} at {slotLabel(time)}
          </p>
        ) : (
          <span />
        )}
        <Button variant="gradient" size="lg" onClick={submit} disabled={busy}>
          <CalendarCheck aria-hidden="true" className="h-4 w-4" />
          {reserve.isPending ? 'Booking...' : free ? 'Book Free Session' : 'Continue to Payment'}
        </Button>
      </div>
    </div>
  );
}

type PaymentStepProps = { service: BookableService; hold: Hold; onLeave: () => void };

/** Under a declined payment, what the seeker can do about it. */
export const DECLINED_NEXT_STEP =
  'Check the card details or try another card. Your time stays held until the hold expires.';

/** The held slot (60 minutes, expiry shown) and the card form. */
function PaymentStep({ service, hold, onLeave }: PaymentStepProps) {
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

function BookingSkeleton() {
  return (
    <div aria-busy="true" aria-label="Loading service" className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:px-8">
      <div className="mt-10 grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card className="space-y-3 p-6">
            <Skeleton className="h-4 w-24" />
            <Skeleton className="h-8 w-2/3" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-5/6" />
          </Card>
          <Card className="p-6">
            <Skeleton className="h-72 w-full" />
          </Card>
        </div>
        <Card className="space-y-3 p-6">
          <Skeleton className="h-16 w-16 rounded-full" />
          <Skeleton className="h-5 w-1/2" />
          <Skeleton className="h-4 w-full" />
        </Card>
      </div>
    </div>
  );
}

export default BookingPage;

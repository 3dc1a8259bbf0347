import { ArrowLeft, SearchX } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { FullPageSpinner } from '@/components/ui/spinner';
import { FREE_BOOKING_REDIRECT_DELAY_MS } from '@/config/constants';
import { BOOKING_TEXT } from './texts';
import { bookPath } from '@/lib/group-sessions';
import { useHold, useMyHolds } from '@/lib/holds';
import { isFree } from '@/lib/money';
import { hardNavigate } from '@/lib/navigation';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import { isUnauthorizedError, useService, type BookableService } from './api';
import { MentorSummary, ServiceSummary } from './booking-summaries';
import { CancellationPolicy } from './cancellation-policy';
import { holdOf, type Hold } from './hold';
import { PaymentStep } from './payment-step';
import { ScheduleStep } from './schedule-step';

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

import {
  ArrowLeft,
  CalendarCheck,
  CircleAlert,
  Clock,
  Globe,
  MessageCircle,
  MessageSquareQuote,
  RefreshCw,
  Star,
  UserX,
  Users,
} from 'lucide-react';
import { Link, useParams } from 'react-router';
import { ReportButton } from '@/components/report-button';
import { FavoriteButton, useFavoriteStatus } from '@/components/favorite-button';
import { MentorAvatar } from '@/components/mentor-avatar';
import { RatingStars, ratingValue, reviewCountText } from '@/components/rating-stars';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { errorStatus } from '@/lib/api-fetch';
import { useUser } from '@/lib/auth';
import type { Mentor, Review, Service } from '@/lib/catalogue';
import { formatDate } from '@/lib/format';
import { fromPriceText, servicePriceText } from '@/lib/money';
import { bookPath } from '@/lib/group-sessions';
import { serviceLabel } from '@/lib/services';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useMentor, useMentorReviews } from './api';
import { ReadNow } from './read-now';
import { ReviewReplyForm } from './review-reply-form';

/** The static line of the side panel. */

export function MentorProfilePage() {
  const { id = '' } = useParams();
  const mentor = useMentor(id);
  useDocumentTitle(mentor.data?.displayName ?? 'Mentor');

  if (mentor.isLoading) return <ProfileSkeleton />;
  if (mentor.isError) {
    const notFound = errorStatus(mentor.error) === 404;
    return (
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
        {notFound ? (
          <StateCard
            as="h1"
            icon={UserX}
            title="Mentor Not Found"
            actions={
              <Button asChild>
                <Link to="/mentors">Browse Mentors</Link>
              </Button>
            }
          >
            The mentor you're looking for doesn't exist or is no longer available.
          </StateCard>
        ) : (
          <StateCard
            as="h1"
            tone="error"
            icon={CircleAlert}
            title="Unable to Load Mentor"
            actions={
              <>
                <Button onClick={() => void mentor.refetch()}>
                  <RefreshCw aria-hidden="true" className="h-4 w-4" />
                  Retry
                </Button>
                <Button asChild variant="outline">
                  <Link to="/mentors">Browse Mentors</Link>
                </Button>
              </>
            }
          >
            Something went wrong while loading this mentor. Please try again.
          </StateCard>
        )}
      </div>
    );
  }
  return <MentorProfile mentor={mentor.data!} />;
}

function fullName(user: Mentor['user']): string {
  return [user?.firstName, user?.lastName].filter(Boolean).join(' ');
}

function MentorProfile({ mentor }: { mentor: Mentor }) {
  const { user } = useUser();
  const isSelf = !!user && user.id === mentor.userId;
  const favorite = useFavoriteStatus(mentor.id, !isSelf && !!user);
  const services = mentor.services ?? [];
  const accountName = fullName(mentor.user);

  return (
    <div className="bg-slate-50/60">
      <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8">
        <Link
          to="/mentors"
          className="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-indigo-700"
        >
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back to mentors
        </Link>

        {mentor.approvalStatus !== 'approved' && (
          <p className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
            {isSelf ? 'Only you' : 'Only you and the mentor'} can see this page:{' '}
            {mentor.approvalStatus === 'rejected'
              ? 'the profile was not approved and is not listed.'
              : 'the profile awaits review and is not listed yet.'}
          </p>
        )}

        <div className="mt-6 grid gap-6 lg:grid-cols-3 lg:items-start">
          {/* On small screens the booking panel follows the profile; on large ones it sits beside everything. */}
          <div className="lg:col-span-2">
            {/* Profile */}
            <Card className="overflow-hidden">
              <div
                aria-hidden="true"
                className="h-24 bg-gradient-to-r from-indigo-600 via-violet-600 to-fuchsia-500 sm:h-32"
              />
              <div className="px-6 pb-6">
                <div className="-mt-12 flex flex-col gap-4 sm:-mt-14 sm:flex-row sm:items-end sm:justify-between">
                  <MentorAvatar mentor={mentor} size="lg" className="shadow-md" />
                  <div className="flex items-center gap-2">
                    {!isSelf && user && <ReportButton targetType="mentor" targetId={mentor.id} />}
                    {!isSelf && (favorite.data || !user) && (
                      <FavoriteButton
                        variant="labelled"
                        mentorId={mentor.id}
                        mentorName={mentor.displayName}
                        isFavorited={favorite.data?.isFavorited ?? false}
                      />
                    )}
                  </div>
                </div>
                <h1 className="mt-4 font-display text-3xl font-semibold tracking-tight text-slate-900">
                  {mentor.displayName}
                </h1>
                {accountName && accountName !== mentor.displayName && (
                  <p className="text-sm text-slate-500">{accountName}</p>
                )}
                <RatingStars className="mt-2" size="md" rating={mentor.rating} reviewCount={mentor.reviewCount ?? 0} />
                {mentor.specialties.length > 0 && (
                  <ul aria-label="Specialties" className="mt-4 flex flex-wrap gap-2">
                    {mentor.specialties.map((s) => (
                      <li key={s} className="rounded-full bg-indigo-50 px-3 py-1 text-sm font-medium text-indigo-700">
                        {s}
                      </li>
                    ))}
                  </ul>
                )}
                <h2 className="mt-6 text-lg font-semibold text-slate-900">About</h2>
                <p className="mt-2 whitespace-pre-line leading-relaxed text-slate-700">{mentor.bio}</p>
                {mentor.timeZone && (
                  <p className="mt-4 inline-flex items-center gap-1.5 text-sm text-slate-500">
                    <Globe aria-hidden="true" className="h-4 w-4" />
                    Time zone: {mentor.timeZone}
                  </p>
                )}
              </div>
            </Card>
          </div>

          {/* Side panel */}
          <aside aria-label="Book and contact" className="lg:col-span-1 lg:row-span-2 lg:self-stretch">
            <div className="space-y-6 lg:sticky lg:top-24">
              <Card className="p-6">
                {fromPriceText(mentor.fromPrice) && (
                  <p className="font-display text-3xl font-semibold text-slate-900">
                    {fromPriceText(mentor.fromPrice)}
                  </p>
                )}
                <div className="mt-5 space-y-3">
                  {isSelf ? (
                    <>
                      <p className="text-sm text-slate-600">This is your public mentor profile.</p>
                      <Button asChild className="w-full">
                        <Link to="/mentor-dashboard">Go to Mentor Dashboard</Link>
                      </Button>
                    </>
                  ) : (
                    <>
                      <ReadNow mentor={mentor} signedIn={Boolean(user)} />
                      <Button asChild variant="gradient" size="lg" className="w-full">
                        <a href="#services">
                          <CalendarCheck aria-hidden="true" className="h-5 w-5" />
                          Book a Session
                        </a>
                      </Button>
                      <Button asChild variant="outline" size="lg" className="w-full">
                        <Link to={`/messages?mentor=${mentor.id}`}>
                          <MessageCircle aria-hidden="true" className="h-5 w-5" />
                          Send Message
                        </Link>
                      </Button>
                    </>
                  )}
                </div>
              </Card>
              <Card className="p-6">
                <h2 className="text-base font-semibold text-slate-900">Quick Stats</h2>
                <dl className="mt-4 space-y-3 text-sm">
                  <Stat
                    icon={Star}
                    label="Rating"
                    value={mentor.reviewCount ? `${ratingValue(mentor.rating).toFixed(1)} / 5` : 'New'}
                  />
                  <Stat icon={MessageSquareQuote} label="Reviews" value={String(mentor.reviewCount ?? 0)} />
                  <Stat icon={Users} label="Sessions" value={String(mentor.totalSessions ?? 0)} />
                  <Stat icon={CalendarCheck} label="Services" value={String(services.length)} />
                </dl>
              </Card>
            </div>
          </aside>

          <div className="space-y-6 lg:col-span-2">
            {/* Services */}
            <section id="services" aria-labelledby="services-title" className="scroll-mt-24">
              <h2 id="services-title" className="font-display text-2xl font-semibold text-slate-900">
                Services Offered
              </h2>
              {services.length === 0 ? (
                <p className="mt-4 rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
                  This mentor has no services to book yet.
                </p>
              ) : (
                <ul className="mt-4 grid gap-4 md:grid-cols-2">
                  {services.map((service) => (
                    <li key={service.id}>
                      <ServiceCard service={service} bookable={!isSelf} />
                    </li>
                  ))}
                </ul>
              )}
            </section>

            {/* Reviews */}
            <Reviews mentorId={mentor.id} mentorUserId={mentor.userId} />
          </div>
        </div>
      </div>
    </div>
  );
}

function Stat({ icon: Icon, label, value }: { icon: typeof Star; label: string; value: string }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <dt className="inline-flex items-center gap-2 text-slate-600">
        <Icon aria-hidden="true" className="h-4 w-4 text-indigo-500" />
        {label}
      </dt>
      <dd className="font-semibold text-slate-900">{value}</dd>
    </div>
  );
}

function ServiceCard({ service, bookable }: { service: Service; bookable: boolean }) {
  return (
    <Card className="flex h-full flex-col p-5">
      <div className="flex flex-wrap items-center gap-2">
        <span className="rounded-full bg-violet-50 px-2.5 py-0.5 text-xs font-medium text-violet-700">
          {serviceLabel(service.serviceType)}
        </span>
        {service.isGroupSession && (
          <span className="inline-flex items-center gap-1 rounded-full bg-amber-50 px-2.5 py-0.5 text-xs font-medium text-amber-800">
            <Users aria-hidden="true" className="h-3.5 w-3.5" />
            Group session{service.maxParticipants ? ` · up to ${service.maxParticipants}` : ''}
          </span>
        )}
      </div>
      <h3 className="mt-3 text-lg font-semibold text-slate-900">{service.title}</h3>
      <p className="mt-1 flex-1 text-sm leading-relaxed text-slate-600">{service.description}</p>
      <div className="mt-4 flex items-center justify-between gap-3 border-t border-slate-100 pt-4">
        <div>
          <p className="text-lg font-semibold text-slate-900">{servicePriceText(service.price)}</p>
          <p className="inline-flex items-center gap-1 text-xs text-slate-500">
            <Clock aria-hidden="true" className="h-3.5 w-3.5" />
            {service.duration} minutes
          </p>
        </div>
        {bookable && (
          <Button asChild size="sm">
            {/* The visible word starts the accessible name (WCAG 2.5.3, label in name). */}
            <Link to={bookPath(service, service.mentorId)}>
              Book <span className="sr-only">{service.title}</span>
            </Link>
          </Button>
        )}
      </div>
    </Card>
  );
}

export function reviewerName(review: Review): string {
  const first = review.user?.firstName?.trim();
  const last = review.user?.lastName?.trim();
  if (!first && !last) return 'Anonymous';
  return [first, last ? `${last[0]}.` : ''].filter(Boolean).join(' ');
}

function Reviews({ mentorId, mentorUserId }: { mentorId: string; mentorUserId?: string }) {
  const reviews = useMentorReviews(mentorId);
  const { user } = useUser();
  return (
    <section aria-labelledby="reviews-title">
      <h2 id="reviews-title" className="font-display text-2xl font-semibold text-slate-900">
        Reviews
        {reviews.data && reviews.data.length > 0 && (
          <span className="ml-2 text-base font-normal text-slate-500">({reviewCountText(reviews.data.length)})</span>
        )}
      </h2>
      <div className="mt-4">
        {reviews.isLoading ? (
          <Spinner className="h-6 w-6 text-indigo-600" label="Loading reviews" />
        ) : reviews.isError ? (
          <p role="alert" className="text-sm text-rose-700">
            Reviews could not be loaded.{' '}
            <Button variant="link" onClick={() => void reviews.refetch()}>
              Retry
            </Button>
          </p>
        ) : !reviews.data || reviews.data.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-600">
            No reviews yet.
          </p>
        ) : (
          <ul className="space-y-4">
            {reviews.data.map((review) => (
              <li key={review.id}>
                <Card className="p-5">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <p className="font-medium text-slate-900">{reviewerName(review)}</p>
                    <span className="flex items-center gap-1">
                      <time dateTime={review.createdAt} className="text-sm text-slate-500">
                        {formatDate(review.createdAt)}
                      </time>
                      {user && <ReportButton compact targetType="review" targetId={review.id} />}
                    </span>
                  </div>
                  <RatingStars className="mt-1" rating={review.rating} />
                  {review.comment && <p className="mt-3 text-sm leading-relaxed text-slate-700">{review.comment}</p>}
                  {review.reply ? (
                    <div className="mt-3 border-l-2 border-indigo-200 pl-3 text-sm text-slate-700">
                      <p className="font-medium text-slate-900">Reply from the mentor</p>
                      <p className="mt-1 leading-relaxed">{review.reply.message}</p>
                    </div>
                  ) : (
                    !!user && user.id === mentorUserId && <ReviewReplyForm mentorId={mentorId} reviewId={review.id} />
                  )}
                </Card>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function ProfileSkeleton() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:px-8" aria-busy="true">
      <span className="sr-only" role="status">
        Loading mentor
      </span>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Skeleton className="h-72 w-full rounded-2xl" />
          <Skeleton className="h-48 w-full rounded-2xl" />
        </div>
        <Skeleton className="h-64 w-full rounded-2xl" />
      </div>
    </div>
  );
}

export default MentorProfilePage;

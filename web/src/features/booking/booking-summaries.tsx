import { Clock, Users } from 'lucide-react';
import { Link } from 'react-router';
import { MentorAvatar } from '@/components/mentor-avatar';
import { RatingStars } from '@/components/rating-stars';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { DEFAULT_MENTOR_RATING } from '@/config/constants';
import { servicePriceText } from '@/lib/money';
import { serviceLabel } from '@/lib/services';
import type { BookableService } from './api';

export function ServiceSummary({ service }: { service: BookableService }) {
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
export function MentorSummary({ mentor }: { mentor: BookableService['mentor'] }) {
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

import { ArrowRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import type { Mentor } from '@/lib/catalogue';
import { formatUsd, fromPriceText } from '@/lib/money';
import { MentorAvatar } from './mentor-avatar';
import { RatingStars } from './rating-stars';

const MAX_CARD_SPECIALTIES = 2;

/** Cards show at most two specialties. */
export function cardSpecialties(specialties: string[] | null | undefined): { shown: string[]; more: number } {
  const list = specialties ?? [];
  return { shown: list.slice(0, MAX_CARD_SPECIALTIES), more: Math.max(0, list.length - MAX_CARD_SPECIALTIES) };
}

export function SpecialtyChips({ specialties }: { specialties: string[] | null | undefined }) {
  const { shown, more } = cardSpecialties(specialties);
  if (shown.length === 0) return null;
  return (
    <ul aria-label="Specialties" className="flex flex-wrap gap-1.5">
      {shown.map((s) => (
        <li key={s} className="rounded-full bg-indigo-50 px-2.5 py-0.5 text-xs font-medium text-indigo-700">
          {s}
        </li>
      ))}
      {more > 0 && (
        <li className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-600">+{more} more</li>
      )}
    </ul>
  );
}

type MentorCardProps = {
  mentor: Mentor;
  /** Where the card leads: /mentor/{id} (signed in) or elsewhere. */
  to: string;
  /** Something on top of the card, e.g. the favourite toggle. */
  action?: ReactNode;
  headingLevel?: 'h2' | 'h3';
};

/**
 * A mentor in a grid: photo or initials, name (the link), stars, at most two specialties, a
 * short bio and the base price. The whole card is clickable through the name's link.
 */
export function MentorCard({ mentor, to, action, headingLevel: Heading = 'h3' }: MentorCardProps) {
  return (
    <Card className="group relative flex h-full flex-col p-5 transition hover:-translate-y-0.5 hover:border-indigo-200 hover:shadow-md">
      {action && <div className="absolute right-4 top-4 z-10">{action}</div>}
      <div className="flex items-start gap-4 pr-10">
        <MentorAvatar mentor={mentor} size="md" className="ring-indigo-50" />
        <div className="min-w-0 space-y-1">
          <Heading className="line-clamp-2 break-words text-lg font-semibold text-slate-900">
            <Link
              to={to}
              className="outline-none after:absolute after:inset-0 after:rounded-2xl focus-visible:after:outline-2 focus-visible:after:outline-indigo-500"
            >
              {mentor.displayName}
            </Link>
          </Heading>
          <RatingStars rating={mentor.rating} reviewCount={mentor.reviewCount ?? 0} />
        </div>
      </div>
      <div className="mt-4">
        <SpecialtyChips specialties={mentor.specialties} />
      </div>
      {mentor.bio && <p className="mt-3 line-clamp-2 flex-1 text-sm leading-relaxed text-slate-600">{mentor.bio}</p>}
      <div className="mt-5 flex items-center justify-between border-t border-slate-100 pt-4 text-sm">
        <span className="font-semibold text-slate-900">
          {fromPriceText(mentor.fromPrice)}
          {mentor.perMinuteRate && (
            <span className={mentor.presence === 'available' ? 'ml-2 text-emerald-700' : 'ml-2 text-slate-500'}>
              {mentor.presence === 'available' ? 'Available now · ' : ''}
              {formatUsd(mentor.perMinuteRate)}/min
            </span>
          )}
        </span>
        <span aria-hidden="true" className="inline-flex items-center gap-1 font-medium text-indigo-700">
          View Profile
          <ArrowRight className="h-4 w-4 transition group-hover:translate-x-0.5" />
        </span>
      </div>
    </Card>
  );
}

/** A placeholder card while mentors load. */
export function MentorCardSkeleton() {
  return (
    <Card className="flex h-full flex-col p-5" aria-hidden="true" data-testid="mentor-card-skeleton">
      <div className="flex items-start gap-4">
        <Skeleton className="h-16 w-16 rounded-full" />
        <div className="flex-1 space-y-2 pt-1">
          <Skeleton className="h-5 w-3/5" />
          <Skeleton className="h-4 w-2/5" />
        </div>
      </div>
      <div className="mt-4 flex gap-2">
        <Skeleton className="h-5 w-20 rounded-full" />
        <Skeleton className="h-5 w-24 rounded-full" />
      </div>
      <Skeleton className="mt-4 h-4 w-full" />
      <Skeleton className="mt-2 h-4 w-4/5" />
      <Skeleton className="mt-6 h-5 w-1/3" />
    </Card>
  );
}

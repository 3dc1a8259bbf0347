import { CalendarDays, DollarSign, Star, Users, Wallet, type LucideIcon } from 'lucide-react';
import { ratingValue, reviewCountText } from '@/components/rating-stars';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { amount, formatUsd } from '@/lib/money';
import { useMentorStats, type MentorStats } from './api';
import { useMentorEarnings, type Earnings as PayoutEarnings } from './payouts-api';

const UNAVAILABLE = '—';

/** The Rating card's value: 'New' until the first review, else '4.8' (as the catalogue shows it). */
export function ratingText(stats: Pick<MentorStats, 'rating' | 'reviewCount'>): { value: string; note: string } {
  if (!stats.reviewCount) return { value: 'New', note: 'No reviews yet' };
  return { value: ratingValue(stats.rating).toFixed(1), note: reviewCountText(stats.reviewCount) };
}

/**
 * The four summary cards (Total Sessions, This Month, Total Earnings, Rating) from
 * GET /api/mentor/stats, and the earnings card with the platform fee deducted.
 */
export function MentorSummary() {
  const stats = useMentorStats();
  const payouts = useMentorEarnings();
  const data = stats.data;
  const loading = stats.isLoading;
  const failed = stats.isError;
  const note = failed ? 'Unavailable right now' : undefined;
  const rating = data ? ratingText(data) : undefined;
  return (
    // items-start / content-start: the cards take their content's height, not the taller Earnings card's.
    <div className="grid items-start gap-4 lg:grid-cols-[1fr_20rem]">
      <dl className="grid content-start grid-cols-2 gap-4 xl:grid-cols-4" aria-busy={loading || undefined}>
        <SummaryCard
          icon={Users}
          label="Total Sessions"
          value={data ? String(data.totalSessions) : undefined}
          loading={loading}
          note={note ?? 'Booked, upcoming and completed'}
        />
        <SummaryCard
          icon={CalendarDays}
          label="This Month"
          value={data ? String(data.thisMonth) : undefined}
          loading={loading}
          note={note ?? 'Sessions scheduled this month'}
        />
        <SummaryCard
          icon={DollarSign}
          label="Total Earnings"
          value={data ? formatUsd(data.totalEarnings) : undefined}
          loading={loading}
          note={note ?? 'From completed sessions'}
        />
        <SummaryCard icon={Star} label="Rating" value={rating?.value} loading={loading} note={note ?? rating?.note} />
      </dl>
      <EarningsCard stats={data} loading={loading} failed={failed} payouts={payouts.data} />
    </div>
  );
}

function SummaryCard({
  icon: Icon,
  label,
  value,
  loading,
  note,
}: {
  icon: LucideIcon;
  label: string;
  value: string | undefined;
  loading: boolean;
  note?: string;
}) {
  return (
    <Card className="p-5">
      <dt className="flex items-center justify-between gap-2 text-sm font-medium text-slate-600">
        {label}
        <Icon aria-hidden="true" className="h-5 w-5 text-indigo-500" />
      </dt>
      <dd className="mt-2">
        {loading ? (
          <Skeleton className="h-8 w-16" />
        ) : (
          <span className="font-display text-2xl font-semibold text-slate-900">{value ?? UNAVAILABLE}</span>
        )}
        {!loading && note && <span className="mt-0.5 block text-xs text-slate-500">{note}</span>}
      </dd>
    </Card>
  );
}

type Earnings = Pick<MentorStats, 'totalEarnings' | 'platformFee' | 'platformFeePercent' | 'netEarnings'>;

/**
 * Total earnings, the platform's fee as a deduction, and what the mentor keeps: all three as the
 * server computes them (docs/after-booking.md, GET /api/mentor/stats); the web does no fee math.
 */
function EarningsCard({
  stats,
  loading,
  failed,
  payouts,
}: {
  stats: Earnings | undefined;
  loading: boolean;
  failed: boolean;
  payouts?: PayoutEarnings;
}) {
  const show = (value: string | undefined, prefix = '') =>
    value === undefined ? UNAVAILABLE : `${amount(value) > 0 ? prefix : ''}${formatUsd(value)}`;
  const percent = stats ? `${stats.platformFeePercent}%` : '';
  return (
    <Card role="region" aria-labelledby="earnings-heading" className="p-5">
      <div className="flex items-center justify-between gap-2">
        <h2 id="earnings-heading" className="text-sm font-semibold text-slate-900">
          Earnings
        </h2>
        <Wallet aria-hidden="true" className="h-5 w-5 text-emerald-600" />
      </div>
      {loading ? (
        <div className="mt-3 space-y-2">
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-5 w-full" />
          <Skeleton className="h-6 w-full" />
        </div>
      ) : (
        <dl className="mt-3 space-y-2 text-sm">
          <div className="flex items-center justify-between gap-3">
            <dt className="text-slate-600">Total earnings</dt>
            <dd className="font-medium text-slate-900">{show(stats?.totalEarnings)}</dd>
          </div>
          <div className="flex items-center justify-between gap-3">
            <dt className="text-slate-600">Platform fee{percent && ` (${percent})`}</dt>
            <dd className="font-medium text-rose-700">{show(stats?.platformFee, '−')}</dd>
          </div>
          <div className="flex items-center justify-between gap-3 border-t border-slate-100 pt-2">
            <dt className="font-semibold text-slate-900">Your net earnings</dt>
            <dd className="font-display text-lg font-semibold text-emerald-700">{show(stats?.netEarnings)}</dd>
          </div>
          {payouts && (
            <>
              <div className="flex items-center justify-between gap-3 border-t border-slate-100 pt-2">
                <dt className="text-slate-600">Pending payout</dt>
                <dd className="font-medium text-slate-900">{formatUsd(payouts.pending.mentorNet)}</dd>
              </div>
              <div className="flex items-center justify-between gap-3">
                <dt className="text-slate-600">Next payout (accruing)</dt>
                <dd className="font-medium text-slate-900">{formatUsd(payouts.nextPayout.mentorNet)}</dd>
              </div>
            </>
          )}
        </dl>
      )}
      <p className="mt-3 text-xs text-slate-500">
        {failed
          ? 'Earnings are unavailable right now.'
          : `From completed sessions, after the platform's${percent && ` ${percent}`} fee.`}
      </p>
    </Card>
  );
}

import { useQuery } from '@tanstack/react-query';
import { ArrowRight, Flower2, Gem, HeartHandshake, Leaf, Moon, Sparkles, type LucideIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Skeleton } from '@/components/ui/skeleton';
import { catalogueQueries, type ServiceStat } from '@/lib/catalogue';
import { minPriceText } from '@/lib/money';
import { SERVICE_DESCRIPTIONS, SERVICE_LABELS, SERVICE_TYPES, type ServiceType } from '@/lib/services';

const ICONS: Record<ServiceType, LucideIcon> = {
  astrology: Moon,
  tarot: Sparkles,
  energy_healing: Gem,
  mystical_practices: Flower2,
  relationship_guidance: HeartHandshake,
  meditation: Leaf,
};

/** 'From $25.00', or 'Coming Soon' when the lowest price is 0. */
export const priceText = minPriceText;

/** 'No mentors yet', or the mentor count ('1 mentor', '3 mentors'). */
export function mentorCountText(count: number | undefined): string {
  if (!count) return 'No mentors yet';
  return count === 1 ? '1 mentor' : `${count} mentors`;
}

/** GET /api/service-stats: one row per service type (public). */
export function useServiceStats() {
  return useQuery(catalogueQueries.serviceStats());
}

/** Each card leads to the mentor list filtered by its type (visitors browse it signed out too). */
export function ServiceGrid() {
  const { data, isLoading, isError } = useServiceStats();
  return (
    <>
      {isError && <p className="mb-4 text-sm text-slate-500">Prices and mentor counts are unavailable right now.</p>}
      <ServiceCards stats={data} loading={isLoading} />
    </>
  );
}

type ServiceCardsProps = { stats: ServiceStat[] | undefined; loading: boolean };

export function ServiceCards({ stats, loading }: ServiceCardsProps) {
  return (
    <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
      {SERVICE_TYPES.map((type) => {
        const Icon = ICONS[type];
        const stat = stats?.find((s) => s.serviceType === type);
        return (
          <li key={type}>
            <Link
              to={`/mentors?service=${type}`}
              className="group flex h-full flex-col rounded-2xl border border-slate-200/80 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-indigo-200 hover:shadow-md hover:shadow-indigo-100"
            >
              <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-gradient-to-br from-indigo-50 to-violet-100 text-indigo-600">
                <Icon aria-hidden="true" className="h-6 w-6" />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{SERVICE_LABELS[type]}</h3>
              <p className="mt-1 flex-1 text-sm leading-relaxed text-slate-600">{SERVICE_DESCRIPTIONS[type]}</p>
              <div className="mt-5 flex min-h-5 items-center justify-between gap-2 text-sm">
                {loading ? (
                  <>
                    <Skeleton className="h-4 w-24" />
                    <Skeleton className="h-4 w-20" />
                  </>
                ) : stats ? (
                  <>
                    <span className="font-medium text-indigo-700">{priceText(stat?.minPrice)}</span>
                    <span className="text-slate-500">{mentorCountText(stat?.mentorCount)}</span>
                  </>
                ) : null}
              </div>
              <span className="mt-4 inline-flex items-center gap-1 text-sm font-medium text-slate-700 group-hover:text-indigo-700">
                Explore
                <ArrowRight aria-hidden="true" className="h-4 w-4 transition group-hover:translate-x-0.5" />
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

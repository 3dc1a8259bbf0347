import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Heart } from 'lucide-react';
import { toast } from 'sonner';
import { catalogueApi, catalogueKeys, catalogueQueries, type FavoriteStatus, type Mentor } from '@/lib/catalogue';
import { Tooltip } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';
import { useLocation, useNavigate } from 'react-router';
import { useUser } from '@/lib/auth';
import { signInPath } from '@/lib/navigation';

/** The favourite toasts. */
export const FAVORITE_TEXTS = {
  added: 'Added to favorites',
  removed: 'Removed from favorites',
  addFailed: 'Failed to add to favorites',
  removeFailed: 'Failed to remove from favorites',
} as const;

/** The ids of the signed-in user's favourite mentors (GET /api/user/favorites), for list pages. */
export function useFavoriteIds(enabled = true) {
  const query = useQuery({ ...catalogueQueries.favorites(), enabled });
  return { ids: new Set((query.data ?? []).map((m: Mentor) => m.id)), isLoading: query.isLoading };
}

/** GET /api/user/favorites/check/{mentorId}: one mentor's state (the profile page). */
export function useFavoriteStatus(mentorId: string, enabled = true) {
  return useQuery({
    ...catalogueQueries.favoriteCheck(mentorId),
    enabled: enabled && !!mentorId,
  });
}

/**
 * Adds or removes a favourite (POST / DELETE /api/user/favorites/{mentorId}), toasts the result
 * ('Added to favorites' / 'Removed from favorites', or a destructive 'Error' toast) and refreshes
 * the favourite list and that mentor's check.
 */
export function useToggleFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ mentorId, favorite }: { mentorId: string; favorite: boolean }) =>
      favorite ? catalogueApi.addFavorite(mentorId) : catalogueApi.removeFavorite(mentorId),
    onSuccess: (_data, { mentorId, favorite }) => {
      toast.success(favorite ? FAVORITE_TEXTS.added : FAVORITE_TEXTS.removed);
      queryClient.setQueryData<FavoriteStatus>(catalogueKeys.favoriteCheck(mentorId), { isFavorited: favorite });
      void queryClient.invalidateQueries({ queryKey: catalogueKeys.favorites() });
    },
    onError: (_error, { favorite }) => {
      toast.error('Error', { description: favorite ? FAVORITE_TEXTS.addFailed : FAVORITE_TEXTS.removeFailed });
    },
  });
}

type FavoriteButtonProps = {
  mentorId: string;
  mentorName: string;
  isFavorited: boolean;
  className?: string;
  /** 'icon' (on cards) or a labelled button (profile page). */
  variant?: 'icon' | 'labelled';
};

/**
 * The favourite toggle, named by what it does ('Add Luna to favorites' / 'Remove Luna from
 * favorites'; the labelled variant reads 'Add to Favorites' / 'Remove from Favorites').
 */
export function FavoriteButton({
  mentorId,
  mentorName,
  isFavorited,
  className,
  variant = 'icon',
}: FavoriteButtonProps) {
  const toggle = useToggleFavorite();
  const { user } = useUser();
  const navigate = useNavigate();
  const location = useLocation();
  // Signed out, favouriting asks to sign in first and comes back here.
  const onClick = () =>
    user
      ? toggle.mutate({ mentorId, favorite: !isFavorited })
      : navigate(signInPath(location.pathname + location.search));
  const pending = toggle.isPending;
  // While the call runs, show the state it is moving to.
  const shown = pending && toggle.variables?.mentorId === mentorId ? toggle.variables.favorite : isFavorited;
  const label = isFavorited ? `Remove ${mentorName} from favorites` : `Add ${mentorName} to favorites`;
  const button = (
    <button
      type="button"
      aria-label={variant === 'icon' ? label : undefined}
      disabled={pending}
      onClick={onClick}
      className={cn(
        'inline-flex items-center justify-center gap-2 rounded-full transition-colors disabled:opacity-70',
        variant === 'icon'
          ? 'h-10 w-10 bg-white/90 text-slate-500 shadow-sm ring-1 ring-slate-200 hover:text-rose-600'
          : 'h-10 rounded-lg border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-50',
        shown && 'text-rose-600',
        className,
      )}
    >
      <Heart aria-hidden="true" className={cn('h-5 w-5', shown && 'fill-rose-500 text-rose-500')} />
      {variant === 'labelled' && (isFavorited ? 'Remove from Favorites' : 'Add to Favorites')}
    </button>
  );
  // The icon alone says nothing to a sighted pointer user: its tooltip does (the labelled one reads itself).
  return variant === 'icon' ? <Tooltip content={label}>{button}</Tooltip> : button;
}

import { Heart } from 'lucide-react';
import { ComingSoon } from '@/components/coming-soon';

export function FavoritesPage() {
  return (
    <ComingSoon
      title="Favorites"
      description="The mentors you save will be gathered here so you can book them again quickly."
      icon={Heart}
      back={{ to: '/mentors', label: 'Browse Mentors' }}
    />
  );
}

export default FavoritesPage;

import { Video } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

/** Start Video Session: opens the booking's conversation with the call started (`to`). */
export function StartVideoButton({ to }: { to: string }) {
  return (
    <Button asChild variant="gradient" size="sm">
      <Link to={to}>
        <Video aria-hidden="true" className="h-4 w-4" />
        Start Video Session
      </Link>
    </Button>
  );
}

import { Video } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

/**
 * Start Video Session: opens the booking's conversation with the call started (`to`); a group
 * seat's says 'Join Video Call' and leads to the group call.
 */
export function StartVideoButton({ to, label = 'Start Video Session' }: { to: string; label?: string }) {
  return (
    <Button asChild variant="gradient" size="sm">
      <Link to={to}>
        <Video aria-hidden="true" className="h-4 w-4" />
        {label}
      </Link>
    </Button>
  );
}

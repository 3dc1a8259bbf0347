import { ArrowLeft, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';

/**
 * The wizard's last screen. 'View Your Profile' opens the mentor's own page (`/mentor/{id}`), which
 * they may see while it awaits review (with a banner saying so); the catalogue would not list them yet.
 */
export function CompleteStep({ mentorId, onBack }: { mentorId: string; onBack: () => void }) {
  return (
    <Card className="p-8 text-center sm:p-12">
      <span className="mx-auto inline-flex h-16 w-16 items-center justify-center rounded-2xl bg-gradient-to-br from-indigo-500 to-violet-600 text-white shadow-lg shadow-indigo-500/30">
        <Sparkles aria-hidden="true" className="h-8 w-8" />
      </span>
      <h2 className="mt-6 font-display text-3xl font-semibold text-slate-900">You're all set!</h2>
      <p className="mx-auto mt-3 max-w-md text-slate-600">
        Your mentor profile, services and hours are saved. Our team reviews every new mentor profile: once it is
        approved, seekers can find you, save you to their favorites and book your sessions. Your dashboard shows where
        the review stands.
      </p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <Button asChild variant="gradient" size="lg">
          <Link to="/mentor-dashboard">Go to Mentor Dashboard</Link>
        </Button>
        <Button asChild variant="outline" size="lg">
          <Link to={`/mentor/${mentorId}`}>View Your Profile</Link>
        </Button>
      </div>
      <div className="mt-6">
        <Button variant="link" onClick={onBack}>
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          Back
        </Button>
      </div>
    </Card>
  );
}

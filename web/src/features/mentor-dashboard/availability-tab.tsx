import { CalendarClock, CalendarRange, CircleAlert, Lightbulb, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { StateCard } from '@/components/state-card';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { BOOKING_WINDOW_DAYS } from '@/config/constants';
import { MENTOR_DASHBOARD_TEXT as TEXT } from './texts';
import { AVAILABILITY_STEP_MINUTES } from '@/lib/weekly-availability';
import { errorMessage } from '@/lib/api-fetch';
import type { Mentor } from '@/lib/catalogue';
import { timeZoneLabel } from '@/lib/time-zones';
import { cn } from '@/lib/utils';
import { AddAvailabilityDialog } from './add-availability-dialog';
import { BuffersAndLimit } from './buffers-and-limit';
import { DateOverrides } from './date-overrides';
import { SeveralDaysDialog } from './several-days-dialog';
import { useAvailability, useDeleteAvailability, useSetAvailabilityActive, type AvailabilitySlot } from './api';
import { DAY_NAMES, groupByDay, slotName, windowLabel } from '@/lib/weekly-availability';

/** The weekly windows by day, Sunday to Saturday, with quick tips and the Add Availability dialog. */
export function AvailabilityTab({ mentor }: { mentor: Mentor }) {
  const availability = useAvailability();
  const setActive = useSetAvailabilityActive(mentor.id);
  const remove = useDeleteAvailability(mentor.id);
  const [adding, setAdding] = useState(false);
  const [addingMany, setAddingMany] = useState(false);
  const [deleting, setDeleting] = useState<AvailabilitySlot | null>(null);
  const slots = availability.data ?? [];

  const toggle = (slot: AvailabilitySlot, isActive: boolean) =>
    setActive.mutate(
      { id: slot.id, isActive },
      {
        onError: (error) =>
          toast.error(TEXT.availabilitySaveFailed, { description: errorMessage(error, 'Please try again.') }),
      },
    );

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast.success('Availability deleted');
        setDeleting(null);
      },
      onError: (error) => {
        toast.error(TEXT.availabilityDeleteFailed, { description: errorMessage(error, 'Please try again.') });
        setDeleting(null);
      },
    });
  };
  const togglingId = setActive.isPending ? setActive.variables?.id : undefined;

  return (
    <section aria-labelledby="availability-heading">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="availability-heading" className="font-display text-2xl font-semibold text-slate-900">
            Weekly Availability
          </h2>
          <p className="text-sm text-slate-600">When seekers can book sessions with you, every week.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setAddingMany(true)}>
            <CalendarRange aria-hidden="true" className="h-4 w-4" />
            Add for Several Days
          </Button>
          <Button onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" className="h-4 w-4" />
            Add Availability
          </Button>
        </div>
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-[1fr_18rem]">
        <div>
          {availability.isLoading ? (
            <div className="space-y-3" aria-label="Loading availability">
              {DAY_NAMES.map((d) => (
                <Skeleton key={d} className="h-16 w-full rounded-2xl" />
              ))}
            </div>
          ) : availability.isError ? (
            <StateCard
              as="h3"
              tone="error"
              icon={CircleAlert}
              title={TEXT.availabilityLoadFailed}
              actions={
                <Button onClick={() => void availability.refetch()}>
                  <RefreshCw aria-hidden="true" className="h-4 w-4" />
                  Retry
                </Button>
              }
            >
              {errorMessage(availability.error, 'Your availability could not be loaded. Please try again.')}
            </StateCard>
          ) : slots.length === 0 ? (
            <StateCard
              as="h3"
              icon={CalendarClock}
              title={TEXT.noAvailability}
              actions={
                <Button variant="gradient" onClick={() => setAdding(true)}>
                  <Plus aria-hidden="true" className="h-4 w-4" />
                  Add Your First Window
                </Button>
              }
            >
              Seekers cannot book you until you add the times you are available.
            </StateCard>
          ) : (
            <ul aria-label="Availability by day" className="space-y-3">
              {groupByDay(slots).map((group) => (
                <li key={group.dayOfWeek}>
                  <Card className="p-4 sm:p-5">
                    <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
                      <h3 id={`day-${group.dayOfWeek}`} className="w-28 shrink-0 pt-1 font-semibold text-slate-900">
                        {group.day}
                      </h3>
                      {group.slots.length === 0 ? (
                        <p className="pt-1 text-sm text-slate-500">{TEXT.notAvailable}</p>
                      ) : (
                        <ul aria-labelledby={`day-${group.dayOfWeek}`} className="flex-1 space-y-2">
                          {group.slots.map((slot) => (
                            <SlotRow
                              key={slot.id}
                              slot={slot}
                              busy={togglingId === slot.id || (remove.isPending && deleting?.id === slot.id)}
                              onToggle={(on) => toggle(slot, on)}
                              onDelete={() => setDeleting(slot)}
                            />
                          ))}
                        </ul>
                      )}
                    </div>
                  </Card>
                </li>
              ))}
            </ul>
          )}
        </div>
        <QuickTips timeZone={mentor.timeZone} />
      </div>

      <BuffersAndLimit mentor={mentor} />

      <DateOverrides mentorId={mentor.id} timeZone={mentor.timeZone} />

      <AddAvailabilityDialog open={adding} onOpenChange={setAdding} mentorId={mentor.id} timeZone={mentor.timeZone} />
      <SeveralDaysDialog
        open={addingMany}
        onOpenChange={setAddingMany}
        mentorId={mentor.id}
        timeZone={mentor.timeZone}
      />

      <Dialog
        open={!!deleting}
        onOpenChange={(open) => !open && !remove.isPending && setDeleting(null)}
        title="Delete Availability"
        description={deleting ? slotName(deleting) : undefined}
      >
        <p className="text-sm text-slate-700">{TEXT.confirmDeleteSlot}</p>
        <div className="mt-5 flex justify-end gap-3">
          <Button variant="outline" onClick={() => setDeleting(null)} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={confirmDelete} disabled={remove.isPending}>
            {remove.isPending ? 'Deleting...' : 'Delete'}
          </Button>
        </div>
      </Dialog>
    </section>
  );
}

type SlotRowProps = {
  slot: AvailabilitySlot;
  busy: boolean;
  onToggle: (isActive: boolean) => void;
  onDelete: () => void;
};

function SlotRow({ slot, busy, onToggle, onDelete }: SlotRowProps) {
  const name = slotName(slot);
  return (
    <li
      className={cn(
        'flex flex-wrap items-center justify-between gap-3 rounded-lg border px-3 py-2',
        slot.isActive ? 'border-indigo-100 bg-indigo-50/40' : 'border-slate-200 bg-slate-50',
      )}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className={cn('font-medium', slot.isActive ? 'text-slate-900' : 'text-slate-500')}>
          {windowLabel(slot)}
        </span>
        <span
          className={cn(
            'rounded-full px-2.5 py-0.5 text-xs font-medium',
            slot.isActive ? 'bg-emerald-50 text-emerald-700' : 'bg-slate-200 text-slate-600',
          )}
        >
          {slot.isActive ? 'Active' : 'Inactive'}
        </span>
      </div>
      <div className="flex items-center gap-2">
        <Switch checked={slot.isActive} disabled={busy} onCheckedChange={onToggle} aria-label={`Active: ${name}`} />
        <Button
          variant="ghost"
          size="icon"
          className="h-9 w-9 text-rose-600 hover:bg-rose-50 hover:text-rose-700"
          onClick={onDelete}
          disabled={busy}
          aria-label={`Delete ${name}`}
        >
          <Trash2 aria-hidden="true" className="h-4 w-4" />
        </Button>
      </div>
    </li>
  );
}

function QuickTips({ timeZone }: { timeZone: string }) {
  return (
    <aside aria-labelledby="tips-heading" className="h-fit rounded-2xl border border-amber-200 bg-amber-50/60 p-5">
      <h3 id="tips-heading" className="flex items-center gap-2 font-semibold text-amber-900">
        <Lightbulb aria-hidden="true" className="h-4 w-4" />
        Quick Tips
      </h3>
      <ul className="mt-3 list-disc space-y-2 pl-5 text-sm text-amber-900/90">
        <li>
          Times are in your time zone: <span className="font-medium">{timeZoneLabel(timeZone)}</span> (from your mentor
          profile). Seekers see them in their own.
        </li>
        <li>Sessions start every {AVAILABILITY_STEP_MINUTES} minutes inside a window and must end within it.</li>
        <li>Seekers can book up to {BOOKING_WINDOW_DAYS} days ahead.</li>
        <li>Switch a window off to pause it without deleting it.</li>
        <li>For a holiday or a one-off change, add a date override below instead of changing your week.</li>
      </ul>
    </aside>
  );
}

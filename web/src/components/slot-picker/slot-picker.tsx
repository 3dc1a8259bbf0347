import { CalendarX, CircleAlert, Clock, RefreshCw } from 'lucide-react';
import { useMemo, type CSSProperties } from 'react';
import { DayPicker } from 'react-day-picker';
import 'react-day-picker/style.css';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { formatDate } from '@/lib/format';
import { browserTimeZone } from '@/lib/time-zones';
import { cn } from '@/lib/utils';
import { useAvailableSlots } from './use-available-slots';
import { bookingWindow, isoDate, slotLabel } from './slot-time';
import { SLOT_PICKER_TEXT } from './texts';

export type SlotPickerProps = {
  mentorId: string;
  /** Minutes: every offered start leaves this much time inside the mentor's availability. */
  duration: number;
  date: Date | undefined;
  /** 'HH:MM' in `timeZone`. */
  time: string | undefined;
  onDateChange: (date: Date | undefined) => void;
  onTimeChange: (time: string | undefined) => void;
  /** The zone the times are shown in; the browser's by default. */
  timeZone?: string;
  disabled?: boolean;
  /** Rescheduling: the booking whose own time still counts as free. */
  excludeBooking?: string;
};

/**
 * A day's accessible name, e.g. 'Today, Friday, November 13, 2026, selected'. It holds the number
 * shown on the button as a word of its own (WCAG 2.5.3, label in name; the default says '13th').
 */
function dayButtonLabel(date: Date, modifiers: { today?: boolean; selected?: boolean }) {
  const day = date.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
  return `${modifiers.today ? 'Today, ' : ''}${day}${modifiers.selected ? ', selected' : ''}`;
}

const calendarStyle = {
  '--rdp-accent-color': 'var(--color-indigo-600)',
  '--rdp-accent-background-color': 'var(--color-indigo-50)',
  '--rdp-day-height': '40px',
  '--rdp-day-width': '40px',
  '--rdp-day_button-height': '38px',
  '--rdp-day_button-width': '38px',
} as CSSProperties;

/**
 * Slot picker: a calendar (today to 90 days ahead, past days disabled) and the mentor's free
 * start times that day as buttons in 12-hour format, in the viewer's zone
 * (GET /api/mentors/{mentorId}/available-slots?date&duration&timeZone).
 */
export function SlotPicker({
  mentorId,
  duration,
  date,
  time,
  onDateChange,
  onTimeChange,
  timeZone = browserTimeZone(),
  disabled = false,
  excludeBooking,
}: SlotPickerProps) {
  const { first, last } = useMemo(() => bookingWindow(), []);
  const params = date
    ? { date: isoDate(date), duration, timeZone, ...(excludeBooking ? { excludeBooking } : {}) }
    : undefined;
  const slots = useAvailableSlots(mentorId, params);

  return (
    <div className="grid gap-6 md:grid-cols-[auto_1fr]">
      <div>
        <h3 className="text-sm font-semibold text-slate-900">Select a date</h3>
        <div className="mt-2 inline-block rounded-xl border border-slate-200 bg-white p-2">
          <DayPicker
            mode="single"
            selected={date}
            onSelect={(day) => {
              onDateChange(day);
              onTimeChange(undefined);
            }}
            disabled={disabled ? true : [{ before: first }, { after: last }]}
            startMonth={first}
            endMonth={last}
            today={first}
            weekStartsOn={0}
            labels={{ labelDayButton: dayButtonLabel }}
            style={calendarStyle}
          />
        </div>
      </div>

      <div className="min-w-0">
        <h3 className="text-sm font-semibold text-slate-900">
          {date ? `Available times on ${formatDate(date)}` : 'Available times'}
        </h3>
        <p className="mt-1 flex items-center gap-1.5 text-xs text-slate-500">
          <Clock aria-hidden="true" className="h-3.5 w-3.5" />
          Times are shown in your time zone ({timeZone.replace(/_/g, ' ')}).
        </p>
        <div className="mt-3">
          {!date ? (
            <p className="rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500">
              Choose a date to see the times your mentor is free.
            </p>
          ) : slots.isLoading ? (
            <div className="flex justify-center py-6">
              <Spinner label="Loading available times" className="h-6 w-6 text-indigo-600" />
            </div>
          ) : slots.isError ? (
            <div role="alert" className="rounded-lg border border-rose-200 bg-rose-50 px-4 py-4 text-sm text-rose-800">
              <p className="flex items-center gap-2 font-medium">
                <CircleAlert aria-hidden="true" className="h-4 w-4 shrink-0" />
                {SLOT_PICKER_TEXT.slotsLoadFailed}
              </p>
              <Button
                variant="outline"
                size="sm"
                className="mt-3"
                onClick={() => void slots.refetch()}
                disabled={slots.isFetching}
              >
                <RefreshCw aria-hidden="true" className="h-4 w-4" />
                Try again
              </Button>
            </div>
          ) : !slots.data || slots.data.length === 0 ? (
            <div className="rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center">
              <CalendarX aria-hidden="true" className="mx-auto h-6 w-6 text-slate-400" />
              <p className="mt-2 text-sm font-medium text-slate-800">{SLOT_PICKER_TEXT.noAvailableTimes}</p>
              <p className="mt-1 text-sm text-slate-500">{SLOT_PICKER_TEXT.noAvailableTimesHint}</p>
            </div>
          ) : (
            <div role="group" aria-label="Available times" className="grid grid-cols-3 gap-2 sm:grid-cols-4">
              {slots.data.map((slot) => {
                const selected = slot === time;
                return (
                  <button
                    key={slot}
                    type="button"
                    aria-pressed={selected}
                    disabled={disabled}
                    onClick={() => onTimeChange(selected ? undefined : slot)}
                    className={cn(
                      'h-10 rounded-lg border text-sm font-medium transition-colors disabled:opacity-60',
                      selected
                        ? 'border-indigo-600 bg-indigo-600 text-white shadow-sm'
                        : 'border-slate-300 bg-white text-slate-700 hover:border-indigo-400 hover:bg-indigo-50',
                    )}
                  >
                    {slotLabel(slot)}
                  </button>
                );
              })}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

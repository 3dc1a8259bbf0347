import { addMonths, format, parseISO, startOfMonth } from 'date-fns';
import { CalendarX, CircleAlert, Clock, RefreshCw } from 'lucide-react';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { DayPicker, type Modifiers } from 'react-day-picker';
import 'react-day-picker/style.css';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { formatDate } from '@/lib/format';
import { browserTimeZone } from '@/lib/time-zones';
import { cn } from '@/lib/utils';
import { availableDaysQuery, useAvailableDays } from './use-available-days';
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
 * shown on the button as a word of its own (WCAG 2.5.3, label in name; the default says '13th'),
 * and says when the mentor has no free time that day.
 */
function dayButtonLabel(date: Date, modifiers: Modifiers) {
  const day = date.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
  const full = modifiers.full ? `, ${SLOT_PICKER_TEXT.dayFull}` : '';
  return `${modifiers.today ? 'Today, ' : ''}${day}${full}${modifiers.selected ? ', selected' : ''}`;
}

/**
 * The first free day of the window from the months' answers in order (undefined while a month
 * before it is not known yet, or when none has one).
 */
export function firstFreeDay(months: (string[] | undefined)[]): string | undefined {
  for (const days of months) {
    if (days === undefined) return undefined;
    if (days.length > 0) return days[0];
  }
  return undefined;
}

/** The calendar's month as the days call wants it: 'YYYY-MM'. */
function isoMonth(date: Date): string {
  return format(date, 'yyyy-MM');
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
 * Slot picker: a calendar (today to 90 days ahead) whose days without a free start are disabled
 * and marked (GET /api/mentors/{mentorId}/available-days?month, one request per visible month),
 * the first free day chosen when it opens, and the mentor's free start times that day in 12-hour
 * format in the viewer's zone (GET .../available-slots?date&duration&timeZone) as one radio group:
 * one Tab stop, the arrow keys move between times.
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
  const daysOf = (m: Date) => ({
    month: isoMonth(m),
    duration,
    timeZone,
    ...(excludeBooking ? { excludeBooking } : {}),
  });
  // The month shown: the one the person moved to, else the chosen day's, else the first free day's
  // while it is looked for, else this month.
  const [shownMonth, setShownMonth] = useState<Date | null>(null);
  // Until the person picks a day or moves the calendar, the first free day is chosen for them.
  const [autoPick, setAutoPick] = useState(date === undefined);
  const months = useMemo(() => {
    const list: Date[] = [];
    for (let m = startOfMonth(first); m <= last; m = addMonths(m, 1)) list.push(m);
    return list;
  }, [first, last]);
  // Looked for month by month: a month is asked for only once every month before it had no free day.
  const searching = autoPick && date === undefined && !disabled && !!mentorId;
  const queryClient = useQueryClient();
  let earlierFull = true;
  const search = useQueries({
    queries: months.map((m) => {
      const query = availableDaysQuery(mentorId, daysOf(m));
      const enabled = searching && earlierFull;
      earlierFull = earlierFull && queryClient.getQueryData(query.queryKey)?.days.length === 0;
      return { ...query, enabled };
    }),
  });
  const firstFree = searching ? firstFreeDay(search.map((r) => r.data?.days)) : undefined;
  const month = shownMonth ?? startOfMonth(date ?? (firstFree ? parseISO(firstFree) : first));
  const days = useAvailableDays(mentorId, daysOf(month));
  const free = useMemo(() => new Set(days.data?.days ?? []), [days.data]);
  const known = days.isSuccess;
  const isFull = (day: Date) => known && day >= first && day <= last && !free.has(isoDate(day));

  useEffect(() => {
    if (!firstFree) return;
    onDateChange(parseISO(firstFree));
    onTimeChange(undefined);
    // Once per day found; the callbacks are the parent's setters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstFree]);

  return (
    <div className="grid gap-6 md:grid-cols-[auto_1fr]">
      <div>
        <h3 className="text-sm font-semibold text-slate-900">Select a date</h3>
        <div className="mt-2 inline-block rounded-xl border border-slate-200 bg-white p-2">
          <DayPicker
            mode="single"
            // A chosen day stays chosen when pressed again: a time needs a day.
            required
            selected={date}
            onSelect={(day) => {
              setAutoPick(false);
              onDateChange(day);
              onTimeChange(undefined);
            }}
            month={month}
            onMonthChange={(m) => {
              setAutoPick(false);
              setShownMonth(m);
            }}
            disabled={disabled ? true : [{ before: first }, { after: last }, isFull]}
            modifiers={{ full: isFull, free: (day) => free.has(isoDate(day)) }}
            modifiersClassNames={{ full: 'slot-day-full', free: 'slot-day-free' }}
            startMonth={first}
            endMonth={last}
            today={first}
            weekStartsOn={0}
            labels={{ labelDayButton: dayButtonLabel }}
            style={calendarStyle}
          />
        </div>
        <p className="mt-2 flex items-center gap-3 text-xs text-slate-500" aria-live="polite">
          {days.isLoading ? (
            SLOT_PICKER_TEXT.daysLoading
          ) : days.isError ? (
            SLOT_PICKER_TEXT.daysFailed
          ) : (
            <>
              <span className="inline-flex items-center gap-1">
                <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-indigo-600" />
                {SLOT_PICKER_TEXT.legendFree}
              </span>
              <span className="inline-flex items-center gap-1">
                <span aria-hidden="true" className="text-slate-600 line-through">
                  12
                </span>
                {SLOT_PICKER_TEXT.legendFull}
              </span>
            </>
          )}
        </p>
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
            <TimeRadios slots={slots.data} time={time} disabled={disabled} onTimeChange={onTimeChange} />
          )}
        </div>
      </div>
    </div>
  );
}

/**
 * The day's times as one radio group (WAI-ARIA radio group): one Tab stop (the chosen time, else
 * the first), the arrow keys move to the previous or next time and choose it, Home and End the
 * first and last.
 */
function TimeRadios({
  slots,
  time,
  disabled,
  onTimeChange,
}: {
  slots: string[];
  time: string | undefined;
  disabled: boolean;
  onTimeChange: (time: string | undefined) => void;
}) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const chosen = time ? slots.indexOf(time) : -1;
  const tabStop = chosen >= 0 ? chosen : 0;
  const choose = (index: number) => {
    onTimeChange(slots[index]);
    refs.current[index]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const last = slots.length - 1;
    const to =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (to === null) return;
    event.preventDefault();
    choose(to);
  };
  return (
    <div role="radiogroup" aria-label="Available times" className="grid grid-cols-3 gap-2 sm:grid-cols-4">
      {slots.map((slot, index) => {
        const selected = slot === time;
        return (
          <button
            key={slot}
            ref={(el) => {
              refs.current[index] = el;
            }}
            type="button"
            role="radio"
            aria-checked={selected}
            tabIndex={index === tabStop ? 0 : -1}
            disabled={disabled}
            onClick={() => onTimeChange(slot)}
            onKeyDown={(e) => onKeyDown(e, index)}
            className={cn(
              'h-10 rounded-lg border text-sm font-medium transition-colors disabled:opacity-60',
              'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2',
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
  );
}

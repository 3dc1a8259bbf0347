import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, format, subDays } from 'date-fns';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { bookingWindow, isoDate, slotLabel } from './slot-time';
import { SlotPicker } from './slot-picker';

afterEach(() => vi.unstubAllGlobals());

const MENTOR = '0b7c9b52-4a7e-4f3b-9d55-1e2f3a4b5c6d';
const ZONE = 'America/New_York';

function slotsUrl(date: Date, duration = 45) {
  return `GET /api/mentors/${MENTOR}/available-slots?date=${isoDate(date)}&duration=${duration}&timeZone=America%2FNew_York`;
}

function daysUrl(month: Date, duration = 45) {
  return `GET /api/mentors/${MENTOR}/available-days?month=${format(month, 'yyyy-MM')}&duration=${duration}&timeZone=America%2FNew_York`;
}

function Harness({ onTime }: { onTime?: (t: string | undefined) => void }) {
  const [date, setDate] = useState<Date>();
  const [time, setTime] = useState<string>();
  return (
    <SlotPicker
      mentorId={MENTOR}
      duration={45}
      timeZone={ZONE}
      date={date}
      time={time}
      onDateChange={setDate}
      onTimeChange={(t) => {
        setTime(t);
        onTime?.(t);
      }}
    />
  );
}

function dayButton(date: Date) {
  return screen.getByRole('button', { name: new RegExp(format(date, 'EEEE, MMMM d, yyyy')) });
}

describe('slot times', () => {
  it('shows HH:MM starts in 12-hour format', () => {
    expect(slotLabel('00:00')).toBe('12:00 AM');
    expect(slotLabel('09:30')).toBe('9:30 AM');
    expect(slotLabel('12:00')).toBe('12:00 PM');
    expect(slotLabel('14:30')).toBe('2:30 PM');
    expect(slotLabel('23:30')).toBe('11:30 PM');
  });

  it('allows today to 90 days ahead', () => {
    const { first, last } = bookingWindow(new Date(2025, 2, 9, 15, 45));
    expect(first).toEqual(new Date(2025, 2, 9));
    expect(last).toEqual(new Date(2025, 5, 7));
  });
});

describe('SlotPicker', () => {
  it('disables past days, asks for the day in the viewer zone and shows the times in 12-hour format', async () => {
    const today = new Date();
    const onTime = vi.fn();
    const fetchMock = mockFetch({ [slotsUrl(today)]: () => jsonResponse(200, ['09:00', '13:30']) });
    renderWithProviders(<Harness onTime={onTime} />, { client: clientWithUser(testUser) });
    const user = userEvent.setup();

    expect(screen.getByText('Choose a date to see the times your mentor is free.')).toBeInTheDocument();
    // No day's times are asked for before a day is chosen (the month's free days are).
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/available-slots'))).toBe(false);
    // Yesterday is not selectable (when it is shown in this month's grid at all).
    const yesterday = screen.queryByRole('button', {
      name: new RegExp(format(subDays(today, 1), 'EEEE, MMMM d, yyyy')),
    });
    if (yesterday) expect(yesterday).toBeDisabled();

    await user.click(dayButton(today));
    const times = await screen.findByRole('radiogroup', { name: 'Available times' });
    expect(
      within(times)
        .getAllByRole('radio')
        .map((b) => b.textContent),
    ).toEqual(['9:00 AM', '1:30 PM']);
    expect(screen.getByText(/Times are shown in your time zone \(America\/New York\)/)).toBeInTheDocument();

    await user.click(within(times).getByRole('radio', { name: '1:30 PM' }));
    expect(within(times).getByRole('radio', { name: '1:30 PM' })).toHaveAttribute('aria-checked', 'true');
    expect(onTime).toHaveBeenLastCalledWith('13:30');
  });

  it("says 'No available times' with a suggestion when the day is full", async () => {
    const today = new Date();
    mockFetch({ [slotsUrl(today)]: () => jsonResponse(200, []) });
    renderWithProviders(<Harness />, { client: clientWithUser(testUser) });
    await userEvent.setup().click(dayButton(today));
    expect(await screen.findByText('No available times')).toBeInTheDocument();
    expect(screen.getByText('Please select another date or contact the mentor.')).toBeInTheDocument();
  });

  it("says 'Failed to load available times' when the call fails, and can try again", async () => {
    const today = new Date();
    let fail = true;
    mockFetch({
      [slotsUrl(today)]: () =>
        fail ? new Response('', { status: 500, statusText: 'Internal Server Error' }) : jsonResponse(200, ['10:00']),
    });
    renderWithProviders(<Harness />, { client: clientWithUser(testUser) });
    const user = userEvent.setup();
    await user.click(dayButton(today));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load available times');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('radio', { name: '10:00 AM' })).toBeInTheDocument();
  });

  it('does not offer days beyond the 90-day window', async () => {
    mockFetch();
    renderWithProviders(<Harness />, { client: clientWithUser(testUser) });
    const user = userEvent.setup();
    const last = bookingWindow().last;
    // Walk to the last month of the window: the next-month button then stops.
    for (let i = 0; i < 4; i += 1) {
      const next = screen.getByRole('button', { name: /next month/i });
      if (next.getAttribute('aria-disabled') === 'true') break;
      await user.click(next);
    }
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /next month/i })).toHaveAttribute('aria-disabled', 'true'),
    );
    expect(dayButton(last)).toBeEnabled();
    const after = screen.queryByRole('button', { name: new RegExp(format(addDays(last, 1), 'EEEE, MMMM d, yyyy')) });
    if (after) expect(after).toBeDisabled();
  });

  it('disables and marks the days without a free time, and chooses the first free day on open', async () => {
    const { first, last } = bookingWindow();
    // The first free day is the last day of the window: every month before has none, so the
    // calendar moves on by itself, one request per month.
    const fetchMock = mockFetch({
      [slotsUrl(last)]: () => jsonResponse(200, ['10:00']),
    });
    fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
      const url = `GET ${String(input)}`;
      if (url === slotsUrl(last)) return jsonResponse(200, ['10:00']);
      if (url === daysUrl(last)) return jsonResponse(200, { days: [isoDate(last)] });
      if (url.includes('/available-days?')) return jsonResponse(200, { days: [] });
      return jsonResponse(404, { message: 'Not found' });
    });
    renderWithProviders(<Harness />, { client: clientWithUser(testUser) });
    const times = await screen.findByRole('radiogroup', { name: 'Available times' }, { timeout: 5_000 });
    expect(within(times).getByRole('radio', { name: '10:00 AM' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: new RegExp(format(last, 'MMM dd, yyyy')) })).toBeInTheDocument();
    expect(dayButton(last)).toHaveAccessibleName(/selected$/);
    // Another day of that month is disabled and says why.
    if (last.getDate() > 1 && last > first) {
      const other =
        new Date(last.getFullYear(), last.getMonth(), 1) < first
          ? first
          : new Date(last.getFullYear(), last.getMonth(), 1);
      if (isoDate(other) !== isoDate(last)) {
        expect(dayButton(other)).toBeDisabled();
        expect(dayButton(other)).toHaveAccessibleName(/no free times/);
      }
    }
    const asked = fetchMock.mock.calls.map(([u]) => String(u)).filter((u) => u.includes('/available-days?'));
    expect(new Set(asked).size).toBe(asked.length);
    expect(asked.at(-1)).toBe(daysUrl(last).replace('GET ', ''));
  });

  it('is one radio group: one Tab stop, the arrow keys move between the times and choose', async () => {
    const today = new Date();
    const onTime = vi.fn();
    mockFetch({
      [daysUrl(today)]: () => jsonResponse(200, { days: [isoDate(today)] }),
      [slotsUrl(today)]: () => jsonResponse(200, ['09:00', '09:30', '10:00']),
    });
    renderWithProviders(
      <>
        <button type="button">before</button>
        <Harness onTime={onTime} />
        <button type="button">after</button>
      </>,
      { client: clientWithUser(testUser) },
    );
    const user = userEvent.setup();
    const times = await screen.findByRole('radiogroup', { name: 'Available times' });
    const radios = within(times).getAllByRole('radio');
    expect(radios.map((r) => r.getAttribute('tabindex'))).toEqual(['0', '-1', '-1']);
    radios[0].focus();
    await user.keyboard('{ArrowRight}');
    expect(within(times).getByRole('radio', { name: '9:30 AM' })).toHaveFocus();
    expect(within(times).getByRole('radio', { name: '9:30 AM' })).toHaveAttribute('aria-checked', 'true');
    expect(onTime).toHaveBeenLastCalledWith('09:30');
    await user.keyboard('{ArrowDown}');
    expect(onTime).toHaveBeenLastCalledWith('10:00');
    await user.keyboard('{ArrowRight}');
    expect(onTime).toHaveBeenLastCalledWith('09:00');
    await user.keyboard('{ArrowLeft}');
    expect(onTime).toHaveBeenLastCalledWith('10:00');
    await user.keyboard('{Home}');
    expect(onTime).toHaveBeenLastCalledWith('09:00');
    // The chosen time is the group's one Tab stop: Tab leaves the group.
    expect(
      within(times)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('tabindex')),
    ).toEqual(['0', '-1', '-1']);
    await user.tab();
    expect(screen.getByRole('button', { name: 'after' })).toHaveFocus();
  });
});

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
    expect(fetchMock).not.toHaveBeenCalled();
    // Yesterday is not selectable (when it is shown in this month's grid at all).
    const yesterday = screen.queryByRole('button', {
      name: new RegExp(format(subDays(today, 1), 'EEEE, MMMM d, yyyy')),
    });
    if (yesterday) expect(yesterday).toBeDisabled();

    await user.click(dayButton(today));
    const times = await screen.findByRole('group', { name: 'Available times' });
    expect(
      within(times)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['9:00 AM', '1:30 PM']);
    expect(screen.getByText(/Times are shown in your time zone \(America\/New York\)/)).toBeInTheDocument();

    await user.click(within(times).getByRole('button', { name: '1:30 PM' }));
    expect(within(times).getByRole('button', { name: '1:30 PM' })).toHaveAttribute('aria-pressed', 'true');
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
    expect(await screen.findByRole('button', { name: '10:00 AM' })).toBeInTheDocument();
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
});

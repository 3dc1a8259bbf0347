import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InstantSessionView } from '@/api/model';
import { RealtimeProvider } from '@/lib/realtime';
import { FakeSocket } from '@/testing/fake-socket';
import { clientWithUser, jsonResponse, mockFetch, testUser } from '@/testing/test-utils';
import { clock, meter } from './meter';
import { ActiveReadingMeter } from './reading-meter';

const START = Date.parse('2026-11-28T12:00:00Z');

function reading(overrides: Partial<InstantSessionView> = {}): InstantSessionView {
  return {
    id: 'r1',
    status: 'active',
    mode: 'chat',
    mentorId: 'm1',
    seekerId: testUser.id,
    perMinuteRate: '2.00',
    freeMinutes: 3,
    expiresAt: '2026-11-28T12:01:00Z',
    startedAt: '2026-11-28T12:00:00Z',
    minutesBilled: 0,
    amountCharged: '0.00',
    conversationId: 'c1',
    createdAt: '2026-11-28T11:59:30Z',
    ...overrides,
  };
}

function renderAt(path: string, view: InstantSessionView) {
  mockFetch({
    'GET /api/instant-sessions/r1': () => jsonResponse(200, view),
    'GET /api/wallet': () => jsonResponse(200, { balance: '12.50', entries: [], total: 0 }),
  });
  render(
    <QueryClientProvider client={clientWithUser(testUser)}>
      <RealtimeProvider>
        <MemoryRouter initialEntries={[path]}>
          <ActiveReadingMeter />
        </MemoryRouter>
      </RealtimeProvider>
    </QueryClientProvider>,
  );
  act(() => FakeSocket.last.open());
}

beforeEach(() => {
  FakeSocket.install();
  vi.useFakeTimers({ shouldAdvanceTime: true, now: START + 4 * 60_000 + 5_000 });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the meter', () => {
  it('counts every started minute, the free ones first', () => {
    const r = reading();
    expect(meter(r, START)).toEqual({ elapsedSeconds: 0, cost: 0, freeLeft: 3 });
    expect(meter(r, START + 2 * 60_000 + 59_000)).toEqual({ elapsedSeconds: 179, cost: 0, freeLeft: 1 });
    expect(meter(r, START + 3 * 60_000)).toEqual({ elapsedSeconds: 180, cost: 2, freeLeft: 0 });
    expect(meter(reading({ freeMinutes: 0 }), START)).toEqual({ elapsedSeconds: 0, cost: 2, freeLeft: 0 });
    expect(clock(245)).toBe('4:05');
  });

  it('shows over the chat of an active reading: elapsed, cost so far, balance, free minutes left', async () => {
    renderAt('/messages?conversation=c1&reading=r1', reading());
    const bar = await screen.findByRole('complementary', { name: 'Reading meter' });
    expect(within(bar).getByText('4:05')).toBeInTheDocument();
    expect(within(bar).getByText('$4.00')).toBeInTheDocument();
    expect(await within(bar).findByText('$12.50')).toBeInTheDocument();
    expect(bar).toHaveTextContent('Free minutes left0');
  });

  it('warns the seeker when the balance runs low and offers a top-up in place', async () => {
    renderAt('/messages?conversation=c1&reading=r1', reading());
    await screen.findByRole('complementary', { name: 'Reading meter' });
    act(() =>
      FakeSocket.last.receive('balanceLow', {
        instantSessionId: 'r1',
        balance: '1.00',
        perMinuteRate: '2.00',
        endsAt: '2026-11-28T12:06:00Z',
      }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Your balance is running low');
    expect(screen.getByRole('form', { name: 'Top up' })).toBeInTheDocument();
  });

  it('stays away once the reading has ended', async () => {
    renderAt('/messages?conversation=c1&reading=r1', reading({ status: 'ended', endedAt: '2026-11-28T12:04:00Z' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(50);
    });
    expect(screen.queryByRole('complementary', { name: 'Reading meter' })).not.toBeInTheDocument();
  });

  it('hides the balance from the mentor, whose wallet the reading does not touch', async () => {
    renderAt('/messages?conversation=c1&reading=r1', reading({ seekerId: 'someone-else' }));
    const bar = await screen.findByRole('complementary', { name: 'Reading meter' });
    expect(within(bar).queryByText('Balance')).not.toBeInTheDocument();
  });
});

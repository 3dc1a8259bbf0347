import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CalendarConnectionView } from '@/api/model';
import { jsonResponse, mockFetch, renderWithProviders } from '@/testing/test-utils';
import { CalendarAttentionBanner, CalendarTab } from './calendar-tab';

beforeEach(() => {
  // Radix's Switch measures itself; jsdom has no ResizeObserver.
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  vi.spyOn(toast, 'success').mockImplementation(() => 1);
  vi.spyOn(toast, 'error').mockImplementation(() => 1);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const WORK = '11111111-1111-4111-8111-111111111111';
const HOME = '22222222-2222-4222-8222-222222222222';

function connected(overrides: Partial<CalendarConnectionView> = {}): CalendarConnectionView {
  return {
    state: 'ok',
    url: 'https://caldav.example/',
    username: 'luna',
    lastSyncedAt: '2026-11-28T10:00:00Z',
    error: null,
    failingSince: null,
    needsAttention: false,
    calendars: [
      { id: WORK, name: 'Work', blocksSlots: true, receivesBookings: true, writable: true },
      { id: HOME, name: 'Home', blocksSlots: true, receivesBookings: false, writable: true },
    ],
    ...overrides,
  };
}

describe('Calendar tab', () => {
  it('connects a calendar and shows its calendars, state and the server refusal', async () => {
    let attempts = 0;
    const fetchMock = mockFetch({
      'GET /api/mentor/calendar-connection': () =>
        jsonResponse(404, { code: 'not_found', message: 'No calendar is connected' }),
      'PUT /api/mentor/calendar-connection': () => {
        attempts += 1;
        return attempts === 1
          ? jsonResponse(400, { code: 'validation', message: 'The calendar server refused these credentials.' })
          : jsonResponse(200, connected());
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<CalendarTab />);
    await user.type(await screen.findByLabelText('CalDAV Address'), 'https://caldav.example/');
    await user.type(screen.getByLabelText('User Name'), 'luna');
    await user.type(screen.getByLabelText('App Password'), 'app-password');
    await user.click(screen.getByRole('button', { name: 'Connect Calendar' }));
    expect(await screen.findByText('The calendar server refused these credentials.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Connect Calendar' }));
    expect(await screen.findByText('Work')).toBeInTheDocument();
    expect(screen.getByTestId('calendar-state')).toHaveTextContent('Connected');
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({
      url: 'https://caldav.example/',
      username: 'luna',
      password: 'app-password',
    });
  });

  it('switches a calendar, syncs now and shows a failing connection', async () => {
    const fetchMock = mockFetch({
      'GET /api/mentor/calendar-connection': () =>
        jsonResponse(200, connected({ state: 'failing', error: 'The calendar server could not be reached.' })),
      [`PATCH /api/mentor/calendar-connection/calendars/${HOME}`]: () => jsonResponse(200, connected()),
      'POST /api/mentor/calendar-connection/sync': () => jsonResponse(202, connected({ state: 'syncing' })),
    });
    const user = userEvent.setup();
    renderWithProviders(<CalendarTab />);
    expect(await screen.findByText(/could not be reached/)).toBeInTheDocument();
    expect(screen.getByTestId('calendar-state')).toHaveTextContent('Failing');
    const blocks = screen.getAllByRole('switch', { name: 'Blocks slots' });
    await user.click(blocks[1]);
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url, init]) => init?.method === 'PATCH' && String(url).includes(HOME))).toBe(
        true,
      ),
    );
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ blocksSlots: false });
    await user.click(screen.getByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(screen.getByTestId('calendar-state')).toHaveTextContent('Syncing...'));
  });

  it('flags a connection failing for a day above the tabs', async () => {
    mockFetch({
      'GET /api/mentor/calendar-connection': () =>
        jsonResponse(
          200,
          connected({ state: 'failing', needsAttention: true, error: 'The calendar server could not be reached.' }),
        ),
    });
    const open = vi.fn();
    renderWithProviders(<CalendarAttentionBanner onOpen={open} />);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Open Calendar' }));
    expect(open).toHaveBeenCalled();
  });
});

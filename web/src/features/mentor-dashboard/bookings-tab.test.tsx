import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BookingView, GroupSessionView } from '@/api/model';
import { formatDate, formatTime } from '@/lib/format';
import { MENTOR_ID } from '@/testing/catalogue-fixtures';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { BookingsTab, groupEntryLabel, mentorBookingLabel } from './bookings-tab';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const MINUTE = 60_000;
const GROUP_ID = 'g-1';
const startedAt = new Date(Date.now() - 10 * MINUTE).toISOString();

function booking(id: string, overrides: Partial<BookingView> = {}): BookingView {
  return {
    id,
    status: 'confirmed',
    scheduledAt: startedAt,
    duration: 60,
    totalAmount: '20.00',
    createdAt: '2026-01-01T00:00:00Z',
    hasReview: false,
    refunds: [],
    refundedAmount: '0.00',
    service: { id: 's-g', title: 'Full moon circle', duration: 60, serviceType: 'meditation' },
    user: { id: `u-${id}`, firstName: 'Seeker', lastName: id },
    mentor: { id: MENTOR_ID, userId: 'u-m', displayName: 'Luna Starweaver' },
    ...overrides,
  } as BookingView;
}

const seat = (id: string, overrides: Partial<BookingView> = {}) =>
  booking(id, { groupSessionId: GROUP_ID, ...overrides });

const SESSION = {
  id: GROUP_ID,
  title: 'Full moon meditation circle',
  status: 'scheduled',
  scheduledAt: startedAt,
  maxParticipants: 4,
  currentParticipants: 3,
} as GroupSessionView;

function setup(bookings: BookingView[], sessions: GroupSessionView[] = [SESSION]) {
  mockFetch({
    'GET /api/mentor/bookings': () => jsonResponse(200, bookings),
    'GET /api/mentor/group-sessions': () => jsonResponse(200, sessions),
  });
  renderWithProviders(<BookingsTab />, { client: clientWithUser(testUser), path: '/mentor-dashboard' });
}

describe('Bookings tab: group sessions and sessions in progress', () => {
  it('shows one entry per group session (title, time, seats taken/max) leading to its call, not one per seat', async () => {
    const seats = [seat('a'), seat('b'), seat('c'), seat('d', { status: 'cancelled' })];
    const oneToOne = booking('solo', {
      service: { id: 's-1', title: 'Tarot Reading', duration: 60, serviceType: 'tarot' },
    });
    setup([...seats, oneToOne]);

    const group = await screen.findByRole('article', { name: groupEntryLabel(SESSION) });
    const list = screen.getByRole('list', { name: 'Bookings' });
    expect(within(list).getAllByRole('article')).toHaveLength(2);
    expect(within(group).getByRole('heading', { name: 'Full moon meditation circle' })).toBeInTheDocument();
    expect(group).toHaveTextContent(formatDate(startedAt));
    expect(group).toHaveTextContent(formatTime(startedAt));
    expect(group).toHaveTextContent('3/4 seats taken');
    expect(group).toHaveTextContent('Happening now');
    expect(within(group).getByRole('link', { name: /Open Group Call/ })).toHaveAttribute(
      'href',
      `/group-video-call/${GROUP_ID}`,
    );
    expect(within(group).queryByRole('link', { name: /Start Video Session/ })).not.toBeInTheDocument();
    for (const s of seats) {
      expect(screen.queryByRole('article', { name: mentorBookingLabel(s) })).not.toBeInTheDocument();
    }

    // The one-to-one session in progress stays with the current bookings, with its join button.
    const solo = screen.getByRole('article', { name: mentorBookingLabel(oneToOne) });
    expect(solo).toHaveTextContent('Happening now');
    expect(within(solo).getByRole('link', { name: /Start Video Session/ })).toHaveAttribute(
      'href',
      `/messages?user=u-solo&booking=solo&startCall=true`,
    );
    const filters = screen.getByRole('group', { name: 'Show bookings' });
    expect(within(filters).getByRole('button', { name: /Upcoming/ })).toHaveTextContent('2');
  });

  it('groups the seats by their service while the group sessions are unknown', async () => {
    setup([seat('a'), seat('b')], []);
    const group = await screen.findByRole('article', {
      name: groupEntryLabel({ title: 'Full moon circle', scheduledAt: startedAt }),
    });
    expect(group).toHaveTextContent('2 seats taken');
    expect(within(screen.getByRole('list', { name: 'Bookings' })).getAllByRole('article')).toHaveLength(1);
  });

  it('offers the call only once the group session has started', async () => {
    const soon = new Date(Date.now() + 10 * MINUTE).toISOString();
    setup([seat('a', { scheduledAt: soon })], [{ ...SESSION, scheduledAt: soon }]);
    const group = await screen.findByRole('article', { name: groupEntryLabel({ ...SESSION, scheduledAt: soon }) });
    expect(group).not.toHaveTextContent('Happening now');
    expect(within(group).queryByRole('link', { name: /Open Group Call/ })).not.toBeInTheDocument();
  });

  it('shows a finished group session under Past, without the call', async () => {
    const long = new Date(Date.now() - 3 * 60 * MINUTE).toISOString();
    setup(
      [seat('a', { scheduledAt: long, status: 'completed' })],
      [{ ...SESSION, scheduledAt: long, status: 'completed' }],
    );
    const group = await screen.findByRole('article', { name: groupEntryLabel({ ...SESSION, scheduledAt: long }) });
    expect(group).toHaveTextContent('Completed');
    expect(group).not.toHaveTextContent('Happening now');
    expect(within(group).queryByRole('link', { name: /Open Group Call/ })).not.toBeInTheDocument();
  });
});

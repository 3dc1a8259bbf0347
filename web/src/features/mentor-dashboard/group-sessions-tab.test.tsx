import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GroupSessionView } from '@/api/model';
import * as navigation from '@/lib/navigation';
import { mentor, MENTOR_ID, service } from '@/testing/catalogue-fixtures';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { GroupSessionsTab } from './group-sessions-tab';

const GROUP_ID = '11111111-2222-4333-8444-555555555555';

beforeEach(() => {
  vi.spyOn(toast, 'success').mockImplementation(() => 1);
  vi.spyOn(toast, 'error').mockImplementation(() => 1);
  vi.spyOn(navigation, 'hardNavigate').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

function session(over: Partial<GroupSessionView> = {}): GroupSessionView {
  return {
    id: 'g1',
    title: 'Full Moon Circle',
    description: null,
    status: 'scheduled',
    scheduledAt: inMinutes(48 * 60),
    endsAt: inMinutes(49 * 60),
    maxParticipants: 4,
    currentParticipants: 2,
    isUserBooked: false,
    isUserRemoved: false,
    isLive: false,
    userRemoval: null,
    service: {
      id: GROUP_ID,
      title: 'New Moon Circle',
      duration: 60,
      price: '25.00',
      serviceType: 'tarot',
      mentor: { id: MENTOR_ID, userId: 'u' },
    },
    mentor: {
      id: MENTOR_ID,
      userId: 'u',
      displayName: 'Luna',
      profileImageUrl: null,
      rating: '5.00',
      totalSessions: 1,
    },
    participants: [],
    ...over,
  };
}

const withGroupService = mentor({
  services: [service(), service({ id: GROUP_ID, title: 'New Moon Circle', isGroupSession: true, maxParticipants: 8 })],
});

describe('Group Sessions tab', () => {
  it("says 'No group sessions scheduled' and validates Create Group Session before sending it", async () => {
    const fetch = mockFetch({
      'GET /api/mentor/group-sessions': () => jsonResponse(200, []),
      'POST /api/group-sessions': () => jsonResponse(201, session()),
    });
    renderWithProviders(<GroupSessionsTab mentor={withGroupService} />, { client: clientWithUser(testUser) });
    expect(await screen.findByRole('heading', { name: 'No group sessions scheduled' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Group Sessions' })).toHaveAttribute('href', '/group-sessions');
    expect(screen.queryByText(/from \/group-sessions/)).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Create Group Session' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Group Session' });
    // Only active group services can be chosen.
    const options = within(within(dialog).getByLabelText('Service'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual(['Select a group service', 'New Moon Circle (60 min)']);
    expect(within(dialog).getByLabelText('Max Participants')).toHaveValue(4);
    // The date and time are read in the browser's zone, and the form says which.
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(within(dialog).getByText(`In your time zone (${zone})`)).toBeInTheDocument();
    // The mentor's only group service is chosen already.
    expect(within(dialog).getByLabelText('Service')).toHaveValue(GROUP_ID);
    await user.click(within(dialog).getByRole('button', { name: 'Create Session' }));
    expect(within(dialog).queryByText('Please select a service')).not.toBeInTheDocument();
    expect(within(dialog).getByText('Title is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Please select a date and time')).toBeInTheDocument();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await user.selectOptions(within(dialog).getByLabelText('Service'), GROUP_ID);
    await user.type(within(dialog).getByLabelText('Title'), 'Full Moon Circle');
    const at = new Date(Date.now() + 2 * 86_400_000);
    const local = `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}T18:00`;
    await user.type(within(dialog).getByLabelText('Date and Time'), local);
    await user.clear(within(dialog).getByLabelText('Max Participants'));
    await user.type(within(dialog).getByLabelText('Max Participants'), '21');
    await user.click(within(dialog).getByRole('button', { name: 'Create Session' }));
    expect(within(dialog).getByText('Max participants must be between 2 and 20')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Max Participants'));
    await user.type(within(dialog).getByLabelText('Max Participants'), '6');
    await user.click(within(dialog).getByRole('button', { name: 'Create Session' }));
    await vi.waitFor(() => expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true));
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]!.body))).toEqual({
      serviceId: GROUP_ID,
      title: 'Full Moon Circle',
      description: '',
      scheduledAt: new Date(local).toISOString(),
      maxParticipants: 6,
    });
  });

  it('offers the actions of each state', async () => {
    mockFetch({
      'GET /api/mentor/group-sessions': () =>
        jsonResponse(200, [
          session({ id: 'a', title: 'Ahead' }),
          session({ id: 'e', title: 'Opening soon', scheduledAt: inMinutes(10), endsAt: inMinutes(70) }),
          session({ id: 'b', title: 'In its window', scheduledAt: inMinutes(-5), endsAt: inMinutes(55) }),
          session({ id: 'c', title: 'Running', status: 'active', scheduledAt: inMinutes(-5), endsAt: inMinutes(55) }),
          session({
            id: 'd',
            title: 'Done',
            status: 'completed',
            scheduledAt: inMinutes(-120),
            endsAt: inMinutes(-60),
          }),
        ]),
    });
    renderWithProviders(<GroupSessionsTab mentor={withGroupService} />, { client: clientWithUser(testUser) });
    const list = await screen.findByRole('list', { name: 'Your group sessions' });
    const buttons = (title: string) =>
      within(within(list).getByRole('heading', { name: title }).closest('li')!)
        .queryAllByRole('button')
        .map((b) => b.textContent);
    expect(buttons('Ahead')).toEqual(['Cancel Session']);
    // The room opens 15 minutes early: the mentor may start then, or still cancel.
    expect(buttons('Opening soon')).toEqual(['Start Group Session', 'Cancel Session']);
    expect(buttons('In its window')).toEqual(['Start Group Session']);
    expect(buttons('Running')).toEqual(['Join Active Session', 'End Session']);
    expect(buttons('Done')).toEqual([]);
    await userEvent.setup().click(
      within(within(list).getByRole('heading', { name: 'Running' }).closest('li')!).getByRole('button', {
        name: 'Join Active Session',
      }),
    );
    expect(navigation.hardNavigate).toHaveBeenCalledWith('/group-video-call/c');
  });

  it('leaves the choice to a mentor with several group services', async () => {
    mockFetch({ 'GET /api/mentor/group-sessions': () => jsonResponse(200, []) });
    const two = mentor({
      services: [
        service({ id: GROUP_ID, title: 'New Moon Circle', isGroupSession: true, maxParticipants: 8 }),
        service({ id: 'second-group', title: 'Full Moon Circle', isGroupSession: true, maxParticipants: 8 }),
      ],
    });
    renderWithProviders(<GroupSessionsTab mentor={two} />, { client: clientWithUser(testUser) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Create Group Session' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Group Session' });
    expect(within(dialog).getByLabelText('Service')).toHaveValue('');
    await user.click(within(dialog).getByRole('button', { name: 'Create Session' }));
    expect(within(dialog).getByText('Please select a service')).toBeInTheDocument();
  });
});

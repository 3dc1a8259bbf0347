import { describe, expect, it } from 'vitest';
import type { GroupSessionView } from '@/api/model';
import {
  bookPath,
  cardState,
  isCallOpen,
  mentorActions,
  seekerButton,
  spotsText,
  validateGroupSession,
} from './group-sessions';

const START = new Date('2026-12-01T18:00:00Z');
const END = new Date('2026-12-01T19:00:00Z');
const before = new Date(START.getTime() - 60 * 60_000);
/** The call opens 15 minutes early: its first moment, and one before it. */
const opens = new Date(START.getTime() - 15 * 60_000);
const notYet = new Date(opens.getTime() - 1);
const during = new Date(START.getTime() + 60_000);
const after = new Date(END.getTime() + 1);

function session(over: Partial<GroupSessionView> = {}): GroupSessionView {
  return {
    id: 's1',
    title: 'Full moon circle',
    description: null,
    status: 'scheduled',
    scheduledAt: START.toISOString(),
    endsAt: END.toISOString(),
    maxParticipants: 4,
    currentParticipants: 1,
    isUserBooked: false,
    isUserRemoved: false,
    isLive: false,
    userRemoval: null,
    service: {
      id: 'sv',
      title: 'Circle',
      duration: 60,
      price: '25.00',
      serviceType: 'energy_healing',
      mentor: { id: 'm', userId: 'u' },
    },
    mentor: { id: 'm', userId: 'u', displayName: 'Mira', profileImageUrl: null, rating: '4.50', totalSessions: 3 },
    participants: [],
    ...over,
  };
}

describe('group session rules', () => {
  it('shows a card upcoming, then live, then ended', () => {
    expect(cardState(session(), before)).toBe('upcoming');
    expect(cardState(session(), during)).toBe('live');
    expect(cardState(session({ status: 'active' }), during)).toBe('live');
    expect(cardState(session(), after)).toBe('ended');
    expect(cardState(session({ status: 'cancelled' }), before)).toBe('ended');
  });

  it('counts spots left', () => {
    expect(spotsText(session())).toBe('3 spots left');
    expect(spotsText(session({ currentParticipants: 3 }))).toBe('1 spot left');
    expect(spotsText(session({ currentParticipants: 4 }))).toBe('Full');
  });

  it('offers a removed participant no way into the call, live or not, refunded or not', () => {
    for (const at of [before, during, after]) {
      for (const isUserBooked of [true, false]) {
        expect(seekerButton(session({ isUserBooked, isUserRemoved: true }), at)).toEqual({
          kind: 'removed',
          label: 'You were removed from this session by the mentor.',
        });
      }
    }
  });

  it('picks the seeker button by state', () => {
    expect(seekerButton(session(), before)).toEqual({ kind: 'join', label: 'Join Session' });
    expect(seekerButton(session({ currentParticipants: 4 }), before).label).toBe('Session Full');
    expect(seekerButton(session(), during).label).toBe('Session Ended');
    expect(seekerButton(session({ isUserBooked: true }), during)).toEqual({
      kind: 'join-call',
      label: 'Join Video Call',
      href: '/group-video-call/s1',
    });
    expect(seekerButton(session({ isUserBooked: true }), before).label).toMatch(
      /^Session Starts \d{1,2}:\d{2} (AM|PM)$/,
    );
    expect(seekerButton(session({ isUserBooked: true, status: 'completed' }), after).label).toBe('Session Completed');
  });

  it('opens the call 15 minutes before the start, for the booked seeker and the mentor', () => {
    expect(isCallOpen(session(), notYet)).toBe(false);
    expect(isCallOpen(session(), opens)).toBe(true);
    expect(isCallOpen(session(), during)).toBe(true);
    expect(isCallOpen(session(), END)).toBe(false);
    expect(isCallOpen(session({ status: 'completed' }), during)).toBe(false);
    expect(seekerButton(session({ isUserBooked: true }), notYet).label).toMatch(/^Session Starts /);
    expect(seekerButton(session({ isUserBooked: true }), opens)).toEqual({
      kind: 'join-call',
      label: 'Join Video Call',
      href: '/group-video-call/s1',
    });
    expect(seekerButton(session(), opens)).toEqual({ kind: 'join', label: 'Join Session' });
    expect(mentorActions(session(), notYet)).toEqual(['cancel']);
    expect(mentorActions(session(), opens)).toEqual(['start', 'cancel']);
  });

  it('gives the mentor the actions of each state', () => {
    expect(mentorActions(session(), before)).toEqual(['cancel']);
    expect(mentorActions(session(), during)).toEqual(['start']);
    expect(mentorActions(session({ status: 'active' }), during)).toEqual(['join-active', 'end']);
    expect(mentorActions(session({ status: 'completed' }), after)).toEqual([]);
    expect(mentorActions(session({ status: 'cancelled' }), before)).toEqual([]);
  });

  it('validates the Create Group Session form', () => {
    const now = new Date('2026-11-30T12:00:00Z');
    const ok = {
      serviceId: 'sv',
      title: 'Circle',
      description: '',
      scheduledAt: '2026-12-01T18:00',
      maxParticipants: '4',
    };
    expect(validateGroupSession(ok, now)).toEqual({});
    expect(validateGroupSession({ ...ok, serviceId: '', title: ' ', scheduledAt: '' }, now)).toEqual({
      serviceId: 'Please select a service',
      title: 'Title is required',
      scheduledAt: 'Please select a date and time',
    });
    expect(validateGroupSession({ ...ok, scheduledAt: '2026-11-01T10:00' }, now).scheduledAt).toBe(
      'The session must be scheduled in the future',
    );
    expect(validateGroupSession({ ...ok, scheduledAt: '2027-03-30T10:00' }, now).scheduledAt).toBe(
      'The session must be scheduled within the next 90 days',
    );
    for (const bad of ['1', '21', '', '2.5']) {
      expect(validateGroupSession({ ...ok, maxParticipants: bad }, now).maxParticipants).toBe(
        'Max participants must be between 2 and 20',
      );
    }
    expect(validateGroupSession({ ...ok, maxParticipants: '2' }, now)).toEqual({});
    expect(validateGroupSession({ ...ok, maxParticipants: '20' }, now)).toEqual({});
  });

  it("sends a group service to its mentor's sessions", () => {
    expect(bookPath({ id: 'a', isGroupSession: true }, 'm1')).toBe('/group-sessions?mentor=m1');
    expect(bookPath({ id: 'a', isGroupSession: false }, 'm1')).toBe('/booking/a');
  });
});

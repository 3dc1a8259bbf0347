/**
 * Group sessions' rules as the screens use them (spec 02: group session status, card display,
 * buttons by state, Create Group Session validation), kept free of React so they are unit-tested.
 */
import { format } from 'date-fns';
import type { GroupSessionView } from '@/api/model';
import { BOOKING_WINDOW_DAYS, VIDEO_JOIN_EARLY_MINUTES } from '@/config/constants';

/** Group size 2 to 20; the Create Group Session dialog starts at 4. */
export const GROUP_SESSION_SIZE = { min: 2, max: 20, default: 4 } as const;
/** The /group-sessions page shows this many skeleton cards while loading. */
export const GROUP_SESSION_SKELETON_COUNT = 6;
/** A paid seat is held this long while the seeker pays. */
export const GROUP_SEAT_HOLD_MINUTES = 60;

export const GROUP_SESSION_TEXT = {
  loadFailedTitle: 'Unable to Load Group Sessions',
  loadFailed: 'Failed to load group session',
  emptyTitle: 'No Upcoming Group Sessions',
  mentorEmpty: 'No group sessions scheduled',
  fetchFailed: 'Failed to fetch group sessions',
  createFailed: 'Failed to create group session',
  updateFailed: 'Failed to update group session',
  joinFailed: 'Failed to join group session',
  sessionFull: 'Session Full - This group session is already at capacity.',
  joinedFreeTitle: 'Joined Free Group Session!',
  paymentSuccessTitle: 'Payment Successful!',
  paymentSuccessText: "You've successfully joined the group session.",
  reservationNotFound: 'Reservation Not Found',
  serviceRequired: 'Please select a service',
  titleRequired: 'Title is required',
  timeRequired: 'Please select a date and time',
  timeInPast: 'The session must be scheduled in the future',
  timeTooFar: 'The session must be scheduled within the next 90 days',
  sizeOutOfRange: 'Max participants must be between 2 and 20',
} as const;

/** The spec's card date and time: 'MMM d, yyyy' and 'h:mm a'. */
export const CARD_DATE_FORMAT = 'MMM d, yyyy';
export const CARD_TIME_FORMAT = 'h:mm a';

export function cardDate(iso: string): string {
  return format(new Date(iso), CARD_DATE_FORMAT);
}

export function cardTime(iso: string): string {
  return format(new Date(iso), CARD_TIME_FORMAT);
}

type Timed = Pick<GroupSessionView, 'status' | 'scheduledAt' | 'endsAt'>;

/** Start reached, start + duration not. */
export function inLiveWindow(s: Timed, now: Date): boolean {
  const t = now.getTime();
  return new Date(s.scheduledAt).getTime() <= t && t < new Date(s.endsAt).getTime();
}

/** A group call opens this many minutes before the start, as a one-to-one video session does. */
export const GROUP_CALL_OPENS_EARLY_MINUTES = VIDEO_JOIN_EARLY_MINUTES;

/** When the call's room opens: {@link GROUP_CALL_OPENS_EARLY_MINUTES} before the start. */
export function callOpensAt(s: Pick<GroupSessionView, 'scheduledAt'>): Date {
  return new Date(new Date(s.scheduledAt).getTime() - GROUP_CALL_OPENS_EARLY_MINUTES * 60_000);
}

/**
 * The call may be entered (the mentor and seated participants): active before its end, or
 * scheduled from 15 minutes before the start until the end (the waiting room before the start).
 */
export function isCallOpen(s: Timed, now: Date): boolean {
  const t = now.getTime();
  if (t >= new Date(s.endsAt).getTime()) return false;
  if (s.status === 'active') return true;
  return s.status === 'scheduled' && callOpensAt(s).getTime() <= t;
}

/** Live: active, or the start passed and the end not (and not cancelled or completed). */
export function isLive(s: Timed, now: Date): boolean {
  if (s.status === 'active') return now.getTime() < new Date(s.endsAt).getTime();
  return s.status === 'scheduled' && inLiveWindow(s, now);
}

/** Card display: upcoming, then live, then ended. */
export type CardState = 'upcoming' | 'live' | 'ended';

export function cardState(s: Timed, now: Date): CardState {
  if (isLive(s, now)) return 'live';
  if (s.status === 'scheduled' && new Date(s.scheduledAt).getTime() > now.getTime()) return 'upcoming';
  return 'ended';
}

export function spotsLeft(s: Pick<GroupSessionView, 'maxParticipants' | 'currentParticipants'>): number {
  return Math.max(0, s.maxParticipants - s.currentParticipants);
}

/** 'N spots left' or 'Full'. */
export function spotsText(s: Pick<GroupSessionView, 'maxParticipants' | 'currentParticipants'>): string {
  const left = spotsLeft(s);
  if (left === 0) return 'Full';
  return left === 1 ? '1 spot left' : `${left} spots left`;
}

/** A seat whose holder the mentor removed from the call: said instead of any button. */
export const REMOVED_SEAT_TEXT = 'You were removed from this session by the mentor.';

export type SeekerButton =
  | { kind: 'join-call'; label: 'Join Video Call'; href: string }
  | { kind: 'removed'; label: typeof REMOVED_SEAT_TEXT }
  | { kind: 'join'; label: 'Join Session' }
  | { kind: 'disabled'; label: string };

/**
 * The /group-sessions card's button by state. A booked seat's call opens 15 minutes before the
 * start (the waiting room); a removed seeker (whose seat may have been refunded) gets none.
 */
export function seekerButton(s: GroupSessionView, now: Date): SeekerButton {
  const state = cardState(s, now);
  if (s.isUserRemoved) return { kind: 'removed', label: REMOVED_SEAT_TEXT };
  if (s.isUserBooked) {
    if (state === 'live' || isCallOpen(s, now))
      return { kind: 'join-call', label: 'Join Video Call', href: `/group-video-call/${s.id}` };
    if (state === 'upcoming') return { kind: 'disabled', label: `Session Starts ${cardTime(s.scheduledAt)}` };
    return { kind: 'disabled', label: 'Session Completed' };
  }
  if (state === 'upcoming')
    return spotsLeft(s) > 0 ? { kind: 'join', label: 'Join Session' } : { kind: 'disabled', label: 'Session Full' };
  return { kind: 'disabled', label: 'Session Ended' };
}

export type MentorAction = 'start' | 'join-active' | 'end' | 'cancel';

/**
 * The mentor's actions: scheduled with its call open (from 15 minutes before the start until the
 * end): Start Group Session; active: Join Active Session and End Session; scheduled before the
 * start: Cancel Session (after the end the worker completes it).
 */
export function mentorActions(s: Timed, now: Date): MentorAction[] {
  if (s.status === 'active') return ['join-active', 'end'];
  if (s.status !== 'scheduled') return [];
  const actions: MentorAction[] = isCallOpen(s, now) ? ['start'] : [];
  if (new Date(s.scheduledAt).getTime() > now.getTime()) actions.push('cancel');
  return actions;
}

export const MENTOR_ACTION_LABELS: Record<MentorAction, string> = {
  start: 'Start Group Session',
  'join-active': 'Join Active Session',
  end: 'End Session',
  cancel: 'Cancel Session',
};

export type GroupSessionForm = {
  serviceId: string;
  title: string;
  description: string;
  /** A datetime-local value (the browser's wall time). */
  scheduledAt: string;
  maxParticipants: string;
};

export const EMPTY_GROUP_SESSION_FORM: GroupSessionForm = {
  serviceId: '',
  title: '',
  description: '',
  scheduledAt: '',
  maxParticipants: String(GROUP_SESSION_SIZE.default),
};

export type GroupSessionFormErrors = Partial<Record<keyof GroupSessionForm, string>>;

/** Service, title and date-time required; 2 to 20 participants; a time in the next 90 days. */
export function validateGroupSession(form: GroupSessionForm, now: Date): GroupSessionFormErrors {
  const errors: GroupSessionFormErrors = {};
  if (!form.serviceId) errors.serviceId = GROUP_SESSION_TEXT.serviceRequired;
  if (!form.title.trim()) errors.title = GROUP_SESSION_TEXT.titleRequired;
  if (!form.scheduledAt) errors.scheduledAt = GROUP_SESSION_TEXT.timeRequired;
  else {
    const at = new Date(form.scheduledAt);
    if (Number.isNaN(at.getTime())) errors.scheduledAt = GROUP_SESSION_TEXT.timeRequired;
    else if (at.getTime() <= now.getTime()) errors.scheduledAt = GROUP_SESSION_TEXT.timeInPast;
    else if (at.getTime() > now.getTime() + BOOKING_WINDOW_DAYS * 86_400_000)
      errors.scheduledAt = GROUP_SESSION_TEXT.timeTooFar;
  }
  const size = Number(form.maxParticipants);
  if (!Number.isInteger(size) || size < GROUP_SESSION_SIZE.min || size > GROUP_SESSION_SIZE.max) {
    errors.maxParticipants = GROUP_SESSION_TEXT.sizeOutOfRange;
  }
  return errors;
}

/** Where a service's Book button leads: a group service to its mentor's sessions. */
export function bookPath(service: { id: string; isGroupSession?: boolean | null }, mentorId: string): string {
  return service.isGroupSession ? `/group-sessions?mentor=${encodeURIComponent(mentorId)}` : `/booking/${service.id}`;
}

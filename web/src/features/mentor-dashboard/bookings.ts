/**
 * The Bookings tab's rules: which actions a booking card offers a mentor now, and the
 * links to the message screen. The video window is the shared rule of lib/booking-rules.
 */
import type { BookingView } from '@/api/model';
import { canStartVideoSession } from '@/lib/booking-rules';

export type MentorBooking = BookingView;

/** The statuses a mentor may move a booking to (docs/after-booking.md). */
export type MentorTransition = 'confirmed' | 'cancelled' | 'completed';

export type MentorActions = {
  /** pending -> confirmed ('Confirm'). */
  confirm: boolean;
  /** pending -> cancelled ('Cancel'; the seeker is refunded in full). */
  cancel: boolean;
  /** confirmed -> completed ('Mark Complete'), once the session has ended (the api refuses it before). */
  complete: boolean;
  /** 'Start Video Session': confirmed, from 15 minutes before the start until start plus duration. */
  startVideo: boolean;
};

/** Pending offers Confirm and Cancel, confirmed offers Mark Complete; completed and cancelled offer none. */
export function mentorActions(booking: Pick<MentorBooking, 'status' | 'scheduledAt' | 'duration'>, now: Date = new Date()): MentorActions {
  return {
    confirm: booking.status === 'pending',
    cancel: booking.status === 'pending',
    complete: booking.status === 'confirmed' && sessionHasEnded(booking, now),
    startVideo: canStartVideoSession(booking, now),
  };
}

/** Whether start plus duration has passed. */
export function sessionHasEnded(booking: Pick<MentorBooking, 'scheduledAt' | 'duration'>, now: Date): boolean {
  return new Date(booking.scheduledAt).getTime() + booking.duration * 60_000 <= now.getTime();
}

/** The conversation with the seeker about this booking: /messages?user={userId}&booking={bookingId}, with &startCall=true to start the call. */
export function clientMessagesHref(booking: Pick<MentorBooking, 'id' | 'user'>, startCall = false): string {
  const params = new URLSearchParams({ user: booking.user.id, booking: booking.id });
  if (startCall) params.set('startCall', 'true');
  return `/messages?${params.toString()}`;
}

/** 'Ada Lovelace' (or 'Client' when the seeker has no name). */
export function clientName(booking: Pick<MentorBooking, 'user'>): string {
  return [booking.user.firstName, booking.user.lastName].filter((s) => s && s.trim()).join(' ') || 'Client';
}


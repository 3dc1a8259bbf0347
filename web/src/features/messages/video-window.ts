/**
 * Whether the thread's Video call button can start a call about its booking now, and if not why and
 * when it opens: a booking's call opens 15 minutes before the start and closes at the end, and only
 * a confirmed booking's does (the api refuses the rest; the button says so instead of failing).
 */
import type { VideoWindowView } from '@/api/model';
import { VIDEO_JOIN_EARLY_MINUTES } from '@/config/constants';
import { formatDate, formatTime } from '@/lib/format';

export type CallAvailability = { open: true } | { open: false; reason: string };

export const VIDEO_WINDOW_TEXT = {
  opensAt: (at: string) =>
    `The video call opens ${formatDate(at)} at ${formatTime(at)}, ${VIDEO_JOIN_EARLY_MINUTES} minutes before the session.`,
  ended: 'This session has ended, so its video call is closed.',
  pending: 'The video call opens once the mentor confirms this booking.',
  closed: (status: string) => `This booking is ${status}, so its video call is closed.`,
} as const;

export function callAvailability(window: VideoWindowView, now: Date): CallAvailability {
  const t = now.getTime();
  if (window.status === 'pending') return { open: false, reason: VIDEO_WINDOW_TEXT.pending };
  if (window.status !== 'confirmed') return { open: false, reason: VIDEO_WINDOW_TEXT.closed(window.status) };
  if (t < Date.parse(window.opensAt)) return { open: false, reason: VIDEO_WINDOW_TEXT.opensAt(window.opensAt) };
  if (t > Date.parse(window.closesAt)) return { open: false, reason: VIDEO_WINDOW_TEXT.ended };
  return { open: true };
}

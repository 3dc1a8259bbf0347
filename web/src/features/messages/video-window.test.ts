import { describe, expect, it } from 'vitest';
import type { VideoWindowView } from '@/api/model';
import { callAvailability, VIDEO_WINDOW_TEXT } from './video-window';

const START = new Date('2026-12-01T18:00:00Z');
const at = (minutes: number) => new Date(START.getTime() + minutes * 60_000);
const window = (status: VideoWindowView['status'] = 'confirmed'): VideoWindowView => ({
  bookingId: 'b1',
  status,
  opensAt: at(-15).toISOString(),
  closesAt: at(60).toISOString(),
  isOpen: false,
});

describe("the Video call button's booking window", () => {
  it('opens 15 minutes before the start and closes at the end, at its exact edges', () => {
    expect(callAvailability(window(), new Date(at(-15).getTime() - 1))).toEqual({
      open: false,
      reason: VIDEO_WINDOW_TEXT.opensAt(at(-15).toISOString()),
    });
    expect(callAvailability(window(), at(-15))).toEqual({ open: true });
    expect(callAvailability(window(), at(60))).toEqual({ open: true });
    expect(callAvailability(window(), new Date(at(60).getTime() + 1))).toEqual({
      open: false,
      reason: VIDEO_WINDOW_TEXT.ended,
    });
  });

  it('stays closed for a booking that is not confirmed, saying why', () => {
    expect(callAvailability(window('pending'), at(0))).toEqual({ open: false, reason: VIDEO_WINDOW_TEXT.pending });
    expect(callAvailability(window('cancelled'), at(0))).toEqual({
      open: false,
      reason: 'This booking is cancelled, so its video call is closed.',
    });
  });
});

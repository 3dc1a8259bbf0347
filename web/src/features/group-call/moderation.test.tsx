import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { MemoryRouter } from 'react-router';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeProvider } from '@/lib/realtime';
import { FakeSocket } from '@/testing/fake-socket';
import { clientWithUser, jsonResponse, mockFetch, testUser } from '@/testing/test-utils';
import { MicButton } from './mic-button';
import { MUTE_TEXT, useMutedByMentor } from './mute-state';
import { isRemovedError, RemovedNotice, REMOVED_TEXT } from './removed-notice';

const SESSION = 'g-1';
const ME = testUser.id;

let info: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  FakeSocket.install();
  info = vi.spyOn(toast, 'info').mockImplementation(() => 1);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** The page's own microphone control, as the call page wires it. */
function Controls({ onMuted, mutedOnArrival = false }: { onMuted: () => void; mutedOnArrival?: boolean }) {
  const [micOn, setMicOn] = useState(!mutedOnArrival);
  const mutedByMentor = useMutedByMentor(
    SESSION,
    ME,
    () => {
      setMicOn(false);
      onMuted();
    },
    mutedOnArrival,
  );
  return <MicButton micOn={micOn} mutedByMentor={mutedByMentor} onToggle={() => setMicOn((on) => !on)} />;
}

describe('the group call: a participant muted by the mentor', () => {
  it("sees 'Muted by the mentor' on their own microphone and can unmute only once the mentor unmutes them", async () => {
    const onMuted = vi.fn();
    render(
      <QueryClientProvider client={clientWithUser(testUser)}>
        <RealtimeProvider>
          <Controls onMuted={onMuted} />
        </RealtimeProvider>
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    act(() => FakeSocket.last.open());
    expect(screen.getByRole('button', { name: 'Turn microphone off' })).toBeEnabled();

    // Another participant's mute, or another session's, is not theirs.
    act(() => FakeSocket.last.receive('participant-muted', { groupSessionId: SESSION, participantId: 'someone' }));
    act(() => FakeSocket.last.receive('participant-muted', { groupSessionId: 'other', participantId: ME }));
    expect(screen.getByRole('button', { name: 'Turn microphone off' })).toBeEnabled();
    expect(onMuted).not.toHaveBeenCalled();

    act(() => FakeSocket.last.receive('participant-muted', { groupSessionId: SESSION, participantId: ME }));
    const muted = screen.getByRole('button', { name: MUTE_TEXT.mutedByMentor });
    expect(MUTE_TEXT.mutedByMentor).toBe('Muted by the mentor');
    expect(muted).toBeDisabled();
    expect(muted).toHaveAttribute('aria-pressed', 'true');
    expect(muted).toHaveTextContent('Muted by the mentor');
    expect(onMuted).toHaveBeenCalledTimes(1);
    expect(info).toHaveBeenCalledWith(MUTE_TEXT.youWereMuted);
    await user.click(muted);
    expect(screen.getByRole('button', { name: MUTE_TEXT.mutedByMentor })).toBeDisabled();

    act(() => FakeSocket.last.receive('participant-unmuted', { groupSessionId: SESSION, participantId: ME }));
    expect(info).toHaveBeenCalledWith(MUTE_TEXT.youWereUnmuted);
    const off = screen.getByRole('button', { name: 'Turn microphone on' });
    expect(off).toBeEnabled();
    await user.click(off);
    expect(screen.getByRole('button', { name: 'Turn microphone off' })).toBeEnabled();
  });
});

describe('the group call: a participant who comes back while muted', () => {
  it('is still muted by the mentor after a reload, until the mentor unmutes them', () => {
    render(
      <QueryClientProvider client={clientWithUser(testUser)}>
        <RealtimeProvider>
          <Controls onMuted={vi.fn()} mutedOnArrival />
        </RealtimeProvider>
      </QueryClientProvider>,
    );
    act(() => FakeSocket.last.open());
    expect(screen.getByRole('button', { name: MUTE_TEXT.mutedByMentor })).toBeDisabled();
    act(() => FakeSocket.last.receive('participant-unmuted', { groupSessionId: SESSION, participantId: ME }));
    expect(screen.getByRole('button', { name: 'Turn microphone on' })).toBeEnabled();
  });
});

// The page itself pulls in the Janus client, which jsdom cannot load: the call page shows this
// notice when GET /api/group-sessions/{id}/call answers the removal (isRemovedError) and when
// participant-left names the viewer with reason 'removed'.
describe('the group call: a participant removed by the mentor', () => {
  it("recognises the api's answer to a removed participant", () => {
    expect(isRemovedError('You were removed from this session')).toBe(true);
    expect(isRemovedError('This session is not live')).toBe(false);
  });

  it('lands on a page that says the mentor removed them and what happens to the money, with no way back', async () => {
    const refunded = 'Your seat is cancelled and refunded in full: $20.00 goes back to your card.';
    mockFetch({
      [`GET /api/group-sessions/${SESSION}`]: () =>
        jsonResponse(200, {
          id: SESSION,
          isUserRemoved: true,
          userRemoval: { reason: 'other', refundAmount: '20.00', message: refunded },
        }),
    });
    render(
      <QueryClientProvider client={clientWithUser(testUser)}>
        <MemoryRouter>
          <RemovedNotice sessionId={SESSION} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.getByRole('heading', { name: 'Removed from session' })).toBeInTheDocument();
    expect(await screen.findByText(refunded)).toBeInTheDocument();
    expect(screen.getByText(REMOVED_TEXT.body)).toHaveTextContent('You were removed from this session by the mentor.');
    expect(screen.queryByText('Session Error')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Join/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Join/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse Group Sessions' })).toHaveAttribute('href', '/group-sessions');
  });
});

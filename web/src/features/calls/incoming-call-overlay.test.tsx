import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeProvider } from '@/lib/realtime';
import { FakeSocket } from '@/testing/fake-socket';
import { clientWithUser, mockFetch, testUser } from '@/testing/test-utils';
import { CallProvider } from '@/lib/calls/call-provider';
import { IncomingCallOverlay } from './incoming-call-overlay';

const played: string[] = [];

class FakeAudio {
  loop = false;
  constructor(readonly src: string) {}
  play() {
    played.push(this.src);
    return Promise.reject(new Error('NotAllowedError'));
  }
  pause() {}
}

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

const call = {
  callId: 'call-1',
  roomId: 'room-1',
  conversationId: 'c1',
  bookingId: null,
  caller: { id: 'u2', firstName: 'Luna', lastName: 'Star', profileImageUrl: null },
};

beforeEach(() => {
  played.length = 0;
  FakeSocket.install();
  vi.stubGlobal('Audio', FakeAudio);
  mockFetch();
  render(
    <QueryClientProvider client={clientWithUser(testUser)}>
      <RealtimeProvider>
        <MemoryRouter initialEntries={['/mentors']}>
          <CallProvider>
            <Where />
            <IncomingCallOverlay />
          </CallProvider>
        </MemoryRouter>
      </RealtimeProvider>
    </QueryClientProvider>,
  );
  act(() => FakeSocket.last.open());
});
afterEach(() => vi.unstubAllGlobals());

describe('the incoming call overlay', () => {
  it('shows the caller (initials without a photo), the text and both buttons, and rings', () => {
    act(() => FakeSocket.last.receive('incomingCall', call));
    const overlay = screen.getByRole('alertdialog');
    expect(overlay).toHaveTextContent('Luna Star');
    expect(overlay).toHaveTextContent('Incoming video call');
    expect(overlay).toHaveTextContent('LS');
    expect(screen.getByRole('button', { name: 'Decline' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Accept' })).toBeInTheDocument();
    expect(played).toEqual(['/notification.mp3']);
  });

  it('Accept sends acceptCall and opens the conversation with startCall=true', async () => {
    act(() => FakeSocket.last.receive('incomingCall', call));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Accept' }));
    expect(FakeSocket.last.framesOf('acceptCall')).toEqual([{ callId: 'call-1' }]);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/messages?conversation=c1&startCall=true');
  });

  it('Decline sends rejectCall and closes it', async () => {
    act(() => FakeSocket.last.receive('incomingCall', call));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Decline' }));
    expect(FakeSocket.last.framesOf('rejectCall')).toEqual([{ callId: 'call-1' }]);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('closes when the call ends elsewhere or the connection drops', () => {
    act(() => FakeSocket.last.receive('incomingCall', call));
    act(() =>
      FakeSocket.last.receive('callEnded', { callId: 'call-1', roomId: 'room-1', reason: 'answered elsewhere' }),
    );
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    act(() => FakeSocket.last.receive('incomingCall', call));
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
    act(() => FakeSocket.last.drop());
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});

import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealtimeProvider } from '@/lib/realtime';
import { FakeSocket } from '@/testing/fake-socket';
import { clientWithUser, testUser } from '@/testing/test-utils';
import { SessionButton } from './session-button';

beforeEach(() => FakeSocket.install());
afterEach(() => vi.unstubAllGlobals());

describe("the group call: the mentor's session button", () => {
  it('waits for the socket, so a press is never lost', async () => {
    const onStart = vi.fn();
    render(
      <QueryClientProvider client={clientWithUser(testUser)}>
        <RealtimeProvider>
          <SessionButton active={false} onStart={onStart} onEnd={vi.fn()} />
        </RealtimeProvider>
      </QueryClientProvider>,
    );
    const start = screen.getByRole('button', { name: 'Start Session' });
    expect(start).toBeDisabled();
    await userEvent.click(start);
    expect(onStart).not.toHaveBeenCalled();

    act(() => FakeSocket.last.open());
    expect(start).toBeEnabled();
    await userEvent.click(start);
    expect(onStart).toHaveBeenCalledOnce();
  });
});

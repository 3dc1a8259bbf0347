import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import { mentor } from '@/testing/catalogue-fixtures';
import { jsonResponse, mockFetch, renderWithProviders } from '@/testing/test-utils';
import { BuffersAndLimit } from './buffers-and-limit';

beforeEach(() => {
  vi.spyOn(toast, 'success').mockImplementation(() => 1);
});
afterEach(() => vi.restoreAllMocks());

describe('BuffersAndLimit', () => {
  it('shows the saved settings and sends the buffers and the limit (empty: 0, no limit)', async () => {
    const fetchMock = mockFetch({
      'PUT /api/mentor/profile': () => jsonResponse(200, mentor({ bufferBeforeMinutes: 10, bufferAfterMinutes: 30 })),
    });
    const user = userEvent.setup();
    renderWithProviders(<BuffersAndLimit mentor={mentor({ bufferAfterMinutes: 15, maxBookingsPerDay: 3 })} />);
    expect(screen.getByLabelText('Buffer After (minutes)')).toHaveValue(15);
    expect(screen.getByLabelText('Maximum Bookings per Day')).toHaveValue(3);
    await user.clear(screen.getByLabelText('Buffer Before (minutes)'));
    await user.type(screen.getByLabelText('Buffer Before (minutes)'), '10');
    await user.clear(screen.getByLabelText('Buffer After (minutes)'));
    await user.type(screen.getByLabelText('Buffer After (minutes)'), '30');
    await user.clear(screen.getByLabelText('Maximum Bookings per Day'));
    await user.click(screen.getByRole('button', { name: 'Save Buffers and Limit' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/mentor/profile');
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({
      bufferBeforeMinutes: 10,
      bufferAfterMinutes: 30,
      maxBookingsPerDay: 0,
    });
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Buffers and daily limit saved'));
  });
});

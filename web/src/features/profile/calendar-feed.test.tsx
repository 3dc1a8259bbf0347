import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, renderWithProviders } from '@/testing/test-utils';
import { CalendarFeedCard } from './calendar-feed';

describe('CalendarFeedCard', () => {
  it('shows the feed link on request and resets it', async () => {
    const fetchMock = mockFetch({
      'GET /api/user/calendar-feed': () => jsonResponse(200, { url: 'https://mm.test/api/calendar/old.ics' }),
      'POST /api/user/calendar-feed/rotate': () => jsonResponse(200, { url: 'https://mm.test/api/calendar/new.ics' }),
    });
    const user = userEvent.setup();
    renderWithProviders(<CalendarFeedCard />);
    expect(fetchMock).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Show calendar link' }));
    const link = await screen.findByLabelText('Calendar feed link');
    await waitFor(() => expect(link).toHaveValue('https://mm.test/api/calendar/old.ics'));
    expect(screen.getByRole('button', { name: 'Copy' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Reset link' }));
    await waitFor(() => expect(link).toHaveValue('https://mm.test/api/calendar/new.ics'));
  });
});

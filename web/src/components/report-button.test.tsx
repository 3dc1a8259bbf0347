import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch, renderWithProviders } from '@/testing/test-utils';
import { ReportButton } from './report-button';

vi.mock('sonner', () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), info: vi.fn() }) }));

function sentBodies(fetchMock: ReturnType<typeof mockFetch>): unknown[] {
  return fetchMock.mock.calls
    .filter(([url, init]) => url === '/api/reports' && init?.method === 'POST')
    .map(([, init]) => JSON.parse(String(init?.body)));
}

describe('ReportButton', () => {
  it('asks for a reason (and details for "other") before it sends the report', async () => {
    const fetchMock = mockFetch({
      'POST /api/reports': () => jsonResponse(201, { id: 'r-1', status: 'open' }),
    });
    renderWithProviders(<ReportButton compact targetType="review" targetId="rev-1" />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Report this review' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report this review' });
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please choose a reason');
    await user.selectOptions(screen.getByLabelText('Reason'), 'other');
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please describe the problem');
    expect(sentBodies(fetchMock)).toEqual([]);
    await user.type(screen.getByLabelText(/Details/), 'Mocking words');
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(toast.success).toHaveBeenCalledWith('Report sent', expect.anything());
    expect(sentBodies(fetchMock)).toEqual([
      { targetType: 'review', targetId: 'rev-1', reason: 'other', details: 'Mocking words' },
    ]);
  });

  it('says so when the user already reported it', async () => {
    mockFetch({ 'POST /api/reports': () => jsonResponse(409, { message: 'You have already reported this' }) });
    renderWithProviders(<ReportButton targetType="mentor" targetId="m-1" />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Report' }));
    await user.selectOptions(await screen.findByLabelText('Reason'), 'no_show');
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(toast.info).toHaveBeenCalledWith('You have already reported this.'));
  });
});

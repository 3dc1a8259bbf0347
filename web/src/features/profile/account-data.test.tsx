import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_USER_KEY } from '@/lib/auth';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { dataExportKeys } from './api';
import { DataExportSection } from './data-export';
import { DeleteAccountSection, DeletionBanner } from './delete-account';

beforeEach(() => {
  vi.spyOn(toast, 'success').mockImplementation(() => 1);
  vi.spyOn(toast, 'error').mockImplementation(() => 1);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const ready = {
  id: '7eaa425b-4a96-4738-87c3-b05f7a34d635',
  status: 'ready',
  createdAt: '2026-11-28T10:00:00Z',
  expiresAt: '2026-12-05T10:00:00Z',
};

describe('download my data', () => {
  it('lists the exports with a download link for a ready one, and asks for a new one', async () => {
    const fetchMock = mockFetch({
      'GET /api/user/data-exports': () => jsonResponse(200, [ready, { ...ready, id: 'x', status: 'expired' }]),
      'POST /api/user/data-export': () => jsonResponse(202, { id: 'y', status: 'pending' }),
    });
    renderWithProviders(<DataExportSection />, { client: clientWithUser(testUser) });
    const list = await screen.findByRole('list', { name: 'Your data exports' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Ready');
    expect(within(items[0]).getByRole('link', { name: 'Download' })).toHaveAttribute(
      'href',
      `/api/user/data-exports/${ready.id}/download`,
    );
    expect(items[1]).toHaveTextContent('Expired');
    expect(within(items[1]).queryByRole('link')).not.toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Download my data' }));
    expect(fetchMock.mock.calls.some(([url, init]) => url === '/api/user/data-export' && init?.method === 'POST')).toBe(
      true,
    );
  });
});

describe('delete my account', () => {
  it('spells out the consequences and shows a wrong password', async () => {
    mockFetch({
      'POST /api/user/delete-account': () => jsonResponse(400, { code: 'validation', message: 'Incorrect password.' }),
    });
    renderWithProviders(<DeleteAccountSection />, { client: clientWithUser(testUser) });
    const form = screen.getByRole('form', { name: 'Delete my account' });
    expect(form).toHaveTextContent('you are signed out on every device at once');
    expect(form).toHaveTextContent('after 14 days');
    const user = userEvent.setup();
    await user.type(within(form).getByLabelText('Password'), 'wrong');
    await user.click(within(form).getByRole('button', { name: 'Delete my account' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Incorrect password.');
  });

  it('signs out once the deletion is scheduled', async () => {
    mockFetch({
      'POST /api/user/delete-account': () => jsonResponse(202, { deletionScheduledAt: '2026-12-12T10:00:00Z' }),
    });
    const client = clientWithUser(testUser);
    renderWithProviders(<DeleteAccountSection />, { client });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Password'), 'correct-horse-42');
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    await vi.waitFor(() => expect(client.getQueryData(AUTH_USER_KEY)).toBeNull());
  });

  it("shows the date and keeps the account with 'Keep my account'", async () => {
    const kept = { ...testUser, deletionScheduledAt: null };
    const fetchMock = mockFetch({ 'POST /api/user/cancel-deletion': () => jsonResponse(200, kept) });
    const client = clientWithUser({ ...testUser, deletionScheduledAt: '2026-12-12T10:00:00Z' });
    client.setQueryData(dataExportKeys.all(), []);
    renderWithProviders(<DeletionBanner deletionScheduledAt="2026-12-12T10:00:00Z" />, { client });
    expect(screen.getByText(/Your account will be deleted on December 12, 2026/)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Keep my account' }));
    await vi.waitFor(() => expect(client.getQueryData(AUTH_USER_KEY)).toEqual(kept));
    expect(fetchMock).toHaveBeenCalled();
  });
});

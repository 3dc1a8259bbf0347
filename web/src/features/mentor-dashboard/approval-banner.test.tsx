import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mentor } from '@/testing/catalogue-fixtures';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders } from '@/testing/test-utils';
import { APPROVAL_BANNER_TEXT, ApprovalBanner } from './approval-banner';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ApprovalBanner', () => {
  it('says a pending profile awaits review', () => {
    mockFetch();
    renderWithProviders(<ApprovalBanner mentor={mentor({ approvalStatus: 'pending' })} />);
    expect(screen.getByRole('heading', { name: APPROVAL_BANNER_TEXT.pendingTitle })).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it('shows nothing once approved', () => {
    mockFetch();
    const { container } = renderWithProviders(<ApprovalBanner mentor={mentor()} />);
    expect(container).toBeEmptyDOMElement();
  });

  it('gives a rejected mentor the reason and resubmits', async () => {
    const fetchMock = mockFetch({
      'POST /api/mentor/profile/resubmit': () => jsonResponse(200, mentor({ approvalStatus: 'pending' })),
    });
    renderWithProviders(
      <ApprovalBanner mentor={mentor({ approvalStatus: 'rejected', rejectionReason: 'Add a photo of yourself.' })} />,
      { client: clientWithUser(null) },
    );
    expect(screen.getByRole('heading', { name: APPROVAL_BANNER_TEXT.rejectedTitle })).toBeInTheDocument();
    expect(screen.getByText('Add a photo of yourself.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: APPROVAL_BANNER_TEXT.resubmit }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => url === '/api/mentor/profile/resubmit')).toBe(true),
    );
  });
});

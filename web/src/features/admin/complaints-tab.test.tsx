import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReadingComplaintDetailView } from '@/api/model';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { ComplaintsTab } from './complaints-tab';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const admin = { ...testUser, id: 'a-1', isAdmin: true, role: 'admin' as const };

const reading = (over: Partial<ReadingComplaintDetailView> = {}): ReadingComplaintDetailView => ({
  id: 'rc-1',
  instantSessionId: 'r-1',
  reason: 'technical_problem',
  details: 'The chat kept dropping.',
  status: 'open',
  createdAt: '2026-03-01T15:10:00Z',
  startedAt: '2026-03-01T15:00:00Z',
  endedAt: '2026-03-01T15:06:00Z',
  seeker: { id: 'u-1', firstName: 'Ada', lastName: 'Lee', email: 'ada@example.com' },
  mentorId: 'm-1',
  mentorUserId: 'mu-1',
  mentorDisplayName: 'Luna',
  mentorEmail: 'luna@example.com',
  amountCharged: '6.00',
  amountRefunded: '0.00',
  response: null,
  resolution: null,
  ...over,
});

function show(items: ReadingComplaintDetailView[]) {
  mockFetch({
    'GET /api/admin/complaints?status=open': () => jsonResponse(200, { items: [], total: 0 }),
    'GET /api/admin/reading-complaints?status=open': () => jsonResponse(200, { items, total: items.length }),
  });
  renderWithProviders(<ComplaintsTab />, { client: clientWithUser(admin) });
}

describe("the admin's readings' complaints", () => {
  it('shows a decided one with its note and the mentor’s answer, as a booking complaint', async () => {
    show([
      reading({
        status: 'resolved',
        amountRefunded: '2.50',
        response: { message: 'My connection failed.', createdAt: '2026-03-01T16:00:00Z' },
        resolution: {
          outcome: 'partial_refund',
          amount: '2.50',
          note: 'Half the chat was lost.',
          decidedAt: '2026-03-01T17:00:00Z',
          automatic: false,
        },
      }),
    ]);
    const card = await screen.findByRole('article', { name: /Complaint about the reading of/ });
    expect(within(card).getByText("Mentor's answer: My connection failed.")).toBeInTheDocument();
    expect(card).toHaveTextContent('Decided: Partial refund ($2.50) · Half the chat was lost.');
    expect(within(card).queryByRole('button', { name: /refund/i })).not.toBeInTheDocument();
  });

  it('offers the decision form on an open one', async () => {
    show([reading()]);
    const card = await screen.findByRole('article', { name: /Complaint about the reading of/ });
    expect(within(card).getByText('The mentor has not answered.')).toBeInTheDocument();
    for (const name of ['Full refund', 'Partial refund', 'No refund']) {
      expect(within(card).getByRole('button', { name })).toBeInTheDocument();
    }
    expect(card).not.toHaveTextContent('Decided:');
  });
});

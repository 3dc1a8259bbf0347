import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InstantSessionView } from '@/api/model';
import { COMPLAINT_WINDOW_MS, ComplaintState } from '@/components/complaint-report';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { canReportReading, ReadingComplaintSection } from './reading-complaint';

const ENDED = Date.parse('2026-11-28T12:05:00Z');

function reading(overrides: Partial<InstantSessionView> = {}): InstantSessionView {
  return {
    id: 'r1',
    status: 'ended',
    mode: 'chat',
    mentorId: 'm1',
    seekerId: testUser.id,
    perMinuteRate: '2.00',
    freeMinutes: 3,
    expiresAt: '2026-11-28T12:01:00Z',
    startedAt: '2026-11-28T12:00:00Z',
    endedAt: new Date(ENDED).toISOString(),
    endReason: 'seeker',
    minutesBilled: 5,
    amountCharged: '4.00',
    conversationId: 'c1',
    createdAt: '2026-11-28T11:59:30Z',
    ...overrides,
  };
}

const at = (ms: number) => new Date(ENDED + ms);

afterEach(() => vi.unstubAllGlobals());

describe('a reading’s Report a problem', () => {
  it('is offered once the reading ended, until 24 hours after its end, once', () => {
    expect(canReportReading(reading(), at(0), false)).toBe(true);
    expect(canReportReading(reading(), at(COMPLAINT_WINDOW_MS), false)).toBe(true);
    expect(canReportReading(reading(), at(COMPLAINT_WINDOW_MS + 1), false)).toBe(false);
    expect(canReportReading(reading(), at(10), true)).toBe(false);
    expect(canReportReading(reading({ status: 'active', endedAt: null }), at(0), false)).toBe(false);
    expect(canReportReading(reading({ status: 'expired', startedAt: null, endedAt: null }), at(0), false)).toBe(false);
  });

  it('shows the complaint the reading carries (after a reload): its decision and the mentor’s answer, no second report', () => {
    renderWithProviders(
      <ReadingComplaintSection
        reading={reading({
          complaint: {
            id: 'rc1',
            instantSessionId: 'r1',
            reason: 'technical_problem',
            details: 'The chat froze.',
            status: 'resolved',
            createdAt: new Date(ENDED + 60_000).toISOString(),
            resolution: {
              outcome: 'partial_refund',
              amount: '2.00',
              note: 'Half back for the frozen chat.',
              decidedAt: new Date(ENDED + 3_600_000).toISOString(),
              automatic: false,
            },
            response: { message: 'Sorry, my connection dropped.', createdAt: new Date(ENDED + 120_000).toISOString() },
          },
        })}
        now={at(4_000_000)}
      />,
      { client: clientWithUser(testUser) },
    );
    const state = screen.getByRole('status');
    expect(state).toHaveTextContent('Half back for the frozen chat.');
    expect(state).toHaveTextContent('The mentor answered: Sorry, my connection dropped.');
    expect(screen.queryByRole('button', { name: 'Report a problem' })).toBeNull();
  });

  it('files the complaint with the booking form and shows it filed', async () => {
    const fetch = mockFetch({
      'POST /api/instant-sessions/r1/complaint': () =>
        jsonResponse(201, {
          id: 'rc1',
          instantSessionId: 'r1',
          reason: 'technical_problem',
          details: 'The chat froze.',
          status: 'open',
          createdAt: new Date(ENDED + 60_000).toISOString(),
        }),
    });
    renderWithProviders(<ReadingComplaintSection reading={reading()} now={at(60_000)} />, {
      client: clientWithUser(testUser),
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Report a problem' }));
    const dialog = screen.getByRole('dialog', { name: 'Report a problem' });
    const send = within(dialog).getByRole('button', { name: 'Send report' });
    expect(send).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Details'), 'The chat froze.');
    await user.click(send);
    expect(await screen.findByText('Problem reported: waiting for a decision')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Report a problem' })).not.toBeInTheDocument();
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ reason: 'technical_problem', details: 'The chat froze.' });
  });

  it('lets a no-show be reported without details and shows the API’s refusal', async () => {
    mockFetch({
      'POST /api/instant-sessions/r1/complaint': () =>
        jsonResponse(409, { code: 'conflict', message: 'You have already reported a problem with this session.' }),
    });
    renderWithProviders(<ReadingComplaintSection reading={reading()} now={at(60_000)} />, {
      client: clientWithUser(testUser),
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Report a problem' }));
    const dialog = screen.getByRole('dialog', { name: 'Report a problem' });
    await user.selectOptions(within(dialog).getByLabelText('What went wrong?'), 'mentor_no_show');
    expect(within(dialog).getByLabelText('Details (optional)')).not.toBeRequired();
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    await waitFor(() =>
      expect(within(dialog).getByText('You have already reported a problem with this session.')).toBeInTheDocument(),
    );
  });

  it('shows a decided complaint’s outcome, note and the mentor’s answer', () => {
    renderWithProviders(
      <ComplaintState
        complaint={{
          status: 'resolved',
          resolution: {
            outcome: 'partial_refund',
            amount: '2.00',
            note: 'Half of it',
            decidedAt: '2026-11-29T10:00:00Z',
            automatic: false,
          },
          response: { message: 'Sorry about the chat.', createdAt: '2026-11-28T13:00:00Z' },
        }}
      />,
    );
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent('Problem reported: resolved');
    expect(status).toHaveTextContent('Partial refund: $2.00 · Half of it');
    expect(status).toHaveTextContent('The mentor answered: Sorry about the chat.');
  });
});

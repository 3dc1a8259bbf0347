import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mentor, service } from '@/testing/catalogue-fixtures';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import GroupBookingPage from './group-booking-page';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const HOLD = 'f0f0f0f0-0000-4000-8000-000000000001';

function renderPage() {
  return renderWithProviders(
    <Routes>
      <Route path="/group-booking/:bookingId" element={<GroupBookingPage />} />
    </Routes>,
    { client: clientWithUser(testUser), path: `/group-booking/${HOLD}` },
  );
}

describe('/group-booking/{id}', () => {
  it('shows the seat, the 60-minute warning with its expiry, and the card form', async () => {
    const { services: _s, ...card } = mentor();
    mockFetch({
      [`GET /api/reservations/${HOLD}`]: () =>
        jsonResponse(200, {
          id: HOLD,
          scheduledAt: '2030-01-05T18:00:00Z',
          expiresAt: '2030-01-04T10:30:00Z',
          totalAmount: '25.00',
          mentor: card,
          service: service({ isGroupSession: true, maxParticipants: 8 }),
          groupSession: {
            title: 'Full Moon Circle',
            description: 'We read together.',
            currentParticipants: 3,
            maxParticipants: 8,
          },
        }),
    });
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Full Moon Circle' })).toBeInTheDocument();
    expect(screen.getByText(/Your seat is held until/)).toBeInTheDocument();
    expect(screen.getByText(/We keep your seat for 60 minutes/)).toBeInTheDocument();
    expect(screen.getByText('3/8')).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Card payment' })).toBeInTheDocument();
  });

  it("shows 'Reservation Not Found' for a missing or expired hold", async () => {
    mockFetch({ [`GET /api/reservations/${HOLD}`]: () => jsonResponse(404, { message: 'Reservation Not Found' }) });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Reservation Not Found' })).toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { format } from 'date-fns';
import { Route, Routes, useLocation } from 'react-router';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServiceWithMentorView } from '@/api/model';
import { isoDate } from '@/components/slot-picker';
import * as navigation from '@/lib/navigation';
import { browserTimeZone } from '@/lib/time-zones';
import { wallTimeToIso } from '@/lib/wall-time';
import { mentor, MENTOR_ID, service, SERVICE_ID } from '@/testing/catalogue-fixtures';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import BookingPage from './booking-page';
import { DECLINED_NEXT_STEP } from './payment-step';

let success: ReturnType<typeof vi.spyOn>;
let error: ReturnType<typeof vi.spyOn>;
let hardNavigate: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  success = vi.spyOn(toast, 'success').mockImplementation(() => 1);
  error = vi.spyOn(toast, 'error').mockImplementation(() => 1);
  hardNavigate = vi.spyOn(navigation, 'hardNavigate').mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const { services: _services, ...mentorCard } = mentor();

function bookable(overrides: Partial<ServiceWithMentorView> = {}): ServiceWithMentorView {
  return { ...service(), mentor: mentorCard, ...overrides };
}

const today = new Date();
const SERVICE = `GET /api/services/${SERVICE_ID}`;
const slotsKey = (duration = 60) =>
  `GET /api/mentors/${MENTOR_ID}/available-slots?${new URLSearchParams({
    date: isoDate(today),
    duration: String(duration),
    timeZone: browserTimeZone(),
  })}`;

function Location() {
  return <p data-testid="location">{useLocation().pathname}</p>;
}

function renderBooking() {
  return renderWithProviders(
    <>
      <Routes>
        <Route path="/booking/:serviceId" element={<BookingPage />} />
        <Route path="*" element={null} />
      </Routes>
      <Location />
    </>,
    { client: clientWithUser(testUser), path: `/booking/${SERVICE_ID}` },
  );
}

function bodyOf(fetchMock: ReturnType<typeof mockFetch>, method: string, url: string): unknown {
  const call = fetchMock.mock.calls.find(([u, init]) => String(u) === url && init?.method === method);
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
}

async function chooseTodayAt(user: ReturnType<typeof userEvent.setup>, label: string) {
  await user.click(screen.getByRole('button', { name: new RegExp(format(today, 'EEEE, MMMM d, yyyy')) }));
  await user.click(await screen.findByRole('radio', { name: label }));
}

describe('BookingPage: the service', () => {
  it('shows title, description, price, duration and the mentor card; rating 5 out of 5 before any review', async () => {
    mockFetch({
      [SERVICE]: () =>
        jsonResponse(200, bookable({ mentor: { ...mentorCard, rating: '0.00', reviewCount: 0, totalSessions: 123 } })),
    });
    renderBooking();
    expect(await screen.findByRole('heading', { level: 1, name: 'Birth Chart Reading' })).toBeInTheDocument();
    expect(screen.getByText('A full reading of your natal chart and its themes.')).toBeInTheDocument();
    expect(screen.getByText('$75.00')).toBeInTheDocument();
    expect(screen.getByText('60 minutes')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Luna Starweaver' })).toBeInTheDocument();
    expect(screen.getByText(/I have read the stars/)).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Rated 5.0 out of 5' })).toBeInTheDocument();
    expect(screen.getByText('5.0 out of 5')).toBeInTheDocument();
    expect(screen.getByText('123').parentElement).toHaveTextContent('123 sessions');
    // Initials stand in for a missing photo.
    expect(screen.getByText('LS')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Continue to Payment/ })).toBeInTheDocument();
  });

  it("shows the mentor's own rating once there are reviews, and 'Free' for a price of 0.00", async () => {
    mockFetch({ [SERVICE]: () => jsonResponse(200, bookable({ price: '0.00' })) });
    renderBooking();
    expect(await screen.findByText('Free')).toBeInTheDocument();
    expect(screen.getByText('4.8 out of 5')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Book Free Session/ })).toBeInTheDocument();
  });

  it("sends a group service to its mentor's group sessions", async () => {
    mockFetch({ [SERVICE]: () => jsonResponse(200, bookable({ isGroupSession: true, maxParticipants: 8 })) });
    renderBooking();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/group-sessions'));
  });

  it("shows 'Service Not Found' for a missing service", async () => {
    mockFetch({ [SERVICE]: () => jsonResponse(404, { message: 'Service not found' }, 'Not Found') });
    renderBooking();
    expect(await screen.findByRole('heading', { name: 'Service Not Found' })).toBeInTheDocument();
    expect(
      screen.getByText("The service you're looking for doesn't exist or is no longer available."),
    ).toBeInTheDocument();
  });

  it('goes to /auth when the service load answers 401 Unauthorized', async () => {
    mockFetch({
      [SERVICE]: () => jsonResponse(401, { code: 'unauthorized', message: 'Unauthorized' }, 'Unauthorized'),
    });
    renderBooking();
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('/auth'));
    expect(screen.queryByText('Service Not Found')).not.toBeInTheDocument();
  });
});

describe('BookingPage: scheduling', () => {
  it("says 'Please select a date and time' when continuing without a choice, and books nothing", async () => {
    const fetchMock = mockFetch({ [SERVICE]: () => jsonResponse(200, bookable()) });
    renderBooking();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Continue to Payment/ }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select a date and time');
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });

  it("a free service is booked at once: 'Free Session Booked!' and /dashboard after 1.5 s", async () => {
    const fetchMock = mockFetch({
      [SERVICE]: () => jsonResponse(200, bookable({ price: '0.00' })),
      [slotsKey()]: () => jsonResponse(200, ['09:00', '09:30']),
      'POST /api/reservations': () =>
        jsonResponse(201, { freeBooking: true, booking: { id: 'b1' }, reservation: null, expiresAt: null }),
    });
    renderBooking();
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1 });
    await chooseTodayAt(user, '9:30 AM');
    await user.type(screen.getByLabelText('Notes for your mentor'), '  My career path  ');
    const started = Date.now();
    await user.click(screen.getByRole('button', { name: /Book Free Session/ }));

    await waitFor(() =>
      expect(success).toHaveBeenCalledWith('Free Session Booked!', {
        description: 'Your free session has been confirmed.',
      }),
    );
    expect(bodyOf(fetchMock, 'POST', '/api/reservations')).toEqual({
      serviceId: SERVICE_ID,
      mentorId: MENTOR_ID,
      scheduledAt: wallTimeToIso(isoDate(today), '09:30', browserTimeZone()),
      notes: 'My career path',
      totalAmount: '0.00',
    });
    expect(screen.getByTestId('location')).toHaveTextContent(`/booking/${SERVICE_ID}`);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'), { timeout: 4000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
  });

  it("a failed reservation shows 'Error' with the server's message", async () => {
    mockFetch({
      [SERVICE]: () => jsonResponse(200, bookable()),
      [slotsKey()]: () => jsonResponse(200, ['09:00']),
      'POST /api/reservations': () => jsonResponse(409, { message: 'This time is no longer available' }, 'Conflict'),
    });
    renderBooking();
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1 });
    await chooseTodayAt(user, '9:00 AM');
    await user.click(screen.getByRole('button', { name: /Continue to Payment/ }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Error', { description: 'This time is no longer available' }),
    );
  });

  it("a failed reservation without a message says 'Failed to create reservation'", async () => {
    mockFetch({
      [SERVICE]: () => jsonResponse(200, bookable()),
      [slotsKey()]: () => jsonResponse(200, ['09:00']),
      'POST /api/reservations': () => new Response('', { status: 500, statusText: 'Internal Server Error' }),
    });
    renderBooking();
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1 });
    await chooseTodayAt(user, '9:00 AM');
    await user.click(screen.getByRole('button', { name: /Continue to Payment/ }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Error', { description: 'Failed to create reservation' }));
  });
});

describe('BookingPage: payment', () => {
  const expiresAt = '2030-01-01T15:45:00Z';

  function paidHandlers(payment: () => Response) {
    return {
      [SERVICE]: () => jsonResponse(200, bookable()),
      [slotsKey()]: () => jsonResponse(200, ['09:00']),
      'POST /api/reservations': () =>
        jsonResponse(201, { freeBooking: false, booking: null, reservation: { id: 'res-1' }, expiresAt }),
      'POST /api/process-payment-v2': payment,
    };
  }

  async function reachPayment(user: ReturnType<typeof userEvent.setup>) {
    await screen.findByRole('heading', { level: 1 });
    await chooseTodayAt(user, '9:00 AM');
    await user.click(screen.getByRole('button', { name: /Continue to Payment/ }));
    await screen.findByRole('form', { name: 'Card payment' });
  }

  async function fillCard(user: ReturnType<typeof userEvent.setup>, card = '4111111111111111') {
    await user.type(screen.getByLabelText('Card Number'), card);
    await user.type(screen.getByLabelText('Expiry Date'), '1230');
    await user.type(screen.getByLabelText('Security Code'), '123');
    await user.type(screen.getByLabelText('First Name'), 'Ada');
    await user.type(screen.getByLabelText('Last Name'), 'Lovelace');
    await user.type(screen.getByLabelText('ZIP Code'), '10001');
  }

  it('shows the hold expiry with the 60-minute warning; Pay waits for a valid form; success goes to /dashboard', async () => {
    const fetchMock = mockFetch(
      paidHandlers(() => jsonResponse(200, { success: true, message: 'Payment approved', booking: { id: 'b1' } })),
    );
    renderBooking();
    const user = userEvent.setup();
    await reachPayment(user);

    expect(screen.getByText(`Your time is held until ${format(new Date(expiresAt), 'h:mm a')}.`)).toBeInTheDocument();
    expect(screen.getByText(/for 60 minutes/)).toBeInTheDocument();
    const pay = screen.getByRole('button', { name: /Pay \$75\.00/ });
    expect(pay).toBeDisabled();

    await user.type(screen.getByLabelText('Card Number'), '4111x1111111111112222');
    expect(screen.getByLabelText('Card Number')).toHaveValue('4111 1111 1111 1111');
    await user.type(screen.getByLabelText('Expiry Date'), '1230');
    expect(screen.getByLabelText('Expiry Date')).toHaveValue('12/30');
    await user.type(screen.getByLabelText('Security Code'), '12a345');
    expect(screen.getByLabelText('Security Code')).toHaveValue('1234');
    await user.type(screen.getByLabelText('First Name'), 'Ada');
    await user.type(screen.getByLabelText('Last Name'), 'Lovelace');
    expect(pay).toBeDisabled(); // ZIP still missing
    await user.type(screen.getByLabelText('ZIP Code'), '10001');
    expect(pay).toBeEnabled();

    await user.click(pay);
    await waitFor(() =>
      expect(success).toHaveBeenCalledWith('Payment Successful!', { description: 'Your booking has been confirmed.' }),
    );
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(bodyOf(fetchMock, 'POST', '/api/process-payment-v2')).toEqual({
      reservationId: 'res-1',
      cardNumber: '4111111111111111',
      expirationDate: '1230',
      cardCode: '1234',
      billingInfo: { firstName: 'Ada', lastName: 'Lovelace', zip: '10001' },
    });
  });

  it("a declined card shows 'Payment Failed' with the error and stays on the form", async () => {
    mockFetch(paidHandlers(() => jsonResponse(200, { success: false, error: 'Card declined', message: 'Declined' })));
    renderBooking();
    const user = userEvent.setup();
    await reachPayment(user);
    await fillCard(user, '4000000000000002');
    await user.click(screen.getByRole('button', { name: /Pay/ }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Payment Failed', { description: 'Card declined' }));
    expect(screen.getByRole('form', { name: 'Card payment' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(`/booking/${SERVICE_ID}`);
    expect(screen.getByRole('button', { name: /Pay/ })).toBeEnabled();
    // The decline stays on the form, with what to do next.
    expect(screen.getByText('Payment Failed: Card declined')).toBeInTheDocument();
    expect(screen.getByText(DECLINED_NEXT_STEP)).toBeInTheDocument();
  });

  it('refuses a past expiry or a month over 12 inline, before Pay is enabled', async () => {
    mockFetch(paidHandlers(() => jsonResponse(200, { success: true })));
    renderBooking();
    const user = userEvent.setup();
    await reachPayment(user);
    await fillCard(user, '4111111111111111');
    const expiry = screen.getByLabelText('Expiry Date');
    await user.clear(expiry);
    await user.type(expiry, '1320');
    expect(screen.getByText('Enter a month from 01 to 12')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Pay/ })).toBeDisabled();
    await user.clear(expiry);
    await user.type(expiry, '0120');
    expect(screen.getByText('This card has expired')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Pay/ })).toBeDisabled();
  });

  it("a decline without texts says 'Payment could not be processed'", async () => {
    mockFetch(paidHandlers(() => jsonResponse(200, { success: false })));
    renderBooking();
    const user = userEvent.setup();
    await reachPayment(user);
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /Pay/ }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Payment Failed', { description: 'Payment could not be processed' }),
    );
  });

  it("a failed call shows 'Payment Error'", async () => {
    mockFetch(paidHandlers(() => new Response('', { status: 500, statusText: 'Internal Server Error' })));
    renderBooking();
    const user = userEvent.setup();
    await reachPayment(user);
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /Pay/ }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Payment Error', {
        description: 'An error occurred while processing payment',
      }),
    );
    expect(screen.getByRole('form', { name: 'Card payment' })).toBeInTheDocument();
  });

  it('an expired hold (409) returns to choosing a time', async () => {
    mockFetch(
      paidHandlers(() =>
        jsonResponse(409, { message: 'This reservation has expired. Please choose a time again.' }, 'Conflict'),
      ),
    );
    renderBooking();
    const user = userEvent.setup();
    await reachPayment(user);
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: /Pay/ }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Payment Error', {
        description: 'This reservation has expired. Please choose a time again.',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Choose a time' })).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Booking steps' })).getByText('Schedule')).toBeInTheDocument();
  });
});

describe('BookingPage: an unfinished checkout', () => {
  const expiresAt = '2030-01-01T15:45:00Z';
  const scheduledAt = '2030-01-02T09:00:00Z';
  const held = {
    id: 'res-9',
    scheduledAt,
    expiresAt,
    totalAmount: '75.00',
    notes: null,
    mentor: mentorCard,
    service: service(),
  };

  function renderAt(path: string) {
    return renderWithProviders(
      <>
        <Routes>
          <Route path="/booking/:serviceId" element={<BookingPage />} />
          <Route path="*" element={null} />
        </Routes>
        <Location />
      </>,
      { client: clientWithUser(testUser), path },
    );
  }

  it('?reservation={id} opens the payment step of that hold', async () => {
    mockFetch({
      [SERVICE]: () => jsonResponse(200, bookable()),
      'GET /api/reservations/res-9': () => jsonResponse(200, held),
      'GET /api/user/reservations': () => jsonResponse(200, [held]),
    });
    renderAt(`/booking/${SERVICE_ID}?reservation=res-9`);
    expect(await screen.findByRole('form', { name: 'Card payment' })).toBeInTheDocument();
    expect(screen.getByText(`Your time is held until ${format(new Date(expiresAt), 'h:mm a')}.`)).toBeInTheDocument();
  });

  it('a hold that is gone says so and offers the times again', async () => {
    mockFetch({
      [SERVICE]: () => jsonResponse(200, bookable()),
      'GET /api/reservations/res-9': () => jsonResponse(404, { message: 'Reservation Not Found' }, 'Not Found'),
      'GET /api/user/reservations': () => jsonResponse(200, []),
    });
    renderAt(`/booking/${SERVICE_ID}?reservation=res-9`);
    expect(
      await screen.findByText('This reservation has expired or was already paid. Please choose a time again.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Choose a time' })).toBeInTheDocument();
  });

  it('picking again names the hold it replaces', async () => {
    const fetchMock = mockFetch({
      [SERVICE]: () => jsonResponse(200, bookable()),
      'GET /api/user/reservations': () => jsonResponse(200, [held]),
      [slotsKey()]: () => jsonResponse(200, ['09:00']),
      'POST /api/reservations': () =>
        jsonResponse(201, { freeBooking: false, booking: null, reservation: { id: 'res-10' }, expiresAt }),
    });
    renderAt(`/booking/${SERVICE_ID}`);
    expect(await screen.findByText(/You are holding/)).toBeInTheDocument();
    const user = userEvent.setup();
    await chooseTodayAt(user, '9:00 AM');
    await user.click(screen.getByRole('button', { name: /Continue to Payment/ }));
    await screen.findByRole('form', { name: 'Card payment' });
    expect(bodyOf(fetchMock, 'POST', '/api/reservations')).toMatchObject({ replacesReservationId: 'res-9' });
  });

  it("'Release this time' releases the hold and returns to the times", async () => {
    let released = false;
    const fetchMock = mockFetch({
      [SERVICE]: () => jsonResponse(200, bookable()),
      'GET /api/reservations/res-9': () =>
        released ? jsonResponse(404, { message: 'Reservation Not Found' }, 'Not Found') : jsonResponse(200, held),
      'GET /api/user/reservations': () => jsonResponse(200, released ? [] : [held]),
      'DELETE /api/reservations/res-9': () => {
        released = true;
        return jsonResponse(200, { message: 'Reservation released' });
      },
    });
    renderAt(`/booking/${SERVICE_ID}?reservation=res-9`);
    const user = userEvent.setup();
    // Generous waits: the hold loads, then the release answers, before each step shows.
    await screen.findByRole('form', { name: 'Card payment' }, { timeout: 5_000 });
    await user.click(screen.getByRole('button', { name: 'Release this time' }));
    expect(await screen.findByRole('heading', { name: 'Choose a time' }, { timeout: 5_000 })).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(([u, init]) => String(u) === '/api/reservations/res-9' && init?.method === 'DELETE'),
    ).toBe(true);
    expect(success).toHaveBeenCalledWith('Reservation released', { description: 'The time is free again.' });
    // The hold's reload (now gone) does not bring the payment step back.
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([u]) => String(u) === '/api/reservations/res-9').length).toBeGreaterThan(2),
    );
    expect(screen.getByRole('heading', { name: 'Choose a time' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Card payment' })).not.toBeInTheDocument();
  });
});

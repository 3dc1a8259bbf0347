import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as navigation from '@/lib/navigation';
import { mentor, MENTOR_ID } from '@/testing/catalogue-fixtures';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { OnboardingPage, progressPercent } from './onboarding-page';

afterEach(() => vi.unstubAllGlobals());
beforeEach(() => {
  vi.spyOn(navigation, 'hardNavigate').mockImplementation(() => {});
});

function renderWizard(user: typeof testUser | null = testUser) {
  return renderWithProviders(
    <Routes>
      <Route path="/become-mentor" element={<OnboardingPage />} />
      <Route path="/mentor-dashboard" element={<h1>Dashboard here</h1>} />
    </Routes>,
    { client: clientWithUser(user), path: '/become-mentor' },
  );
}

function bodies(fetchMock: ReturnType<typeof mockFetch>, method: string, path: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([url, init]) => url === path && (init as RequestInit | undefined)?.method === method)
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)));
}

const BIO = 'I have read the stars for twenty years and love helping people see their path.';

async function fillProfile(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Display Name'), 'Luna Starweaver');
  await user.click(screen.getByLabelText('Bio'));
  await user.paste(BIO);
  await user.click(screen.getByRole('checkbox', { name: 'Astrology' }));
  await user.click(screen.getByRole('checkbox', { name: 'Tarot Reading' }));
  await user.type(screen.getByLabelText('Base Price (USD)'), '50');
}

describe('onboarding wizard', () => {
  it('computes the progress', () => {
    expect([1, 2, 3].map(progressPercent)).toEqual([33, 67, 100]);
  });

  it('sends a signed-out visitor to /api/login', () => {
    mockFetch();
    renderWizard(null);
    expect(navigation.hardNavigate).toHaveBeenCalledWith('/api/login');
  });

  it('redirects an existing mentor to /mentor-dashboard', async () => {
    mockFetch({ 'GET /api/mentor/profile': () => jsonResponse(200, mentor()) });
    renderWizard();
    expect(await screen.findByRole('heading', { name: 'Dashboard here' })).toBeInTheDocument();
  });

  it("shows the spec's messages for an empty profile and sends nothing", async () => {
    const fetchMock = mockFetch({ 'GET /api/mentor/profile': () => jsonResponse(404, { message: 'Mentor profile not found' }) });
    renderWizard();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    for (const text of [
      'Display name must be at least 2 characters',
      'Bio must be at least 50 characters',
      'Please select at least one specialty',
      'Base price is required',
    ]) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }
    expect(screen.getByText('Step 1 of 3')).toBeInTheDocument();
    expect(screen.getByText('33% complete')).toBeInTheDocument();
    expect(bodies(fetchMock, 'POST', '/api/mentors')).toEqual([]);

    await user.type(screen.getByLabelText('Profile Image URL (optional)'), 'not a url');
    expect(screen.getByText('Please enter a valid image URL')).toBeInTheDocument();
  });

  it('creates the profile, then the services in parallel, then completes', async () => {
    let isMentor = false;
    const fetchMock = mockFetch({
      'GET /api/mentor/profile': () => (isMentor ? jsonResponse(200, mentor()) : jsonResponse(404, { message: 'Mentor profile not found' })),
      'GET /api/auth/user': () => jsonResponse(200, { ...testUser, role: 'mentor' }),
      'POST /api/mentors': () => {
        isMentor = true;
        return jsonResponse(201, mentor({ services: [] }));
      },
      'POST /api/services': (_url, init) => {
        const body = JSON.parse(String(init?.body));
        return jsonResponse(201, { ...body, id: crypto.randomUUID(), isActive: true, createdAt: '2026-01-01T00:00:00Z' });
      },
    });
    renderWizard();
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Continue' });
    expect(screen.getByLabelText('Time Zone')).toHaveValue(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(screen.getByText('0/500')).toBeInTheDocument();
    await fillProfile(user);
    expect(screen.getByText(`${BIO.length}/500`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('Step 2 of 3')).toBeInTheDocument();
    expect(screen.getByText('67% complete')).toBeInTheDocument();
    expect(bodies(fetchMock, 'POST', '/api/mentors')).toEqual([
      {
        displayName: 'Luna Starweaver',
        bio: BIO,
        specialties: ['Astrology', 'Tarot Reading'],
        basePrice: '50.00',
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
    ]);
    // The new profile does not send the wizard away to the dashboard.
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/auth/user', expect.anything()));
    expect(screen.queryByRole('heading', { name: 'Dashboard here' })).not.toBeInTheDocument();

    // Step 2: the empty form is refused with the spec's messages.
    await user.clear(screen.getByLabelText('Duration (minutes)'));
    await user.click(screen.getByRole('button', { name: 'Complete Setup' }));
    for (const text of [
      'Service title must be at least 3 characters',
      'Description must be at least 20 characters',
      'Please choose a service type',
      'Price is required',
      'Duration is required',
    ]) {
      expect(screen.getByText(text)).toBeInTheDocument();
    }

    await user.type(screen.getByLabelText('Service Title'), 'Birth Chart Reading');
    await user.type(screen.getByLabelText('Description'), 'A full reading of your natal chart.');
    await user.selectOptions(screen.getByLabelText('Service Type'), 'Astrology');
    await user.type(screen.getByLabelText('Price (USD)'), '75');
    await user.type(screen.getByLabelText('Duration (minutes)'), '60');

    await user.click(screen.getByRole('button', { name: 'Add Another Service' }));
    const titles = screen.getAllByLabelText('Service Title');
    expect(titles).toHaveLength(2);
    await user.type(titles[1], 'Tarot Spread');
    await user.type(screen.getAllByLabelText('Description')[1], 'Three cards for the question on your mind.');
    await user.selectOptions(screen.getAllByLabelText('Service Type')[1], 'Tarot');
    await user.type(screen.getAllByLabelText('Price (USD)')[1], '0');

    await user.click(screen.getByRole('button', { name: 'Complete Setup' }));
    expect(await screen.findByText('Step 3 of 3')).toBeInTheDocument();
    expect(screen.getByText('100% complete')).toBeInTheDocument();
    expect(bodies(fetchMock, 'POST', '/api/services')).toEqual([
      {
        title: 'Birth Chart Reading',
        description: 'A full reading of your natal chart.',
        serviceType: 'astrology',
        price: '75.00',
        duration: 60,
        mentorId: MENTOR_ID,
      },
      {
        title: 'Tarot Spread',
        description: 'Three cards for the question on your mind.',
        serviceType: 'tarot',
        price: '0.00',
        duration: 60,
        mentorId: MENTOR_ID,
      },
    ]);
    expect(screen.getByRole('link', { name: 'Go to Mentor Dashboard' })).toHaveAttribute('href', '/mentor-dashboard');
    expect(screen.getByRole('link', { name: 'View Your Profile' })).toHaveAttribute('href', '/mentors');
  }, 30_000);

  it("shows 'Failed to create mentor profile' in a 'Something went wrong' card", async () => {
    mockFetch({
      'GET /api/mentor/profile': () => jsonResponse(404, { message: 'Mentor profile not found' }),
      'POST /api/mentors': () => new Response('', { status: 500, statusText: 'Internal Server Error' }),
    });
    renderWizard();
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Continue' });
    await fillProfile(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong');
    expect(alert).toHaveTextContent('Failed to create mentor profile');
    expect(screen.getByText('Step 1 of 3')).toBeInTheDocument();
  }, 30_000);

  it("keeps the services that were created and retries only the failed one ('Failed to create service')", async () => {
    let calls = 0;
    const fetchMock = mockFetch({
      'GET /api/mentor/profile': () => jsonResponse(404, { message: 'Mentor profile not found' }),
      'GET /api/auth/user': () => jsonResponse(200, testUser),
      'POST /api/mentors': () => jsonResponse(201, mentor({ services: [] })),
      'POST /api/services': (_url, init) => {
        calls += 1;
        const body = JSON.parse(String(init?.body));
        if (calls === 1) return new Response('', { status: 500, statusText: 'Internal Server Error' });
        return jsonResponse(201, { ...body, id: crypto.randomUUID(), isActive: true, createdAt: '2026-01-01T00:00:00Z' });
      },
    });
    renderWizard();
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Continue' });
    await fillProfile(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByText('Step 2 of 3');
    await user.type(screen.getByLabelText('Service Title'), 'Birth Chart Reading');
    await user.type(screen.getByLabelText('Description'), 'A full reading of your natal chart.');
    await user.selectOptions(screen.getByLabelText('Service Type'), 'Astrology');
    await user.type(screen.getByLabelText('Price (USD)'), '75');
    await user.click(screen.getByRole('button', { name: 'Complete Setup' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong');
    expect(alert).toHaveTextContent('Failed to create service');
    await user.click(screen.getByRole('button', { name: 'Complete Setup' }));
    expect(await screen.findByText('Step 3 of 3')).toBeInTheDocument();
    expect(bodies(fetchMock, 'POST', '/api/services')).toHaveLength(2);
  }, 30_000);
});

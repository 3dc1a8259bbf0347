import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as navigation from '@/lib/navigation';
import { mentor, MENTOR_ID, service } from '@/testing/catalogue-fixtures';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { OnboardingPage } from './onboarding-page';
import { progressPercent } from './steps';

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

/** A user who has a mentor profile already (the user view says so). */
const mentorUser = { ...testUser, role: 'mentor' as const, isMentor: true };

const WINDOW = { id: 'a-1', dayOfWeek: 1, startTime: '09:00', endTime: '17:00', isActive: true };

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
    expect([1, 2, 3, 4].map(progressPercent)).toEqual([25, 50, 75, 100]);
  });

  it('sends a signed-out visitor to /api/login', () => {
    mockFetch();
    renderWizard(null);
    expect(navigation.hardNavigate).toHaveBeenCalledWith('/api/login');
  });

  it('redirects a mentor who is set up (an active service and weekly hours) to /mentor-dashboard', async () => {
    mockFetch({
      'GET /api/mentor/profile': () => jsonResponse(200, mentor()),
      'GET /api/mentor/availability': () => jsonResponse(200, [WINDOW]),
    });
    renderWizard(mentorUser);
    expect(await screen.findByRole('heading', { name: 'Dashboard here' })).toBeInTheDocument();
  });

  it('resumes a mentor who left after the profile at step 2, and Back changes the profile', async () => {
    const fetchMock = mockFetch({
      'GET /api/mentor/profile': () => jsonResponse(200, mentor({ services: [] })),
      'GET /api/mentor/availability': () => jsonResponse(200, []),
      'PUT /api/mentor/profile': (_url, init) =>
        jsonResponse(200, mentor({ services: [], ...JSON.parse(String(init?.body)) })),
    });
    renderWizard(mentorUser);
    const user = userEvent.setup();
    expect(await screen.findByText('Step 2 of 4')).toBeInTheDocument();
    expect(screen.getByLabelText('Service Title')).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByText('Step 1 of 4')).toBeInTheDocument();
    expect(screen.getByLabelText('Display Name')).toHaveValue(mentor().displayName);
    await user.clear(screen.getByLabelText('Display Name'));
    await user.type(screen.getByLabelText('Display Name'), 'Luna Renamed');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Step 2 of 4')).toBeInTheDocument();
    expect(bodies(fetchMock, 'PUT', '/api/mentor/profile')).toEqual([
      expect.objectContaining({ displayName: 'Luna Renamed' }),
    ]);
    expect(bodies(fetchMock, 'POST', '/api/mentors')).toEqual([]);
  });

  it('resumes a mentor with a service but no weekly hours at step 3, with the services made shown after Back', async () => {
    mockFetch({
      'GET /api/mentor/profile': () => jsonResponse(200, mentor()),
      'GET /api/mentor/availability': () => jsonResponse(200, []),
    });
    renderWizard(mentorUser);
    const user = userEvent.setup();
    expect(await screen.findByText('Step 3 of 4')).toBeInTheDocument();
    expect(screen.getByText('75% complete')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(screen.getByText('Step 2 of 4')).toBeInTheDocument();
    expect(screen.getByText('Created')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Step 3 of 4')).toBeInTheDocument();
  });

  it("shows the spec's messages for an empty profile and sends nothing", async () => {
    const fetchMock = mockFetch({
      'GET /api/mentor/profile': () => jsonResponse(404, { message: 'Mentor profile not found' }),
    });
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
    expect(screen.getByText('Step 1 of 4')).toBeInTheDocument();
    expect(screen.getByText('25% complete')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Back' })).not.toBeInTheDocument();
    expect(bodies(fetchMock, 'POST', '/api/mentors')).toEqual([]);

    // The image is an upload of ours: there is no address to type.
    expect(screen.queryByRole('textbox', { name: /image/i })).not.toBeInTheDocument();
  });

  it('uploads the chosen image and sends the address the upload answered', async () => {
    const uploaded = `/uploads/${'c0'.repeat(16)}.png`;
    const fetchMock = mockFetch({
      'GET /api/mentor/profile': () => jsonResponse(404, { message: 'Mentor profile not found' }),
      'POST /api/user/profile-image': () => jsonResponse(200, { imageUrl: uploaded }),
      'POST /api/mentors': () => jsonResponse(201, mentor({ profileImageUrl: uploaded })),
    });
    renderWizard();
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Continue' });
    await fillProfile(user);
    await user.upload(
      screen.getByLabelText('Profile Image (optional)'),
      new File(['png'], 'me.png', { type: 'image/png' }),
    );
    expect(await screen.findByRole('button', { name: /Change Photo/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByText('Step 2 of 4');
    expect(bodies(fetchMock, 'POST', '/api/mentors')).toEqual([expect.objectContaining({ profileImageUrl: uploaded })]);
  });

  it('goes on to step 2 even when the hours load before the signed-in user reloads', async () => {
    let isMentor = false;
    let hoursAsked = false;
    let releaseUser: () => void = () => {};
    mockFetch({
      'GET /api/mentor/profile': () =>
        isMentor
          ? jsonResponse(200, mentor({ services: [] }))
          : jsonResponse(404, { message: 'Mentor profile not found' }),
      'GET /api/mentor/availability': () => {
        hoursAsked = isMentor;
        return jsonResponse(200, []);
      },
      // The user reloads last: the profile and then the hours are in before it.
      'GET /api/auth/user': () =>
        new Promise<Response>((resolve) => {
          releaseUser = () => resolve(jsonResponse(200, { ...testUser, role: 'mentor', isMentor: true }));
        }),
      'POST /api/mentors': () => {
        isMentor = true;
        return jsonResponse(201, mentor({ services: [] }));
      },
    });
    renderWizard();
    const user = userEvent.setup();
    expect(await screen.findByText('Step 1 of 4')).toBeInTheDocument();
    await fillProfile(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    // The hours load while the user is still reloading; step 1 must stay mounted meanwhile.
    await waitFor(() => expect(hoursAsked).toBe(true));
    releaseUser();
    expect(await screen.findByText('Step 2 of 4')).toBeInTheDocument();
  });

  it('creates the profile, then the services in parallel, then the weekly hours, then completes', async () => {
    let isMentor = false;
    let services: unknown[] = [];
    const fetchMock = mockFetch({
      'GET /api/mentor/profile': () =>
        isMentor
          ? jsonResponse(200, mentor({ services: services as never }))
          : jsonResponse(404, { message: 'Mentor profile not found' }),
      'GET /api/mentor/availability': () => jsonResponse(200, []),
      'POST /api/mentor/availability/bulk': (_url, init) => {
        const body = JSON.parse(String(init?.body));
        return jsonResponse(
          201,
          body.daysOfWeek.map((d: number) => ({ ...WINDOW, dayOfWeek: d })),
        );
      },
      'GET /api/auth/user': () => jsonResponse(200, { ...testUser, role: 'mentor', isMentor: true }),
      'POST /api/mentors': () => {
        isMentor = true;
        return jsonResponse(201, mentor({ services: [] }));
      },
      'POST /api/services': (_url, init) => {
        const body = JSON.parse(String(init?.body));
        const created = service({ ...body, id: crypto.randomUUID(), isActive: true });
        services = [...services, created];
        return jsonResponse(201, created);
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

    expect(await screen.findByText('Step 2 of 4')).toBeInTheDocument();
    expect(screen.getByText('50% complete')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
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
    await user.click(screen.getByRole('button', { name: 'Continue' }));
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

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Step 3 of 4')).toBeInTheDocument();
    expect(screen.getByText('75% complete')).toBeInTheDocument();
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

    // Step 3: nothing chosen is refused; presets fill ranges that stay editable.
    await user.click(screen.getByRole('button', { name: 'Complete Setup' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Add at least one time range: pick a preset or add your own');
    const presets = screen.getByRole('group', { name: 'Presets' });
    expect(
      within(presets)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Weekdays 9-17', 'Evenings 17-21', 'Weekends 10-16']);
    await user.click(within(presets).getByRole('button', { name: 'Weekdays 9-17' }));
    await user.click(within(presets).getByRole('button', { name: 'Weekends 10-16' }));
    const first = screen.getByRole('group', { name: 'Days for range 1' });
    expect(within(first).getByRole('checkbox', { name: 'Friday' })).toBeChecked();
    await user.click(within(first).getByRole('checkbox', { name: 'Friday' }));
    await user.selectOptions(screen.getByLabelText('Until (range 1)'), '6:00 PM');
    await user.click(screen.getByRole('button', { name: 'Complete Setup' }));

    expect(await screen.findByText('Step 4 of 4')).toBeInTheDocument();
    expect(screen.getByText('100% complete')).toBeInTheDocument();
    expect(bodies(fetchMock, 'POST', '/api/mentor/availability/bulk')).toEqual([
      { daysOfWeek: [1, 2, 3, 4], startTime: '09:00', endTime: '18:00' },
      { daysOfWeek: [0, 6], startTime: '10:00', endTime: '16:00' },
    ]);
    expect(screen.getByRole('link', { name: 'Go to Mentor Dashboard' })).toHaveAttribute('href', '/mentor-dashboard');
    // Their own page (visible to them while it awaits review), not the catalogue that does not list them yet.
    expect(screen.getByRole('link', { name: 'View Your Profile' })).toHaveAttribute('href', `/mentor/${MENTOR_ID}`);
    expect(screen.queryByRole('heading', { name: 'Dashboard here' })).not.toBeInTheDocument();
  }, 30_000);

  it('refuses overlapping ranges, and after a refusal sends only the ranges not yet saved', async () => {
    let call = 0;
    const fetchMock = mockFetch({
      'GET /api/mentor/profile': () => jsonResponse(200, mentor()),
      'GET /api/mentor/availability': () => jsonResponse(200, []),
      'POST /api/mentor/availability/bulk': () => {
        call += 1;
        return call === 2
          ? jsonResponse(409, { message: 'This time overlaps your availability on that day' })
          : jsonResponse(201, [WINDOW]);
      },
    });
    renderWizard(mentorUser);
    const user = userEvent.setup();
    await screen.findByText('Step 3 of 4');
    const presets = screen.getByRole('group', { name: 'Presets' });
    await user.click(within(presets).getByRole('button', { name: 'Weekdays 9-17' }));
    await user.click(screen.getByRole('button', { name: 'Add a Time Range' }));
    await user.click(
      within(screen.getByRole('group', { name: 'Days for range 2' })).getByRole('checkbox', { name: 'Monday' }),
    );
    await user.click(screen.getByRole('button', { name: 'Complete Setup' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Two ranges overlap on Monday');
    expect(bodies(fetchMock, 'POST', '/api/mentor/availability/bulk')).toEqual([]);

    await user.selectOptions(screen.getByLabelText('From (range 2)'), '5:00 PM');
    await user.selectOptions(screen.getByLabelText('Until (range 2)'), '9:00 PM');
    await user.click(screen.getByRole('button', { name: 'Complete Setup' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to save availability');
    expect(alert).toHaveTextContent('This time overlaps your availability on that day');
    expect(screen.getByText('Saved')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Complete Setup' }));
    expect(await screen.findByText('Step 4 of 4')).toBeInTheDocument();
    expect(bodies(fetchMock, 'POST', '/api/mentor/availability/bulk')).toEqual([
      { daysOfWeek: [1, 2, 3, 4, 5], startTime: '09:00', endTime: '17:00' },
      { daysOfWeek: [1], startTime: '17:00', endTime: '21:00' },
      { daysOfWeek: [1], startTime: '17:00', endTime: '21:00' },
    ]);
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
    expect(screen.getByText('Step 1 of 4')).toBeInTheDocument();
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
        return jsonResponse(201, {
          ...body,
          id: crypto.randomUUID(),
          isActive: true,
          createdAt: '2026-01-01T00:00:00Z',
        });
      },
    });
    renderWizard();
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'Continue' });
    await fillProfile(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByText('Step 2 of 4');
    await user.type(screen.getByLabelText('Service Title'), 'Birth Chart Reading');
    await user.type(screen.getByLabelText('Description'), 'A full reading of your natal chart.');
    await user.selectOptions(screen.getByLabelText('Service Type'), 'Astrology');
    await user.type(screen.getByLabelText('Price (USD)'), '75');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong');
    expect(alert).toHaveTextContent('Failed to create service');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Step 3 of 4')).toBeInTheDocument();
    expect(bodies(fetchMock, 'POST', '/api/services')).toHaveLength(2);
  }, 30_000);
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy, Suspense } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as navigation from '@/lib/navigation';
import { mentor, MENTOR_ID } from '@/testing/catalogue-fixtures';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { SEARCH_DEBOUNCE_MS } from './filters';
import { MentorsPage } from './mentors-page';

vi.mock('sonner', () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }));

function Search() {
  return <div data-testid="search">{useLocation().search}</div>;
}

function renderPage(path = '/mentors') {
  return renderWithProviders(
    <Routes>
      <Route
        path="/mentors"
        element={
          <>
            <MentorsPage />
            <Search />
          </>
        }
      />
    </Routes>,
    { client: clientWithUser(testUser), path },
  );
}

const page = (mentors = [mentor()], total = mentors.length) =>
  jsonResponse(200, { mentors, total, page: 1, pageSize: 12 });

beforeEach(() => vi.mocked(toast.success).mockClear());
afterEach(() => {
  vi.unstubAllGlobals();
  // The test with a browser router leaves its entry behind.
  window.history.replaceState(null, '', '/');
});

// Generous: these render whole pages, and the machine may be busy (2 cores).
describe('/mentors', { timeout: 20_000 }, () => {
  it('shows 6 skeleton cards while loading, then the cards', async () => {
    let answer: (r: Response) => void = () => {};
    mockFetch({
      'GET /api/mentors?page=1&pageSize=12': () => new Promise<Response>((resolve) => (answer = resolve)),
      'GET /api/user/favorites': () => jsonResponse(200, []),
    });
    renderPage();
    expect(screen.getAllByTestId('mentor-card-skeleton')).toHaveLength(6);
    answer(page());
    const link = await screen.findByRole('link', { name: 'Luna Starweaver' });
    expect(link).toHaveAttribute('href', `/mentor/${MENTOR_ID}`);
    expect(screen.queryByTestId('mentor-card-skeleton')).not.toBeInTheDocument();
    expect(screen.getByText('1 mentor found')).toBeInTheDocument();
  });

  it("shows at most two specialties, the stars and the 'From' price (the cheapest service) on a card", async () => {
    mockFetch({
      'GET /api/mentors?page=1&pageSize=12': () => page(),
      'GET /api/user/favorites': () => jsonResponse(200, []),
    });
    renderPage();
    const list = await screen.findByRole('list', { name: 'Specialties' });
    expect(within(list).getByText('Astrology')).toBeInTheDocument();
    expect(within(list).getByText('Tarot Reading')).toBeInTheDocument();
    expect(within(list).queryByText('Numerology')).not.toBeInTheDocument();
    expect(within(list).getByText('+1 more')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Rated 4.8 out of 5' })).toBeInTheDocument();
    expect(screen.getByText('From $50.00')).toBeInTheDocument();
  });

  it('reads the service chip from ?service= and sends it to the api', async () => {
    const fetchMock = mockFetch({
      'GET /api/mentors?service=tarot&page=1&pageSize=12': () => page(),
      'GET /api/mentors?page=1&pageSize=12': () => page([]),
      'GET /api/user/favorites': () => jsonResponse(200, []),
    });
    renderPage('/mentors?service=tarot');
    expect(await screen.findByRole('link', { name: 'Luna Starweaver' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Tarot' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(screen.getByRole('button', { name: 'All Services' }));
    expect(screen.getByTestId('search')).toHaveTextContent(/^$/);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/mentors?page=1&pageSize=12', expect.anything()));
  });

  it('writes a chip to ?service=', async () => {
    mockFetch({
      'GET /api/mentors?page=1&pageSize=12': () => page(),
      'GET /api/user/favorites': () => jsonResponse(200, []),
    });
    renderPage();
    await screen.findByRole('link', { name: 'Luna Starweaver' });
    await userEvent.click(screen.getByRole('button', { name: 'Energy Healing' }));
    expect(screen.getByTestId('search')).toHaveTextContent('?service=energy_healing');
  });

  it('debounces the search box into ?search=', async () => {
    const fetchMock = mockFetch({
      'GET /api/mentors?page=1&pageSize=12': () => page(),
      'GET /api/mentors?search=luna&page=1&pageSize=12': () => page(),
      'GET /api/user/favorites': () => jsonResponse(200, []),
    });
    renderPage();
    await screen.findByRole('link', { name: 'Luna Starweaver' });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search mentors' }), 'luna');
    expect(screen.getByTestId('search')).toHaveTextContent(/^$/);
    await waitFor(() => expect(screen.getByTestId('search')).toHaveTextContent('?search=luna'));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith('/api/mentors?search=luna&page=1&pageSize=12', expect.anything()),
    );
    // One search call for the whole word, not one per letter.
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('search=')).length).toBe(1);
  });

  it("a search still pausing when a card is clicked does not bring the visitor back from the mentor's page", async () => {
    mockFetch({
      'GET /api/mentors?page=1&pageSize=12': () => page(),
      'GET /api/user/favorites': () => jsonResponse(200, []),
    });
    // The mentor's page code never arrives: the router keeps showing this page meanwhile, as a
    // browser does while the chunk loads.
    const MentorPage = lazy(() => new Promise<never>(() => {}));
    window.history.replaceState(null, '', '/mentors');
    render(
      <QueryClientProvider client={clientWithUser(testUser)}>
        <BrowserRouter>
          <Suspense fallback="Loading">
            <Routes>
              <Route path="/mentors" element={<MentorsPage />} />
              <Route path="/mentor/:id" element={<MentorPage />} />
            </Routes>
          </Suspense>
        </BrowserRouter>
      </QueryClientProvider>,
    );
    const card = await screen.findByRole('link', { name: 'Luna Starweaver' });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Search mentors' }), 'luna');
    await userEvent.click(card);
    expect(window.location.pathname).toBe(`/mentor/${MENTOR_ID}`);
    // Past the search's pause: still at the mentor's address.
    await new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS * 2));
    expect(window.location.pathname).toBe(`/mentor/${MENTOR_ID}`);
    expect(window.location.search).toBe('');
  });

  it("shows 'Unable to Load Mentors' with a Retry that reloads the page", async () => {
    const reload = vi.spyOn(navigation, 'reloadPage').mockImplementation(() => {});
    mockFetch({
      'GET /api/mentors?page=1&pageSize=12': () => jsonResponse(500, { message: 'boom' }),
      'GET /api/user/favorites': () => jsonResponse(200, []),
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Unable to Load Mentors' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(reload).toHaveBeenCalled();
  });

  it('pages with the total', async () => {
    mockFetch({
      'GET /api/mentors?page=1&pageSize=12': () => page([mentor()], 30),
      'GET /api/mentors?page=2&pageSize=12': () => page([mentor({ displayName: 'Second Page' })], 30),
      'GET /api/user/favorites': () => jsonResponse(200, []),
    });
    renderPage();
    expect(await screen.findByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('link', { name: 'Second Page' })).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
  });

  it("toggles a favourite with 'Added to favorites' / 'Removed from favorites'", async () => {
    let favorites: unknown[] = [];
    const fetchMock = mockFetch({
      'GET /api/mentors?page=1&pageSize=12': () => page(),
      'GET /api/user/favorites': () => jsonResponse(200, favorites),
      [`POST /api/user/favorites/${MENTOR_ID}`]: () => {
        favorites = [mentor()];
        return jsonResponse(200, { isFavorited: true, message: 'Added to favorites' });
      },
      [`DELETE /api/user/favorites/${MENTOR_ID}`]: () => {
        favorites = [];
        return jsonResponse(200, { isFavorited: false, message: 'Removed from favorites' });
      },
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Add Luna Starweaver to favorites' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Added to favorites'));
    expect(fetchMock).toHaveBeenCalledWith(
      `/api/user/favorites/${MENTOR_ID}`,
      expect.objectContaining({ method: 'POST' }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Luna Starweaver from favorites' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Removed from favorites'));
  });

  it("shows a destructive 'Error' toast when favouriting fails", async () => {
    mockFetch({
      'GET /api/mentors?page=1&pageSize=12': () => page(),
      'GET /api/user/favorites': () => jsonResponse(200, [mentor()]),
      [`DELETE /api/user/favorites/${MENTOR_ID}`]: () => jsonResponse(500, { message: 'boom' }),
      [`POST /api/user/favorites/${MENTOR_ID}`]: () => jsonResponse(500, { message: 'boom' }),
    });
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Luna Starweaver from favorites' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith('Error', { description: 'Failed to remove from favorites' }),
    );
  });
});

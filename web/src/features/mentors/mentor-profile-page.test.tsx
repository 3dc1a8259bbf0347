import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mentor, MENTOR_ID, review, service, SERVICE_ID } from '@/testing/catalogue-fixtures';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { MentorProfilePage, reviewerName } from './mentor-profile-page';

afterEach(() => vi.unstubAllGlobals());

function renderAt(id: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/mentor/:id" element={<MentorProfilePage />} />
    </Routes>,
    { client: clientWithUser(testUser), path: `/mentor/${id}` },
  );
}

const GROUP_ID = '11111111-2222-4333-8444-555555555555';

describe('/mentor/{id}', { timeout: 20_000 }, () => {
  it('tells the mentor previewing their own unapproved page that nobody else sees it', async () => {
    mockFetch({
      [`GET /api/mentors/${MENTOR_ID}`]: () =>
        jsonResponse(200, mentor({ userId: testUser.id, approvalStatus: 'pending' })),
      [`GET /api/mentors/${MENTOR_ID}/reviews`]: () => jsonResponse(200, []),
    });
    renderAt(MENTOR_ID);
    expect(await screen.findByRole('heading', { level: 1, name: 'Luna Starweaver' })).toBeInTheDocument();
    expect(
      screen.getByText('Only you can see this page: the profile awaits review and is not listed yet.'),
    ).toBeInTheDocument();
  });

  it('shows the profile, services, reviews and the side panel', async () => {
    mockFetch({
      [`GET /api/mentors/${MENTOR_ID}`]: () =>
        jsonResponse(
          200,
          mentor({
            services: [
              service(),
              service({
                id: GROUP_ID,
                title: 'New Moon Circle',
                price: '0.00',
                duration: 90,
                isGroupSession: true,
                maxParticipants: 8,
              }),
            ],
          }),
        ),
      [`GET /api/mentors/${MENTOR_ID}/reviews`]: () => jsonResponse(200, [review()]),
      [`GET /api/user/favorites/check/${MENTOR_ID}`]: () => jsonResponse(200, { isFavorited: false }),
    });
    renderAt(MENTOR_ID);
    expect(await screen.findByRole('heading', { level: 1, name: 'Luna Starweaver' })).toBeInTheDocument();

    const services = screen.getByRole('region', { name: 'Services Offered' });
    expect(services).toHaveAttribute('id', 'services');
    expect(within(services).getByRole('link', { name: 'Book Birth Chart Reading' })).toHaveAttribute(
      'href',
      `/booking/${SERVICE_ID}`,
    );
    expect(within(services).getByText('$75.00')).toBeInTheDocument();
    expect(within(services).getByText('Free')).toBeInTheDocument();
    expect(within(services).getByText('90 minutes')).toBeInTheDocument();
    expect(within(services).getByText(/Group session · up to 8/)).toBeInTheDocument();
    expect(within(services).getByRole('link', { name: 'Book New Moon Circle' })).toHaveAttribute(
      'href',
      `/group-sessions?mentor=${MENTOR_ID}`,
    );

    const reviews = screen.getByRole('region', { name: /Reviews/ });
    expect(await within(reviews).findByText('Mar 07, 2026')).toBeInTheDocument();
    expect(within(reviews).getByText('Ada L.')).toBeInTheDocument();
    expect(within(reviews).getByText('Wonderful insight.')).toBeInTheDocument();

    const panel = screen.getByRole('complementary', { name: 'Book and contact' });
    expect(within(panel).getByRole('link', { name: 'Book a Session' })).toHaveAttribute('href', '#services');
    expect(within(panel).getByRole('link', { name: 'Send Message' })).toHaveAttribute(
      'href',
      `/messages?mentor=${MENTOR_ID}`,
    );
    expect(within(panel).queryByText(/Usually responds/)).not.toBeInTheDocument();
    expect(within(panel).getByText('40')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Add to Favorites' })).toBeInTheDocument();
  });

  it("shows 'Mentor Not Found' with a link to browse mentors", async () => {
    mockFetch({ [`GET /api/mentors/${MENTOR_ID}`]: () => jsonResponse(404, { message: 'Mentor not found' }) });
    renderAt(MENTOR_ID);
    expect(await screen.findByRole('heading', { name: 'Mentor Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse Mentors' })).toHaveAttribute('href', '/mentors');
  });

  it('treats an id that is not a UUID as not found, without calling the api', async () => {
    const fetchMock = mockFetch();
    renderAt('..%2Fuser%2Ffavorites');
    expect(await screen.findByRole('heading', { name: 'Mentor Not Found' })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('names reviewers by first name and initial', () => {
    expect(reviewerName(review())).toBe('Ada L.');
    expect(reviewerName(review({ user: { firstName: 'Ada', lastName: '' } }))).toBe('Ada');
    expect(reviewerName(review({ user: { firstName: '', lastName: '' } }))).toBe('Anonymous');
  });
});

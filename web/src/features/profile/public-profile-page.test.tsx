import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { PublicProfilePage } from './public-profile-page';

afterEach(() => vi.unstubAllGlobals());

const OTHER_ID = '7d1e3c52-0d5a-4a43-9b8e-0c1f4c2d9e77';
const MENTOR_ID = '1b6f1e1a-7a4f-4a55-8d0b-5c3a9a0f2b10';

// As the api sends it (null for absent values).
const other = {
  id: OTHER_ID,
  firstName: 'Luna',
  lastName: 'Starling',
  profileImageUrl: null,
  bio: 'Tarot reader for twenty years.',
  role: 'mentor',
  isAdmin: false,
  isActive: true,
  emailVerified: true,
  createdAt: '2024-03-10T12:00:00Z',
  stripeSubscriptionId: 'sub_123',
  email: null,
};

const mentor = {
  id: MENTOR_ID,
  displayName: 'Luna the Seer',
  specialties: ['Tarot Reading', 'Astrology'],
  rating: '4.80',
  reviewCount: 12,
  totalSessions: 57,
};

function renderAt(id: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/profile/:id" element={<PublicProfilePage />} />
    </Routes>,
    { client: clientWithUser(testUser), path: `/profile/${id}` },
  );
}

describe('/profile/{id}', () => {
  it("shows another mentor's profile with the mentor facts and actions", async () => {
    mockFetch({
      [`GET /api/users/${OTHER_ID}`]: () => jsonResponse(200, other),
      [`GET /api/users/${OTHER_ID}/mentor`]: () => jsonResponse(200, mentor),
    });
    renderAt(OTHER_ID);
    expect(await screen.findByRole('heading', { level: 1, name: 'Luna Starling' })).toBeInTheDocument();
    expect(screen.getAllByText('Verified').length).toBeGreaterThan(0);
    // No paid membership exists: no 'Premium Member' badge, whatever the row says.
    expect(screen.queryByText('Premium Member')).not.toBeInTheDocument();
    expect(screen.getAllByText('Mentor').length).toBeGreaterThan(0);
    expect(screen.getByText('Member since March 2024')).toBeInTheDocument();
    expect(screen.getByText('Tarot reader for twenty years.')).toBeInTheDocument();
    expect(await screen.findByText('Tarot Reading')).toBeInTheDocument();
    expect(screen.getByText('57')).toBeInTheDocument();
    expect(screen.getByText('4.8')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Send Message' })).toHaveAttribute('href', `/messages?user=${OTHER_ID}`);
    expect(screen.getByRole('link', { name: 'View Mentor Profile' })).toHaveAttribute('href', `/mentor/${MENTOR_ID}`);
    expect(screen.getByRole('link', { name: 'Book a Session' })).toHaveAttribute('href', `/mentor/${MENTOR_ID}`);
    expect(screen.queryByRole('link', { name: 'Edit Profile' })).not.toBeInTheDocument();
    // The side panel: status, role, verified.
    const panel = screen.getByRole('complementary', { name: 'Account details' });
    expect(panel).toHaveTextContent('Active');
    expect(panel).toHaveTextContent('RoleMentor');
    expect(panel).toHaveTextContent('VerifiedYes');
  });

  it('shows my own profile with my e-mail and Edit Profile, no mentor part for a member', async () => {
    mockFetch({
      [`GET /api/users/${testUser.id}`]: () =>
        jsonResponse(200, {
          ...other,
          ...testUser,
          role: 'user',
          bio: null,
          stripeSubscriptionId: null,
          emailVerified: false,
        }),
      [`GET /api/users/${testUser.id}/mentor`]: () => jsonResponse(404, { message: 'Mentor profile not found' }),
    });
    renderAt(testUser.id);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Profile' })).toHaveAttribute('href', '/profile');
    expect(screen.queryByRole('link', { name: 'Send Message' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View Mentor Profile' })).not.toBeInTheDocument();
    expect(screen.queryByText('Premium Member')).not.toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'Account details' })).toHaveTextContent('RoleMember');
    expect(screen.getByRole('complementary', { name: 'Account details' })).toHaveTextContent('VerifiedNo');
  });

  it("offers no 'Send Message' between two seekers: conversations are between a mentor and a client", async () => {
    const seeker = { ...other, role: 'user' };
    mockFetch({
      [`GET /api/users/${OTHER_ID}`]: () => jsonResponse(200, seeker),
      [`GET /api/users/${OTHER_ID}/mentor`]: () => jsonResponse(404, { message: 'Mentor profile not found' }),
    });
    renderAt(OTHER_ID);
    expect(await screen.findByRole('heading', { level: 1, name: 'Luna Starling' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Send Message' })).not.toBeInTheDocument();
  });

  it("offers a mentor 'Send Message' to a seeker (their client)", async () => {
    const seeker = { ...other, role: 'user' };
    mockFetch({
      [`GET /api/users/${OTHER_ID}`]: () => jsonResponse(200, seeker),
      [`GET /api/users/${OTHER_ID}/mentor`]: () => jsonResponse(404, { message: 'Mentor profile not found' }),
    });
    renderWithProviders(
      <Routes>
        <Route path="/profile/:id" element={<PublicProfilePage />} />
      </Routes>,
      { client: clientWithUser({ ...testUser, isMentor: true }), path: `/profile/${OTHER_ID}` },
    );
    expect(await screen.findByRole('link', { name: 'Send Message' })).toHaveAttribute(
      'href',
      `/messages?user=${OTHER_ID}`,
    );
  });

  it("labels administrators 'Administrator'", async () => {
    mockFetch({
      [`GET /api/users/${OTHER_ID}`]: () => jsonResponse(200, { ...other, role: 'admin', isAdmin: true }),
      [`GET /api/users/${OTHER_ID}/mentor`]: () => jsonResponse(404, { message: 'Not found' }),
    });
    renderAt(OTHER_ID);
    expect(await screen.findByRole('heading', { level: 1, name: 'Luna Starling' })).toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'Account details' })).toHaveTextContent('RoleAdministrator');
  });

  it("shows 'User Not Found' with Go Home for a missing user", async () => {
    mockFetch({ [`GET /api/users/${OTHER_ID}`]: () => jsonResponse(404, { message: 'User not found' }) });
    renderAt(OTHER_ID);
    expect(await screen.findByRole('heading', { name: 'User Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
  });
});

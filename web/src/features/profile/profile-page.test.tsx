import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dataExportKeys, profileKeys, sessionKeys } from './api';
import { AUTH_USER_KEY } from '@/lib/auth';
import { clientWithUser, jsonResponse, mockFetch, renderWithProviders, testUser } from '@/testing/test-utils';
import { ProfilePage } from './profile-page';

let success: ReturnType<typeof vi.spyOn>;
let error: ReturnType<typeof vi.spyOn>;
let info: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  success = vi.spyOn(toast, 'success').mockImplementation(() => 1);
  error = vi.spyOn(toast, 'error').mockImplementation(() => 1);
  info = vi.spyOn(toast, 'info').mockImplementation(() => 1);
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const me = { ...testUser, bio: 'Stargazer.' };

/** /profile with my profile (GET /api/user/profile) already loaded. */
function renderProfile() {
  const client = clientWithUser(testUser);
  client.setQueryData(profileKeys.own(), me);
  client.setQueryData(sessionKeys.all(), []);
  client.setQueryData(dataExportKeys.all(), []);
  return { ...renderWithProviders(<ProfilePage />, { client, path: '/profile' }), client };
}

function bodyOf(call: unknown[]) {
  return JSON.parse(String((call[1] as RequestInit).body));
}

describe('/profile details', () => {
  it('loads my profile, with the bio, from GET /api/user/profile', async () => {
    mockFetch({ 'GET /api/user/profile': () => jsonResponse(200, me) });
    renderWithProviders(<ProfilePage />, { client: clientWithUser(testUser), path: '/profile' });
    expect(await screen.findByText('Stargazer.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByText('January 2025')).toBeInTheDocument();
  });

  it("offers Retry when my profile can't be loaded", async () => {
    mockFetch({ 'GET /api/user/profile': () => jsonResponse(500, { message: 'boom' }) });
    renderWithProviders(<ProfilePage />, { client: clientWithUser(testUser), path: '/profile' });
    expect(await screen.findByRole('heading', { name: 'Unable to Load Profile' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('shows the profile and toggles edit mode on and off', async () => {
    mockFetch();
    renderProfile();
    expect(screen.getByRole('heading', { level: 1, name: 'My Profile' })).toBeInTheDocument();
    expect(screen.getByText('Stargazer.')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    expect(screen.getByLabelText('First Name')).toHaveValue('Ada');
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Bio')).toHaveValue('Stargazer.');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('First Name')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Profile' })).toBeInTheDocument();
  });

  it("says 'No changes to save' and sends nothing when nothing changed", async () => {
    const fetchMock = mockFetch();
    renderProfile();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(info).toHaveBeenCalledWith('No changes to save');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('saves only the changed fields and shows the new name', async () => {
    const fetchMock = mockFetch({
      'PUT /api/user/profile': (_url, init) => jsonResponse(200, { ...me, ...JSON.parse(String(init?.body)) }),
    });
    const { client } = renderProfile();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await user.clear(screen.getByLabelText('First Name'));
    await user.type(screen.getByLabelText('First Name'), 'Augusta');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Profile updated successfully!'));
    expect(bodyOf(fetchMock.mock.calls[0])).toEqual({ firstName: 'Augusta' });
    expect(screen.getByRole('heading', { name: 'Augusta Lovelace' })).toBeInTheDocument();
    // The signed-in user (header, greeting) follows, without the bio.
    expect(client.getQueryData<{ firstName: string }>(AUTH_USER_KEY)?.firstName).toBe('Augusta');
    expect(client.getQueryData(AUTH_USER_KEY)).not.toHaveProperty('bio');
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
  });

  it('explains the verification link after an e-mail change', async () => {
    mockFetch({
      'PUT /api/user/profile': () => jsonResponse(200, { ...me, email: 'ada@new.example', emailVerified: false }),
    });
    renderProfile();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ada@new.example');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const notice = await screen.findByText(/We sent a verification link to/);
    expect(notice).toHaveTextContent('ada@new.example');
    expect(notice).toHaveTextContent('You must verify the new address before your next sign-in.');
    expect(screen.getByText('Not verified')).toBeInTheDocument();
  });

  it("shows 'Failed to update profile' with the server's reason", async () => {
    mockFetch({ 'PUT /api/user/profile': () => jsonResponse(409, { message: 'That email is already in use' }) });
    renderProfile();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Edit Profile' }));
    await user.type(screen.getByLabelText('Last Name'), '-King');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Failed to update profile', { description: 'That email is already in use' }),
    );
    expect(screen.getByRole('button', { name: 'Save Changes' })).toBeInTheDocument();
  });
});

describe('/profile image', () => {
  it('uploads a chosen image as multipart profileImage without a Content-Type of its own', async () => {
    const fetchMock = mockFetch({
      'POST /api/user/profile-image': () => jsonResponse(200, { imageUrl: '/uploads/abc.png' }),
    });
    const { client } = renderProfile();
    expect(screen.getByText(/JPG\/PNG/)).toBeInTheDocument();
    const user = userEvent.setup();
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'me.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('Profile image'), file);
    await waitFor(() => expect(success).toHaveBeenCalledWith('Profile image uploaded successfully!'));
    const init = fetchMock.mock.calls[0][1] as RequestInit;
    expect(init.body).toBeInstanceOf(FormData);
    expect((init.body as FormData).get('profileImage')).toBeInstanceOf(File);
    expect(new Headers(init.headers).has('Content-Type')).toBe(false);
    expect(screen.getByRole('img', { name: 'Your profile photo' })).toHaveAttribute('src', '/uploads/abc.png');
    expect(client.getQueryData<{ profileImageUrl: string }>(AUTH_USER_KEY)?.profileImageUrl).toBe('/uploads/abc.png');
  });

  it('refuses large and non-image files before uploading', async () => {
    const fetchMock = mockFetch();
    renderProfile();
    const user = userEvent.setup({ applyAccept: false });
    const big = new File(['x'], 'big.png', { type: 'image/png' });
    Object.defineProperty(big, 'size', { value: 5 * 1024 * 1024 + 1 });
    await user.upload(screen.getByLabelText('Profile image'), big);
    expect(screen.getByRole('alert')).toHaveTextContent('Image file must be smaller than 5MB');
    await user.upload(
      screen.getByLabelText('Profile image'),
      new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Only image files are allowed');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows 'Failed to upload image' when the server refuses", async () => {
    mockFetch({ 'POST /api/user/profile-image': () => jsonResponse(400, { message: 'Only image files are allowed' }) });
    renderProfile();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Profile image'), new File(['x'], 'a.png', { type: 'image/png' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Failed to upload image', { description: 'Only image files are allowed' }),
    );
  });
});

describe('/profile change password', () => {
  it('toggles the form, checks the passwords and changes them', async () => {
    const fetchMock = mockFetch({
      'POST /api/user/change-password': () => jsonResponse(200, { message: 'Password changed' }),
    });
    renderProfile();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    const form = screen.getByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current Password'), 'old secret');
    await user.type(within(form).getByLabelText('New Password'), 'short');
    await user.type(within(form).getByLabelText('Confirm New Password'), 'short');
    await user.click(within(form).getByRole('button', { name: 'Update Password' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Password must be at least 8 characters long');

    await user.clear(within(form).getByLabelText('New Password'));
    await user.type(within(form).getByLabelText('New Password'), 'a new secret');
    await user.click(within(form).getByRole('button', { name: 'Update Password' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('New passwords do not match');
    expect(fetchMock).not.toHaveBeenCalled();

    await user.clear(within(form).getByLabelText('Confirm New Password'));
    await user.type(within(form).getByLabelText('Confirm New Password'), 'a new secret');
    await user.click(within(form).getByRole('button', { name: 'Update Password' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Password changed successfully!'));
    expect(bodyOf(fetchMock.mock.calls[0])).toEqual({ currentPassword: 'old secret', newPassword: 'a new secret' });
    expect(screen.queryByRole('form', { name: 'Change password' })).not.toBeInTheDocument();
  });

  it("shows 'Failed to change password' and closes on Cancel", async () => {
    mockFetch({
      'POST /api/user/change-password': () => jsonResponse(400, { message: 'Current password is incorrect' }),
    });
    renderProfile();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    await user.type(screen.getByLabelText('Current Password'), 'wrong one');
    await user.type(screen.getByLabelText('New Password'), 'a new secret');
    await user.type(screen.getByLabelText('Confirm New Password'), 'a new secret');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Failed to change password', { description: 'Current password is incorrect' }),
    );
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByLabelText('Current Password')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change Password' })).toBeInTheDocument();
  });
});

describe('/profile privacy and security', () => {
  it('lists where I am signed in and signs out another device', async () => {
    const sessions = [
      {
        id: 's1',
        current: true,
        createdAt: '2026-11-01T10:00:00Z',
        lastSeenAt: '2026-11-28T10:00:00Z',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
        address: '203.0.113.9',
      },
      {
        id: 's2',
        current: false,
        createdAt: '2026-11-02T10:00:00Z',
        lastSeenAt: '2026-11-27T10:00:00Z',
        userAgent: 'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/131.0 Safari/537.36',
        address: '198.51.100.7',
      },
    ];
    const fetchMock = mockFetch({
      'GET /api/user/sessions': () => jsonResponse(200, sessions),
      'DELETE /api/user/sessions/s2': () => jsonResponse(200, { message: 'Signed out of that device' }),
    });
    const client = clientWithUser(testUser);
    client.setQueryData(profileKeys.own(), me);
    renderWithProviders(<ProfilePage />, { client, path: '/profile' });
    expect(await screen.findByText('Firefox on Linux')).toBeInTheDocument();
    expect(screen.getByText('This device')).toBeInTheDocument();
    expect(screen.getByText('Chrome on Windows')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Sign out Chrome on Windows at 198.51.100.7' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Signed out of that device'));
    expect(
      fetchMock.mock.calls.some(
        (c) => String(c[0]).endsWith('/api/user/sessions/s2') && (c[1] as RequestInit).method === 'DELETE',
      ),
    ).toBe(true);
    expect(screen.getByRole('button', { name: 'Sign out other devices' })).toBeInTheDocument();
  });
});

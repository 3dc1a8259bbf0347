import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as navigation from '@/lib/navigation';
import { jsonResponse, mockFetch, renderWithProviders } from '@/testing/test-utils';
import { AuthPage, MARKETING_OPT_IN_LABEL } from './auth-page';

let hardNavigate: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  hardNavigate = vi.spyOn(navigation, 'hardNavigate').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

function bodyOf(fetchMock: ReturnType<typeof mockFetch>, path: string): unknown {
  const call = fetchMock.mock.calls.find(([url]) => url === path);
  return call ? JSON.parse(String((call[1] as RequestInit).body)) : undefined;
}

async function signIn(email: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  return user;
}

describe('registration link', () => {
  it("/auth?mode=register opens the registration form, not 'Welcome back'", () => {
    mockFetch();
    renderWithProviders(<AuthPage />, { path: '/auth?mode=register' });
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    expect(screen.queryByText('Welcome back')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeInTheDocument();
  });
});

describe('sign in', () => {
  it('has an e-mail field, links to the password and verification pages', () => {
    mockFetch();
    renderWithProviders(<AuthPage />, { path: '/auth' });
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Email')).toBeRequired();
    expect(screen.getByLabelText('Password')).toBeRequired();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByRole('link', { name: /verification email/ })).toHaveAttribute('href', '/verify-email');
  });

  it('posts the credentials and reloads the app at /', async () => {
    const fetchMock = mockFetch({ 'POST /api/login': () => jsonResponse(200, { id: '1', email: 'a@b.co' }) });
    renderWithProviders(<AuthPage />, { path: '/auth' });
    await signIn('a@b.co', 'secret-password');
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('/'));
    expect(bodyOf(fetchMock, '/api/login')).toEqual({ email: 'a@b.co', password: 'secret-password' });
    expect(screen.getByRole('button', { name: 'Processing...' })).toBeDisabled();
  });

  it('sends an administrator to /admin after signing in', async () => {
    mockFetch({ 'POST /api/login': () => jsonResponse(200, { id: '1', email: 'a@b.co', isAdmin: true }) });
    renderWithProviders(<AuthPage />, { path: '/auth' });
    await signIn('a@b.co', 'secret-password');
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('/admin'));
  });

  it("shows 'Processing...' while submitting", async () => {
    let answer: (r: Response) => void = () => {};
    mockFetch({ 'POST /api/login': () => new Promise<Response>((resolve) => (answer = resolve)) });
    renderWithProviders(<AuthPage />, { path: '/auth' });
    await signIn('a@b.co', 'pw');
    expect(await screen.findByRole('button', { name: 'Processing...' })).toBeDisabled();
    answer(jsonResponse(401, { code: 'unauthorized', message: 'Invalid email or password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });

  it("falls back to 'Login failed'", async () => {
    mockFetch({ 'POST /api/login': () => new Response('', { status: 500, statusText: 'Internal Server Error' }) });
    renderWithProviders(<AuthPage />, { path: '/auth' });
    await signIn('a@b.co', 'pw');
    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed');
    expect(hardNavigate).not.toHaveBeenCalled();
  });

  it('offers a new verification link after a 403 for an unverified account', async () => {
    const fetchMock = mockFetch({
      'POST /api/login': () =>
        jsonResponse(403, {
          code: 'email_not_verified',
          message: 'Please verify your email address before signing in',
        }),
      'POST /api/resend-verification': () => jsonResponse(200, { message: 'Verification email sent' }),
    });
    renderWithProviders(<AuthPage />, { path: '/auth' });
    const user = await signIn('new@b.co', 'pw');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please verify your email address');
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText('Verification email sent')).toBeInTheDocument();
    expect(bodyOf(fetchMock, '/api/resend-verification')).toEqual({ email: 'new@b.co' });
  });

  it('offers no verification link to a deactivated account', async () => {
    mockFetch({
      'POST /api/login': () =>
        jsonResponse(403, { code: 'account_deactivated', message: 'This account has been deactivated' }),
    });
    renderWithProviders(<AuthPage />, { path: '/auth' });
    await signIn('old@b.co', 'pw');
    expect(await screen.findByRole('alert')).toHaveTextContent('This account has been deactivated');
    expect(screen.queryByRole('button', { name: 'Resend verification email' })).not.toBeInTheDocument();
  });

  it('decides on the code, not the words: any other 403 offers no verification link', async () => {
    mockFetch({
      'POST /api/login': () => jsonResponse(403, { code: 'forbidden', message: 'Please verify your email address' }),
    });
    renderWithProviders(<AuthPage />, { path: '/auth' });
    await signIn('other@b.co', 'pw');
    expect(await screen.findByRole('alert')).toHaveTextContent('Please verify your email address');
    expect(screen.queryByRole('button', { name: 'Resend verification email' })).not.toBeInTheDocument();
  });
});

describe('create account', () => {
  async function openRegister() {
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Register' }));
    return user;
  }

  async function fillRegister(user: ReturnType<typeof userEvent.setup>) {
    await user.type(screen.getByLabelText('First Name'), 'Ada');
    await user.type(screen.getByLabelText('Last Name'), 'Lovelace');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
  }

  it('requires every field', async () => {
    mockFetch();
    renderWithProviders(<AuthPage />, { path: '/auth' });
    await openRegister();
    for (const label of ['First Name', 'Last Name', 'Email', 'Password']) {
      expect(screen.getByLabelText(label)).toBeRequired();
    }
  });

  it("shows the server's message, clears the form and offers a new link", async () => {
    const fetchMock = mockFetch({
      'POST /api/register': () =>
        jsonResponse(201, { requiresVerification: true, message: 'Check your email to verify your account.' }),
      'POST /api/resend-verification': () => jsonResponse(200, { message: 'Sent again' }),
    });
    renderWithProviders(<AuthPage />, { path: '/auth' });
    const user = await openRegister();
    await fillRegister(user);
    expect(await screen.findByText('Check your email to verify your account.')).toBeInTheDocument();
    expect(bodyOf(fetchMock, '/api/register')).toEqual({
      email: 'ada@example.com',
      password: 'correct horse',
      firstName: 'Ada',
      lastName: 'Lovelace',
      marketingEmails: false,
    });
    expect(screen.getByLabelText('Email')).toHaveValue('');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText('Sent again')).toBeInTheDocument();
    expect(bodyOf(fetchMock, '/api/resend-verification')).toEqual({ email: 'ada@example.com' });
  });

  it('offers marketing e-mail as an unticked box, and sends what the person chose', async () => {
    const fetchMock = mockFetch({
      'POST /api/register': () => jsonResponse(201, { requiresVerification: true, message: 'Check your email.' }),
    });
    renderWithProviders(<AuthPage />, { path: '/auth' });
    const user = await openRegister();
    const box = screen.getByRole('checkbox', { name: MARKETING_OPT_IN_LABEL });
    expect(box).not.toBeChecked();
    await user.click(box);
    await fillRegister(user);
    expect(await screen.findByText('Check your email.')).toBeInTheDocument();
    expect(bodyOf(fetchMock, '/api/register')).toEqual(expect.objectContaining({ marketingEmails: true }));
    expect(screen.getByRole('checkbox', { name: MARKETING_OPT_IN_LABEL })).not.toBeChecked();
  });

  it('carries ?next= (a path of this app) into the registration, so verification brings them back', async () => {
    const fetchMock = mockFetch({
      'POST /api/register': () => jsonResponse(201, { requiresVerification: true, message: 'Check your email.' }),
    });
    renderWithProviders(<AuthPage />, { path: `/auth?mode=register&next=${encodeURIComponent('/become-mentor')}` });
    await fillRegister(userEvent.setup());
    expect(await screen.findByText('Check your email.')).toBeInTheDocument();
    expect(bodyOf(fetchMock, '/api/register')).toEqual(expect.objectContaining({ next: '/become-mentor' }));
  });

  it('never carries another site as the destination', async () => {
    const fetchMock = mockFetch({
      'POST /api/register': () => jsonResponse(201, { requiresVerification: true, message: 'Check your email.' }),
    });
    renderWithProviders(<AuthPage />, { path: `/auth?mode=register&next=${encodeURIComponent('//evil.example/x')}` });
    await fillRegister(userEvent.setup());
    expect(await screen.findByText('Check your email.')).toBeInTheDocument();
    expect(bodyOf(fetchMock, '/api/register')).not.toHaveProperty('next');
  });

  it("shows the server's rejection, or 'Registration failed'", async () => {
    let status = 409;
    mockFetch({
      'POST /api/register': () =>
        status === 409
          ? jsonResponse(409, { message: 'An account with this email already exists' })
          : new Response('', { status: 500, statusText: 'Internal Server Error' }),
    });
    renderWithProviders(<AuthPage />, { path: '/auth' });
    const user = await openRegister();
    await fillRegister(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email already exists');
    expect(screen.getByLabelText('First Name')).toHaveValue('Ada');

    status = 500;
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Registration failed'));
  });
});

describe('sign in with two factors', () => {
  it('asks for the code after the password (202), then signs in', async () => {
    let tries = 0;
    const fetchMock = mockFetch({
      'POST /api/login': () => jsonResponse(202, { twoFactorRequired: true }),
      'POST /api/login/two-factor': () =>
        ++tries === 1
          ? jsonResponse(401, { code: 'invalid_two_factor_code', message: 'Invalid two-factor code' })
          : jsonResponse(200, { id: '1', email: 'a@b.co' }),
    });
    renderWithProviders(<AuthPage />, { path: '/auth' });
    const user = await signIn('a@b.co', 'secret-password');
    const code = await screen.findByLabelText('Authentication code');
    expect(hardNavigate).not.toHaveBeenCalled();
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid two-factor code');
    await user.type(screen.getByLabelText('Authentication code'), '123 456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('/'));
    expect(bodyOf(fetchMock, '/api/login/two-factor')).toEqual({ code: '000000' });
  });

  it('takes a recovery code, and goes back to the password when the attempt ended', async () => {
    mockFetch({
      'POST /api/login': () => jsonResponse(202, { twoFactorRequired: true }),
      'POST /api/login/two-factor': () =>
        jsonResponse(401, {
          code: 'two_factor_attempt_ended',
          message: 'Your sign-in attempt has ended. Please sign in again.',
        }),
    });
    renderWithProviders(<AuthPage />, { path: '/auth' });
    const user = await signIn('a@b.co', 'secret-password');
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    await user.type(screen.getByLabelText('Recovery code'), 'ABCD-EFGH-2345-WXYZ');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your sign-in attempt has ended');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });
});

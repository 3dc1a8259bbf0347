import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTH_REDIRECT_DELAY_MS } from './constants';
import { jsonResponse, mockFetch, renderWithProviders } from '@/testing/test-utils';
import { ForgotPasswordPage } from './forgot-password-page';
import {
  INVALID_RESET_LINK,
  PASSWORDS_DO_NOT_MATCH,
  PASSWORD_TOO_SHORT,
  ResetPasswordPage,
  validateNewPassword,
} from './reset-password-page';
import { VerifyEmailPage } from './verify-email-page';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function withAuthRoute(page: React.ReactElement, path: string) {
  return renderWithProviders(
    <Routes>
      <Route path={path.split('?')[0]} element={page} />
      <Route path="/auth" element={<h1>Sign-in screen</h1>} />
    </Routes>,
    { path },
  );
}

describe('validateNewPassword', () => {
  it('needs 8 characters and a matching confirmation', () => {
    expect(validateNewPassword('1234567', '1234567')).toBe('Password must be at least 8 characters long');
    expect(PASSWORD_TOO_SHORT).toBe('Password must be at least 8 characters long');
    expect(validateNewPassword('12345678', '12345679')).toBe('Passwords do not match');
    expect(PASSWORDS_DO_NOT_MATCH).toBe('Passwords do not match');
    expect(validateNewPassword('12345678', '12345678')).toBeNull();
  });
});

describe('/forgot-password', () => {
  it("sends the address and shows the server's answer", async () => {
    const fetchMock = mockFetch({
      'POST /api/forgot-password': () =>
        jsonResponse(200, { message: 'If that address has an account, we sent a link.' }),
    });
    renderWithProviders(<ForgotPasswordPage />, { path: '/forgot-password' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByText('If that address has an account, we sent a link.')).toBeInTheDocument();
    expect(JSON.parse(String((fetchMock.mock.calls[0][1] as RequestInit).body))).toEqual({ email: 'ada@example.com' });
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/auth');
  });

  it("shows 'Failed to send reset email' or a network error", async () => {
    mockFetch({ 'POST /api/forgot-password': () => new Response('', { status: 500, statusText: 'x' }) });
    renderWithProviders(<ForgotPasswordPage />, { path: '/forgot-password' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to send reset email');

    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await user.click(screen.getByRole('button', { name: 'Send Reset Link' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Network error. Please try again.'));
  });
});

describe('/reset-password', () => {
  it('explains a link without a token', () => {
    mockFetch();
    renderWithProviders(<ResetPasswordPage />, { path: '/reset-password' });
    expect(screen.getByText(INVALID_RESET_LINK)).toBeInTheDocument();
    expect(INVALID_RESET_LINK).toBe('Invalid reset link. Please request a new password reset.');
  });

  it('checks the password before sending it', async () => {
    const fetchMock = mockFetch();
    renderWithProviders(<ResetPasswordPage />, { path: '/reset-password?token=abc' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New Password'), 'short');
    await user.type(screen.getByLabelText('Confirm Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Password must be at least 8 characters long');

    await user.clear(screen.getByLabelText('New Password'));
    await user.type(screen.getByLabelText('New Password'), 'long enough');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('resets with the token and goes to /auth after 3 s', async () => {
    const fetchMock = mockFetch({
      'POST /api/reset-password': () => jsonResponse(200, { message: 'Password reset successfully' }),
    });
    withAuthRoute(<ResetPasswordPage />, '/reset-password?token=tok-1');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New Password'), 'a new secret');
    await user.type(screen.getByLabelText('Confirm Password'), 'a new secret');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password reset successfully')).toBeInTheDocument();
    expect(JSON.parse(String((fetchMock.mock.calls[0][1] as RequestInit).body))).toEqual({
      token: 'tok-1',
      newPassword: 'a new secret',
    });
    act(() => void vi.advanceTimersByTime(AUTH_REDIRECT_DELAY_MS - 100));
    expect(screen.queryByText('Sign-in screen')).not.toBeInTheDocument();
    act(() => void vi.advanceTimersByTime(200));
    expect(screen.getByText('Sign-in screen')).toBeInTheDocument();
  });

  it("shows the server's rejection or 'Failed to reset password'", async () => {
    mockFetch({ 'POST /api/reset-password': () => jsonResponse(400, { message: 'This reset link has expired' }) });
    renderWithProviders(<ResetPasswordPage />, { path: '/reset-password?token=old' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New Password'), 'a new secret');
    await user.type(screen.getByLabelText('Confirm Password'), 'a new secret');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This reset link has expired');
  });
});

describe('/verify-email', () => {
  it('verifies the token once and goes to /auth after 3 s', async () => {
    const fetchMock = mockFetch({
      'POST /api/verify-email': () => jsonResponse(200, { message: 'Thanks, your address is confirmed' }),
    });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    withAuthRoute(<VerifyEmailPage />, '/verify-email?token=v-1');
    expect(await screen.findByText('Thanks, your address is confirmed')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String((fetchMock.mock.calls[0][1] as RequestInit).body))).toEqual({ token: 'v-1' });
    act(() => void vi.advanceTimersByTime(AUTH_REDIRECT_DELAY_MS + 10));
    expect(screen.getByText('Sign-in screen')).toBeInTheDocument();
  });

  it('signs in on the way to the destination registration carried (a path of this app only)', async () => {
    mockFetch({ 'POST /api/verify-email': () => jsonResponse(200, { message: 'Verified' }) });
    withAuthRoute(<VerifyEmailPage />, `/verify-email?token=v-2&next=${encodeURIComponent('/become-mentor')}`);
    expect(await screen.findByRole('link', { name: 'Go to Sign In' })).toHaveAttribute(
      'href',
      `/auth?next=${encodeURIComponent('/become-mentor')}`,
    );
  });

  it('ignores a destination on another site', async () => {
    mockFetch({ 'POST /api/verify-email': () => jsonResponse(200, { message: 'Verified' }) });
    withAuthRoute(<VerifyEmailPage />, `/verify-email?token=v-3&next=${encodeURIComponent('//evil.example')}`);
    expect(await screen.findByRole('link', { name: 'Go to Sign In' })).toHaveAttribute('href', '/auth');
  });

  it("shows 'Failed to verify email' and a resend form on failure", async () => {
    const fetchMock = mockFetch({
      'POST /api/verify-email': () => new Response('', { status: 400, statusText: 'Bad Request' }),
      'POST /api/resend-verification': () => jsonResponse(200, { message: 'A new link is on its way' }),
    });
    renderWithProviders(<VerifyEmailPage />, { path: '/verify-email?token=bad' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to verify email');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Resend Verification Email' }));
    expect(await screen.findByText('A new link is on its way')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('shows the resend form without a token', async () => {
    mockFetch({ 'POST /api/resend-verification': () => new Response('', { status: 500, statusText: 'x' }) });
    renderWithProviders(<VerifyEmailPage />, { path: '/verify-email' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Resend Verification Email' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to resend verification email');
  });
});

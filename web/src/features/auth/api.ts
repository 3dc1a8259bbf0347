import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-fetch';
import type { MessageResponse } from '@/lib/auth';

// The password and e-mail verification calls of docs/accounts.md (spec 02 §7).

export function useResendVerification() {
  return useMutation({
    mutationFn: (email: string) => apiRequest<MessageResponse>('POST', '/api/resend-verification', { email }),
  });
}

export function useForgotPassword() {
  return useMutation({
    mutationFn: (email: string) => apiRequest<MessageResponse>('POST', '/api/forgot-password', { email }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (input: { token: string; newPassword: string }) =>
      apiRequest<MessageResponse>('POST', '/api/reset-password', input),
  });
}

export function useVerifyEmail() {
  return useMutation({
    mutationFn: (token: string) => apiRequest<MessageResponse>('POST', '/api/verify-email', { token }),
  });
}

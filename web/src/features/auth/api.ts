import { useMutation } from '@tanstack/react-query';
import { resendVerification, verifyEmail } from '@/api/endpoints/accounts/accounts';
import { forgotPassword, resetPassword } from '@/api/endpoints/passwords/passwords';

// The password and e-mail verification calls, through the generated client.

export function useResendVerification() {
  return useMutation({ mutationFn: (email: string) => resendVerification({ email }) });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: (email: string) => forgotPassword({ email }) });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (input: { token: string; newPassword: string }) => resetPassword(input),
  });
}

export function useVerifyEmail() {
  return useMutation({ mutationFn: (token: string) => verifyEmail({ token }) });
}

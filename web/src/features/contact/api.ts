import { useMutation } from '@tanstack/react-query';
import { sendContactMessage } from '@/api/endpoints/support/support';
import type { ContactRequest } from './validation';

/** POST /api/contact (docs/catalogue.md): 201 {message}; 400 or 429 with {message}. */
export function useSendContactMessage() {
  return useMutation({ mutationFn: (body: ContactRequest) => sendContactMessage(body) });
}

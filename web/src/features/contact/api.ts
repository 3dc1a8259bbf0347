import { useSendContactMessage as useGeneratedSendContactMessage } from '@/api/endpoints/support/support';
import type { ContactRequest } from './validation';

/** POST /api/contact (docs/catalogue.md): 201 {message}; 400 or 429 with {message}. */
export function useSendContactMessage() {
  const mutation = useGeneratedSendContactMessage();
  return {
    ...mutation,
    mutate: (body: ContactRequest, options?: Parameters<typeof mutation.mutate>[1]) =>
      mutation.mutate({ data: body }, options),
  };
}

import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-fetch';
import type { ContactRequest } from './validation';

// POST /api/contact (docs/catalogue.md): 201 {message}; 400 or 429 with {message}.
// Hand-written until openapi.yaml has the path; then use the generated client.

export function sendContactMessage(body: ContactRequest): Promise<{ message: string }> {
  return apiRequest<{ message: string }>('POST', '/api/contact', body);
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage });
}

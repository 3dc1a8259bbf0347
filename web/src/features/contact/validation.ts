import type { ContactCategory } from './categories';

/** What the contact form holds; category '' means none was chosen. */
export type ContactForm = {
  name: string;
  email: string;
  subject: string;
  category: ContactCategory | '';
  message: string;
};

/** The body of POST /api/contact: name, email and message are required, subject and category optional. */
export type ContactRequest = {
  name: string;
  email: string;
  subject?: string;
  category?: ContactCategory;
  message: string;
};

export const EMPTY_CONTACT_FORM: ContactForm = { name: '', email: '', subject: '', category: '', message: '' };

export const MISSING_INFORMATION = {
  title: 'Missing Information',
  description: 'Please fill in all required fields.',
} as const;

/**
 * Name, email and message are required (blank after trimming counts as missing).
 * Returns the request to send, or null when a required field is missing.
 */
export function toContactRequest(form: ContactForm): ContactRequest | null {
  const name = form.name.trim();
  const email = form.email.trim();
  const message = form.message.trim();
  if (!name || !email || !message) return null;
  const subject = form.subject.trim();
  return {
    name,
    email,
    ...(subject ? { subject } : {}),
    ...(form.category ? { category: form.category } : {}),
    message,
  };
}

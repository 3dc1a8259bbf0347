/** The contact form's categories (docs/catalogue.md), in the order the select offers them. */
export const CONTACT_CATEGORIES = [
  { value: 'general', label: 'General Inquiry' },
  { value: 'technical', label: 'Technical Support' },
  { value: 'billing', label: 'Billing & Payments' },
  { value: 'mentor', label: 'Mentor Application' },
  { value: 'report', label: 'Report an Issue' },
  { value: 'partnership', label: 'Partnership Opportunity' },
  { value: 'feedback', label: 'Feedback & Suggestions' },
] as const;

export type ContactCategory = (typeof CONTACT_CATEGORIES)[number]['value'];

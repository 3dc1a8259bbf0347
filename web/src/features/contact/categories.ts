import { ContactCategory } from '@/api/model';

export { ContactCategory };

/** How the form shows each category (docs/catalogue.md). */
const LABELS: Record<ContactCategory, string> = {
  general: 'General Inquiry',
  technical: 'Technical Support',
  billing: 'Billing & Payments',
  mentor: 'Mentor Application',
  report: 'Report an Issue',
  partnership: 'Partnership Opportunity',
  feedback: 'Feedback & Suggestions',
};

/** The contact form's categories, in the API's order (the order the select offers them). */
export const CONTACT_CATEGORIES = Object.values(ContactCategory).map((value) => ({ value, label: LABELS[value] }));

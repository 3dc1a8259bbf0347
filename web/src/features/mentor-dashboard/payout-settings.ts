/** The payout settings form's rules (spec 02, 'Payout settings'); the server checks the same. */

export type PayoutMethod = 'paypal' | 'venmo' | 'zelle';

export const PAYOUT_METHODS: { value: PayoutMethod; label: string }[] = [
  { value: 'paypal', label: 'PayPal' },
  { value: 'venmo', label: 'Venmo' },
  { value: 'zelle', label: 'Zelle' },
];

/** A mentor without preferences is paid from $50.00 on. */
export const DEFAULT_MINIMUM_PAYOUT = '50.00';

export const PAYPAL_REQUIRED = 'Please enter your PayPal email address';
export const VENMO_REQUIRED = 'Please enter your Venmo username';
export const ZELLE_REQUIRED = 'Please enter your Zelle email address';
export const METHOD_REQUIRED = 'Please choose a payout method';
export const MINIMUM_INVALID = 'Minimum payout must be a non-negative amount with at most two decimals';

export const VALIDATION_ERROR = 'Validation Error';
export const SAVED_TITLE = 'Payout settings saved';
export const SAVED_DESCRIPTION = 'Your payout preferences have been updated successfully.';
export const SAVE_FAILED = 'Failed to save payout settings';

export type PayoutForm = {
  method: PayoutMethod | '';
  paypalEmail: string;
  venmoUsername: string;
  zelleEmail: string;
  minimumPayout: string;
  notes: string;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The first problem, in the spec's words, or null. */
export function validatePayoutForm(form: PayoutForm): string | null {
  if (!form.method) return METHOD_REQUIRED;
  if (form.method === 'paypal' && !EMAIL.test(form.paypalEmail.trim())) return PAYPAL_REQUIRED;
  if (form.method === 'venmo' && (form.venmoUsername.trim() === '' || form.venmoUsername.trim() === '@'))
    return VENMO_REQUIRED;
  if (form.method === 'zelle' && !EMAIL.test(form.zelleEmail.trim())) return ZELLE_REQUIRED;
  const min = form.minimumPayout.trim();
  if (min !== '' && !/^\d+(\.\d{1,2})?$/.test(min)) return MINIMUM_INVALID;
  return null;
}

/** The request: only the chosen method's field is sent. */
export function payoutRequest(form: PayoutForm) {
  const method = form.method as PayoutMethod;
  const field =
    method === 'paypal'
      ? { paypalEmail: form.paypalEmail.trim() }
      : method === 'venmo'
        ? { venmoUsername: form.venmoUsername.trim() }
        : { zelleEmail: form.zelleEmail.trim() };
  const notes = form.notes.trim();
  return {
    method,
    ...field,
    minimumPayout: form.minimumPayout.trim() === '' ? DEFAULT_MINIMUM_PAYOUT : form.minimumPayout.trim(),
    ...(notes ? { notes } : {}),
  };
}

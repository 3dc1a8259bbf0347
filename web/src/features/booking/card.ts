/**
 * The card form's rules: what each field keeps of what is typed, when the form may be
 * submitted, and the payload POST /api/process-payment-v2 receives (docs/booking.md).
 */

/** A card number has at most 16 digits and can be submitted from 13. */
export const CARD_NUMBER_MAX_DIGITS = 16;
export const CARD_NUMBER_MIN_DIGITS = 13;

/** The card's security code has 3 or 4 digits. */
export const CARD_CODE_MIN_DIGITS = 3;
export const CARD_CODE_MAX_DIGITS = 4;

/** The expiry is typed as MM/YY, five characters. */
export const CARD_EXPIRY_LENGTH = 5;

export type CardForm = {
  /** As shown: digits grouped by four ('4111 1111 1111 1111'). */
  cardNumber: string;
  /** As shown: 'MM/YY'. */
  expirationDate: string;
  cardCode: string;
  firstName: string;
  lastName: string;
  address: string;
  city: string;
  state: string;
  zip: string;
};

export const EMPTY_CARD_FORM: CardForm = {
  cardNumber: '',
  expirationDate: '',
  cardCode: '',
  firstName: '',
  lastName: '',
  address: '',
  city: '',
  state: '',
  zip: '',
};

export type PaymentRequest = {
  reservationId: string;
  /** Digits only. */
  cardNumber: string;
  /** MMYY. */
  expirationDate: string;
  cardCode: string;
  billingInfo: {
    firstName: string;
    lastName: string;
    address?: string;
    city?: string;
    state?: string;
    zip: string;
  };
};

function digits(value: string): string {
  return value.replace(/\D/g, '');
}

/** Digits only, at most 16, grouped by four as they are typed: '4111111' -> '4111 111'. */
export function formatCardNumber(input: string): string {
  const kept = digits(input).slice(0, CARD_NUMBER_MAX_DIGITS);
  return kept.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Digits only, at most four, a slash after the month once the year is typed: '1228' -> '12/28'. */
export function formatExpiry(input: string): string {
  const kept = digits(input).slice(0, 4);
  return kept.length > 2 ? `${kept.slice(0, 2)}/${kept.slice(2)}` : kept;
}

/** Digits only, at most four. */
export function formatCardCode(input: string): string {
  return digits(input).slice(0, CARD_CODE_MAX_DIGITS);
}

export function isCardNumberValid(cardNumber: string): boolean {
  const n = digits(cardNumber).length;
  return n >= CARD_NUMBER_MIN_DIGITS && n <= CARD_NUMBER_MAX_DIGITS;
}

export const EXPIRY_MONTH_INVALID = 'Enter a month from 01 to 12';
export const EXPIRY_IN_THE_PAST = 'This card has expired';

/**
 * What is wrong with a complete 'MM/YY' expiry, or null: a month outside 01-12, or a month that
 * has ended (a card works until the end of its expiry month). Nothing is said while typing.
 */
export function expiryProblem(expirationDate: string, now: Date = new Date()): string | null {
  const match = /^(\d{2})\/(\d{2})$/.exec(expirationDate);
  if (!match) return null;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  if (month < 1 || month > 12) return EXPIRY_MONTH_INVALID;
  const current = now.getFullYear() * 12 + now.getMonth();
  if (year * 12 + (month - 1) < current) return EXPIRY_IN_THE_PAST;
  return null;
}

export function isExpiryValid(expirationDate: string, now: Date = new Date()): boolean {
  return (
    expirationDate.length === CARD_EXPIRY_LENGTH &&
    /^\d{2}\/\d{2}$/.test(expirationDate) &&
    expiryProblem(expirationDate, now) === null
  );
}

export function isCardCodeValid(cardCode: string): boolean {
  return /^\d+$/.test(cardCode) && cardCode.length >= CARD_CODE_MIN_DIGITS && cardCode.length <= CARD_CODE_MAX_DIGITS;
}

/** Card number, expiry and code well formed; first name, last name and ZIP given. */
export function isCardFormValid(form: CardForm): boolean {
  return (
    isCardNumberValid(form.cardNumber) &&
    isExpiryValid(form.expirationDate) &&
    isCardCodeValid(form.cardCode) &&
    form.firstName.trim() !== '' &&
    form.lastName.trim() !== '' &&
    form.zip.trim() !== ''
  );
}

/** The payment payload: spaces out of the card number, the slash out of the expiry, texts trimmed. */
export function toPaymentRequest(reservationId: string, form: CardForm): PaymentRequest {
  const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());
  return {
    reservationId,
    cardNumber: form.cardNumber.replace(/\s/g, ''),
    expirationDate: form.expirationDate.replace('/', ''),
    cardCode: form.cardCode,
    billingInfo: {
      firstName: form.firstName.trim(),
      lastName: form.lastName.trim(),
      address: optional(form.address),
      city: optional(form.city),
      state: optional(form.state),
      zip: form.zip.trim(),
    },
  };
}

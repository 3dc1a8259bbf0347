import { describe, expect, it } from 'vitest';
import {
  EMPTY_CARD_FORM,
  formatCardCode,
  formatCardNumber,
  formatExpiry,
  isCardCodeValid,
  isCardFormValid,
  isCardNumberValid,
  EXPIRY_IN_THE_PAST,
  EXPIRY_MONTH_INVALID,
  expiryProblem,
  isExpiryValid,
  toPaymentRequest,
  type CardForm,
} from './card';

describe('card number', () => {
  it('keeps digits only and groups them by four as they are typed', () => {
    expect(formatCardNumber('')).toBe('');
    expect(formatCardNumber('4')).toBe('4');
    expect(formatCardNumber('4111')).toBe('4111');
    expect(formatCardNumber('41111')).toBe('4111 1');
    expect(formatCardNumber('4111 1111 1111 1111')).toBe('4111 1111 1111 1111');
    expect(formatCardNumber('4111-1111-abcd-1111 11')).toBe('4111 1111 1111 11');
  });

  it('stops at 16 digits', () => {
    expect(formatCardNumber('41111111111111112222')).toBe('4111 1111 1111 1111');
  });

  it('is valid from 13 digits', () => {
    expect(isCardNumberValid(formatCardNumber('411111111111'))).toBe(false); // 12
    expect(isCardNumberValid(formatCardNumber('4111111111111'))).toBe(true); // 13
    expect(isCardNumberValid(formatCardNumber('4111111111111111'))).toBe(true); // 16
    expect(isCardNumberValid('')).toBe(false);
  });
});

describe('expiry', () => {
  it('formats digits as MM/YY while typing', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12');
    expect(formatExpiry('122')).toBe('12/2');
    expect(formatExpiry('1228')).toBe('12/28');
    expect(formatExpiry('12/28')).toBe('12/28');
    expect(formatExpiry('12/2899')).toBe('12/28');
    expect(formatExpiry('ab12c')).toBe('12');
  });

  it('deleting back over the slash leaves the month', () => {
    expect(formatExpiry('12/')).toBe('12');
  });

  it('must be five characters', () => {
    expect(isExpiryValid('12/2')).toBe(false);
    expect(isExpiryValid('12/28')).toBe(true);
    expect(isExpiryValid('1228')).toBe(false);
  });
});

describe('security code', () => {
  it('keeps at most four digits; valid with 3 or 4', () => {
    expect(formatCardCode('12a345')).toBe('1234');
    expect(isCardCodeValid('12')).toBe(false);
    expect(isCardCodeValid('123')).toBe(true);
    expect(isCardCodeValid('1234')).toBe(true);
    expect(isCardCodeValid('12345')).toBe(false);
  });
});

const complete: CardForm = {
  ...EMPTY_CARD_FORM,
  cardNumber: '4111 1111 1111 1111',
  expirationDate: '12/30',
  cardCode: '123',
  firstName: 'Ada',
  lastName: 'Lovelace',
  zip: '10001',
};

describe('the whole form', () => {
  it('is valid with card, expiry, code, first and last name and ZIP; address, city and state are optional', () => {
    expect(isCardFormValid(complete)).toBe(true);
    expect(isCardFormValid(EMPTY_CARD_FORM)).toBe(false);
    expect(isCardFormValid({ ...complete, firstName: '  ' })).toBe(false);
    expect(isCardFormValid({ ...complete, lastName: '' })).toBe(false);
    expect(isCardFormValid({ ...complete, zip: '' })).toBe(false);
    expect(isCardFormValid({ ...complete, cardNumber: '4111 1111 1111' })).toBe(false);
    expect(isCardFormValid({ ...complete, expirationDate: '12/3' })).toBe(false);
    expect(isCardFormValid({ ...complete, cardCode: '12' })).toBe(false);
  });

  it('sends the card number without spaces and the expiry without the slash', () => {
    expect(toPaymentRequest('r1', { ...complete, address: ' 1 Main St ', city: '', state: 'NY' })).toEqual({
      reservationId: 'r1',
      cardNumber: '4111111111111111',
      expirationDate: '1230',
      cardCode: '123',
      billingInfo: {
        firstName: 'Ada',
        lastName: 'Lovelace',
        address: '1 Main St',
        city: undefined,
        state: 'NY',
        zip: '10001',
      },
    });
  });
});

describe('expiry in time', () => {
  const now = new Date(2026, 10, 23);
  it('refuses a month outside 01-12 and a month that has ended; the current month still works', () => {
    expect(expiryProblem('13/27', now)).toBe(EXPIRY_MONTH_INVALID);
    expect(expiryProblem('00/27', now)).toBe(EXPIRY_MONTH_INVALID);
    expect(expiryProblem('10/26', now)).toBe(EXPIRY_IN_THE_PAST);
    expect(expiryProblem('11/26', now)).toBeNull();
    expect(expiryProblem('01/27', now)).toBeNull();
    expect(expiryProblem('1', now)).toBeNull();
    expect(isExpiryValid('10/26', now)).toBe(false);
    expect(isExpiryValid('11/26', now)).toBe(true);
  });
});

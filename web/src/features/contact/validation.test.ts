import { describe, expect, it } from 'vitest';
import { CONTACT_CATEGORIES } from './categories';
import { EMPTY_CONTACT_FORM, MISSING_INFORMATION, toContactRequest } from './validation';

const filled = { ...EMPTY_CONTACT_FORM, name: 'Ada', email: 'ada@example.com', message: 'Hello there' };

describe('toContactRequest', () => {
  it('needs name, email and message', () => {
    expect(toContactRequest(EMPTY_CONTACT_FORM)).toBeNull();
    expect(toContactRequest({ ...filled, name: '' })).toBeNull();
    expect(toContactRequest({ ...filled, email: '' })).toBeNull();
    expect(toContactRequest({ ...filled, message: '' })).toBeNull();
  });

  it('counts blank fields as missing', () => {
    expect(toContactRequest({ ...filled, name: '   ' })).toBeNull();
    expect(toContactRequest({ ...filled, message: '\n\t' })).toBeNull();
  });

  it('leaves the optional subject and category out when empty, and trims', () => {
    expect(toContactRequest({ ...filled, name: ' Ada ', subject: '  ' })).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      message: 'Hello there',
    });
    expect(toContactRequest({ ...filled, subject: ' Refund ', category: 'billing' })).toEqual({
      name: 'Ada',
      email: 'ada@example.com',
      subject: 'Refund',
      category: 'billing',
      message: 'Hello there',
    });
  });

  it("says 'Missing Information - Please fill in all required fields.'", () => {
    expect(MISSING_INFORMATION).toEqual({
      title: 'Missing Information',
      description: 'Please fill in all required fields.',
    });
  });
});

describe('contact categories', () => {
  it('are the seven of the contract with their labels', () => {
    expect(CONTACT_CATEGORIES.map((c) => [c.value, c.label])).toEqual([
      ['general', 'General Inquiry'],
      ['technical', 'Technical Support'],
      ['billing', 'Billing & Payments'],
      ['mentor', 'Mentor Application'],
      ['report', 'Report an Issue'],
      ['partnership', 'Partnership Opportunity'],
      ['feedback', 'Feedback & Suggestions'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { fullName, initials, memberSince, ratingText, roleLabel } from './format';
import {
  draftFrom,
  IMAGE_TOO_LARGE,
  NEW_PASSWORDS_DO_NOT_MATCH,
  NOT_AN_IMAGE,
  PASSWORD_TOO_SHORT,
  profileEdit,
  validateImageFile,
  validatePasswordChange,
} from './validation';

const MB = 1024 * 1024;

describe('validateImageFile', () => {
  it('takes images up to 5MB', () => {
    expect(validateImageFile({ type: 'image/png', size: 1234 })).toBeNull();
    expect(validateImageFile({ type: 'image/jpeg', size: 5 * MB })).toBeNull();
  });

  it("refuses larger files: 'Image file must be smaller than 5MB'", () => {
    expect(validateImageFile({ type: 'image/png', size: 5 * MB + 1 })).toBe('Image file must be smaller than 5MB');
    expect(IMAGE_TOO_LARGE).toBe('Image file must be smaller than 5MB');
  });

  it("refuses other files: 'Only image files are allowed'", () => {
    expect(validateImageFile({ type: 'application/pdf', size: 10 })).toBe('Only image files are allowed');
    expect(validateImageFile({ type: '', size: 10 })).toBe(NOT_AN_IMAGE);
    expect(NOT_AN_IMAGE).toBe('Only image files are allowed');
  });
});

describe('validatePasswordChange', () => {
  const ok = { currentPassword: 'old secret', newPassword: 'new secret', confirmPassword: 'new secret' };

  it('accepts a current password and a matching new one of 8 or more characters', () => {
    expect(validatePasswordChange(ok)).toBeNull();
    expect(validatePasswordChange({ ...ok, newPassword: '12345678', confirmPassword: '12345678' })).toBeNull();
  });

  it('needs the current password', () => {
    expect(validatePasswordChange({ ...ok, currentPassword: '' })).toBe('Please enter your current password');
  });

  it("needs 8 characters: 'Password must be at least 8 characters long'", () => {
    expect(validatePasswordChange({ ...ok, newPassword: '1234567', confirmPassword: '1234567' })).toBe(
      'Password must be at least 8 characters long',
    );
    expect(PASSWORD_TOO_SHORT).toBe('Password must be at least 8 characters long');
  });

  it("needs a matching confirmation: 'New passwords do not match'", () => {
    expect(validatePasswordChange({ ...ok, confirmPassword: 'new secreT' })).toBe('New passwords do not match');
    expect(NEW_PASSWORDS_DO_NOT_MATCH).toBe('New passwords do not match');
  });
});

describe('profileEdit', () => {
  const saved = draftFrom({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', bio: null });

  it('starts the form from the saved user, absent values as empty', () => {
    expect(saved).toEqual({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', bio: '' });
  });

  it("finds nothing to save when only whitespace changed ('No changes to save')", () => {
    expect(profileEdit(saved, saved)).toEqual({ kind: 'unchanged' });
    expect(profileEdit(saved, { ...saved, firstName: ' Ada ', bio: '   ' })).toEqual({ kind: 'unchanged' });
  });

  it('sends only the fields that changed, trimmed', () => {
    expect(profileEdit(saved, { ...saved, firstName: ' Augusta ', bio: 'Stargazer' })).toEqual({
      kind: 'changed',
      update: { firstName: 'Augusta', bio: 'Stargazer' },
      emailChanged: false,
    });
  });

  it('tells when the e-mail changes', () => {
    expect(profileEdit(saved, { ...saved, email: 'ada@new.example' })).toEqual({
      kind: 'changed',
      update: { email: 'ada@new.example' },
      emailChanged: true,
    });
  });

  it('requires the e-mail', () => {
    expect(profileEdit(saved, { ...saved, email: '  ' })).toEqual({
      kind: 'invalid',
      message: 'Please enter your email address',
    });
  });
});

describe('profile formatting', () => {
  it('labels roles Administrator, Mentor and Member', () => {
    expect(roleLabel({ role: 'admin', isAdmin: true })).toBe('Administrator');
    expect(roleLabel({ role: 'user', isAdmin: true })).toBe('Administrator');
    expect(roleLabel({ role: 'mentor', isAdmin: false })).toBe('Mentor');
    expect(roleLabel({ role: 'user', isAdmin: false })).toBe('Member');
  });

  it('shows member since as month and year', () => {
    expect(memberSince('2025-01-15T12:00:00Z')).toBe('January 2025');
  });

  it('names and initials fall back sensibly', () => {
    expect(fullName({ firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(fullName({ firstName: 'Ada', lastName: null })).toBe('Ada');
    expect(fullName({ firstName: '', lastName: ' ' })).toBe('Unnamed member');
    expect(initials({ firstName: 'ada', lastName: 'lovelace' })).toBe('AL');
    expect(initials({ firstName: null, lastName: null, email: 'zed@example.com' })).toBe('Z');
  });

  it('shows a rating with one decimal, none without reviews', () => {
    expect(ratingText('4.80', 3)).toBe('4.8');
    expect(ratingText('0.00', 0)).toBeNull();
    expect(ratingText('5.00', 0)).toBeNull();
  });
});

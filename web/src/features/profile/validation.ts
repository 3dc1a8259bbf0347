import { MIN_PASSWORD_LENGTH } from '@/config/constants';
import type { ProfileUpdate } from './api';

// The client-side checks of the profile screen.

export { IMAGE_TOO_LARGE, NOT_AN_IMAGE, validateImageFile } from '@/lib/images';

export const CURRENT_PASSWORD_REQUIRED = 'Please enter your current password';
export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
export const NEW_PASSWORDS_DO_NOT_MATCH = 'New passwords do not match';

export type PasswordChange = { currentPassword: string; newPassword: string; confirmPassword: string };

export function validatePasswordChange({
  currentPassword,
  newPassword,
  confirmPassword,
}: PasswordChange): string | null {
  if (!currentPassword) return CURRENT_PASSWORD_REQUIRED;
  if (newPassword.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT;
  if (newPassword !== confirmPassword) return NEW_PASSWORDS_DO_NOT_MATCH;
  return null;
}

export type ProfileDraft = { firstName: string; lastName: string; email: string; bio: string };

export const EMAIL_REQUIRED = 'Please enter your email address';

/** The editable fields of a user, as the edit form starts them (absent values are ''). */
export function draftFrom(user: {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  bio?: string | null;
}): ProfileDraft {
  return {
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    email: user.email ?? '',
    bio: user.bio ?? '',
  };
}

export type ProfileEdit =
  | { kind: 'invalid'; message: string }
  | { kind: 'unchanged' }
  | { kind: 'changed'; update: ProfileUpdate; emailChanged: boolean };

/**
 * Compares the edit form with the saved profile: the fields that changed (trimmed) make the
 * update; none means 'No changes to save'. The e-mail is required.
 */
export function profileEdit(saved: ProfileDraft, draft: ProfileDraft): ProfileEdit {
  const next: ProfileDraft = {
    firstName: draft.firstName.trim(),
    lastName: draft.lastName.trim(),
    email: draft.email.trim(),
    bio: draft.bio.trim(),
  };
  if (!next.email) return { kind: 'invalid', message: EMAIL_REQUIRED };
  const update: ProfileUpdate = {};
  for (const key of ['firstName', 'lastName', 'email', 'bio'] as const) {
    if (next[key] !== saved[key].trim()) update[key] = next[key];
  }
  if (Object.keys(update).length === 0) return { kind: 'unchanged' };
  return { kind: 'changed', update, emailChanged: update.email !== undefined };
}

export const NO_CHANGES = 'No changes to save';
export const PROFILE_UPDATED = 'Profile updated successfully!';
export const PROFILE_UPDATE_FAILED = 'Failed to update profile';
export const IMAGE_UPLOADED = 'Profile image uploaded successfully!';
export const IMAGE_UPLOAD_FAILED = 'Failed to upload image';
export const PASSWORD_CHANGED = 'Password changed successfully!';
export const PASSWORD_CHANGE_FAILED = 'Failed to change password';

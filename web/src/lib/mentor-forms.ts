/**
 * Client-side checks of the mentor forms, with the spec's exact messages: the
 * onboarding profile and service steps, the dashboard's service dialogs and the Edit Mentor
 * Profile dialog. The api checks the same rules and answers with the same texts.
 */
import { isOwnUpload } from './images';
import { normalizePrice } from './money';
import { isServiceType, type ServiceType } from './services';

export const DISPLAY_NAME_MIN = 2;
export const BIO_MIN = 50;
export const BIO_MAX = 500;
export const TITLE_MIN = 3;
export const DESCRIPTION_MIN = 20;
export const DEFAULT_DURATION = 60;
export const DURATION_MIN = 15;
export const DURATION_MAX = 480;
export const GROUP_MIN = 2;
export const GROUP_MAX = 20;
export const DEFAULT_GROUP_SIZE = 4;

export const MESSAGES = {
  displayName: 'Display name must be at least 2 characters',
  bioShort: 'Bio must be at least 50 characters',
  bioLong: 'Bio must be less than 500 characters',
  basePrice: 'Base price is required',
  price: 'Price is required',
  priceInvalid: 'Price must be a valid amount of at least 0',
  imageUrl: 'Please enter a valid image URL',
  specialties: 'Please select at least one specialty',
  title: 'Service title must be at least 3 characters',
  description: 'Description must be at least 20 characters',
  serviceType: 'Please choose a service type',
  duration: 'Duration is required',
  durationRange: 'Duration must be between 15 and 480 minutes',
  group: 'Group sessions take 2 to 20 participants',
} as const;

export type Errors<K extends string> = Partial<Record<K, string>>;

// --- Profile ---------------------------------------------------------------------------------

export type ProfileForm = {
  displayName: string;
  bio: string;
  specialties: string[];
  basePrice: string;
  profileImageUrl: string;
};

export type ProfileField = keyof ProfileForm;

/** Specialties are trimmed, and duplicates (ignoring case) and empty ones dropped. */
export function normalizeSpecialties(specialties: string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of specialties) {
    const s = raw.trim();
    if (!s || seen.has(s.toLowerCase())) continue;
    seen.add(s.toLowerCase());
    result.push(s);
  }
  return result;
}

/** The onboarding profile (and Edit Mentor Profile): the first problem of each field. */
export function validateProfile(form: ProfileForm): Errors<ProfileField> {
  const errors: Errors<ProfileField> = {};
  if (form.displayName.trim().length < DISPLAY_NAME_MIN) errors.displayName = MESSAGES.displayName;
  const bio = form.bio.trim();
  if (bio.length < BIO_MIN) errors.bio = MESSAGES.bioShort;
  else if (bio.length > BIO_MAX) errors.bio = MESSAGES.bioLong;
  if (normalizeSpecialties(form.specialties).length === 0) errors.specialties = MESSAGES.specialties;
  if (form.basePrice.trim() === '') errors.basePrice = MESSAGES.basePrice;
  else if (normalizePrice(form.basePrice) === null) errors.basePrice = MESSAGES.priceInvalid;
  const image = form.profileImageUrl.trim();
  if (image !== '' && !isOwnUpload(image)) errors.profileImageUrl = MESSAGES.imageUrl;
  return errors;
}

// --- Services --------------------------------------------------------------------------------

export type ServiceForm = {
  title: string;
  description: string;
  serviceType: ServiceType | '';
  price: string;
  /** Free text; empty or unreadable means 60 (dashboard) or 'Duration is required' (onboarding). */
  duration: string;
  isGroupSession: boolean;
  maxParticipants: string;
  /** The dashboard's 'free' checkbox: the price is '0.00' and cannot be typed. */
  free: boolean;
};

export type ServiceField = keyof ServiceForm;

export const EMPTY_SERVICE: ServiceForm = {
  title: '',
  description: '',
  serviceType: '',
  price: '',
  duration: String(DEFAULT_DURATION),
  isGroupSession: false,
  maxParticipants: String(DEFAULT_GROUP_SIZE),
  free: false,
};

/** The duration defaults to 60 minutes when empty or not a whole number. */
export function durationOrDefault(value: string): number {
  const n = Number(value.trim());
  return value.trim() !== '' && Number.isInteger(n) && n > 0 ? n : DEFAULT_DURATION;
}

/**
 * The service checks. `requireDuration` is the onboarding rule ('Duration is required');
 * the dashboard instead falls back to 60 minutes.
 */
export function validateService(form: ServiceForm, { requireDuration = false } = {}): Errors<ServiceField> {
  const errors: Errors<ServiceField> = {};
  if (form.title.trim().length < TITLE_MIN) errors.title = MESSAGES.title;
  if (form.description.trim().length < DESCRIPTION_MIN) errors.description = MESSAGES.description;
  if (!isServiceType(form.serviceType)) errors.serviceType = MESSAGES.serviceType;
  if (form.free) {
    // '0.00', set by the checkbox
  } else if (form.price.trim() === '') errors.price = MESSAGES.price;
  else if (normalizePrice(form.price) === null) errors.price = MESSAGES.priceInvalid;
  const durationText = form.duration.trim();
  if (requireDuration && durationText === '') {
    errors.duration = MESSAGES.duration;
  } else {
    const minutes = requireDuration ? Number(durationText) : durationOrDefault(durationText);
    if (!Number.isInteger(minutes) || minutes < DURATION_MIN || minutes > DURATION_MAX)
      errors.duration = MESSAGES.durationRange;
  }
  if (form.isGroupSession) {
    const n = Number(form.maxParticipants.trim());
    if (!Number.isInteger(n) || n < GROUP_MIN || n > GROUP_MAX) errors.maxParticipants = MESSAGES.group;
  }
  return errors;
}

export type ServiceBody = {
  title: string;
  description: string;
  serviceType: ServiceType;
  price: string;
  duration: number;
  isGroupSession: boolean;
  maxParticipants?: number;
};

/** The request body of a valid service form (POST /api/services); no size for a one-to-one service. */
export function serviceBody(form: ServiceForm): ServiceBody {
  const body: ServiceBody = {
    title: form.title.trim(),
    description: form.description.trim(),
    serviceType: form.serviceType as ServiceType,
    price: form.free ? '0.00' : (normalizePrice(form.price) ?? '0.00'),
    duration: durationOrDefault(form.duration),
    isGroupSession: form.isGroupSession,
  };
  if (form.isGroupSession) body.maxParticipants = Number(form.maxParticipants.trim());
  return body;
}

/** A saved service as the edit form shows it. */
export function serviceToForm(service: {
  title: string;
  description: string;
  serviceType: string;
  price: string;
  duration: number;
  isGroupSession: boolean;
  maxParticipants?: number | null;
}): ServiceForm {
  const free = Number(service.price) === 0;
  return {
    title: service.title,
    description: service.description,
    serviceType: isServiceType(service.serviceType) ? service.serviceType : '',
    price: free ? '0.00' : service.price,
    duration: String(service.duration),
    isGroupSession: service.isGroupSession,
    maxParticipants: String(service.maxParticipants ?? DEFAULT_GROUP_SIZE),
    free,
  };
}

/**
 * The Edit Service dialog sends only the fields that changed (and isActive when it
 * changed). Prices compare as amounts, so '50' and '50.00' are no change.
 */
export function changedServiceFields(
  before: ServiceBody & { isActive: boolean },
  after: ServiceBody & { isActive: boolean },
): Partial<ServiceBody & { isActive: boolean }> {
  const changes: Partial<ServiceBody & { isActive: boolean }> = {};
  if (after.title !== before.title) changes.title = after.title;
  if (after.description !== before.description) changes.description = after.description;
  if (after.serviceType !== before.serviceType) changes.serviceType = after.serviceType;
  if (Number(after.price) !== Number(before.price)) changes.price = after.price;
  if (after.duration !== before.duration) changes.duration = after.duration;
  if (after.isGroupSession !== before.isGroupSession) changes.isGroupSession = after.isGroupSession;
  if (after.isGroupSession && after.maxParticipants !== before.maxParticipants) {
    changes.maxParticipants = after.maxParticipants;
  }
  if (after.isActive !== before.isActive) changes.isActive = after.isActive;
  return changes;
}

export function hasErrors(errors: object): boolean {
  return Object.keys(errors).length > 0;
}
